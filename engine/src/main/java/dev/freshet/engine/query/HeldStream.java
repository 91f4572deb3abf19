package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import dev.freshet.planner.catalog.StreamTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A stream as a plain query reads it: a table of the rows the stream holds, up to the offset the
 * statement fixed when it started, so that Calcite's enumerable engine runs any batch SQL over it
 * (ORDER BY, joins with other streams, views and system tables, subqueries).
 *
 * <pre>{@code
 * // the statement's DataContext maps each stream it reads to the offset read up to:
 * Map<StreamTable, Long> offsets = Map.of(clicks, clicks.source().latestOffset());
 * new HeldStream(clicks).scan(context);   // the rows of offsets (0, offsets.get(clicks)]
 * }</pre>
 *
 * <p>Every scan of one statement reads the same offset of a stream, so a self-join or a
 * subquery sees the same rows however many INSERTs land while it runs. It unwraps to its
 * {@link StreamTable}, which is how {@link PullQueryExecutor} finds the streams a query reads.
 */
final class HeldStream extends AbstractTable implements ScannableTable {
  /**
   * The {@link DataContext} variable that holds a statement's {@code Map<StreamTable, Long>}:
   * the offset it reads each of its streams up to.
   */
  static final String OFFSETS_VARIABLE = "freshetStreamOffsets";

  private final StreamTable stream;

  HeldStream(StreamTable stream) {
    this.stream = requireNonNull(stream, "stream");
  }

  /** The offset of each stream, taken now: the snapshot a statement over them reads. */
  static Map<StreamTable, Long> snapshot(List<StreamTable> streams) {
    Map<StreamTable, Long> offsets = new java.util.IdentityHashMap<>();
    for (StreamTable stream : streams) {
      offsets.put(stream, stream.source().latestOffset());
    }
    return offsets;
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return stream.getRowType(typeFactory);
  }

  @Override public Schema.TableType getJdbcTableType() {
    return Schema.TableType.STREAM;
  }

  @Override public Enumerable<@Nullable Object[]> scan(DataContext root) {
    @SuppressWarnings("unchecked")
    Map<StreamTable, Long> offsets = (Map<StreamTable, Long>) root.get(OFFSETS_VARIABLE);
    Long end = offsets == null ? null : offsets.get(stream);
    // The rows are immutable once appended (Source#readRange): they are handed out as they are.
    List<@Nullable Object[]> rows = new ArrayList<>();
    stream.source().readRange(0, end == null ? stream.source().latestOffset() : end, rows::add);
    return Linq4j.asEnumerable(rows);
  }

  @Override public <C> @Nullable C unwrap(Class<C> aClass) {
    if (aClass.isInstance(stream)) {
      return aClass.cast(stream);
    }
    return super.unwrap(aClass);
  }
}
