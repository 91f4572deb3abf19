package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.limits.MemoryAccount;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.planner.catalog.StreamTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
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
  /**
   * The {@link DataContext} variable that holds the statement's {@link PlainQueryRun}: the budget
   * the rows a scan holds count against, and the cancellation its rows check.
   */
  static final String RUN_VARIABLE = "freshetPlainQueryRun";

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
    long to = end == null ? stream.source().latestOffset() : end;
    // The rows are immutable once appended (Source#readRange): they are handed out as they are.
    List<@Nullable Object[]> rows = new ArrayList<>();
    PlainQueryRun run = (PlainQueryRun) root.get(RUN_VARIABLE);
    if (run == null) {
      stream.source().readRange(0, to, rows::add);
      return Linq4j.asEnumerable(rows);
    }
    // The list keeps the rows alive however the stream trims its own: they count against the
    // statement's budget, every so many rows, as does the time it takes to read them.
    QueryResources resources = run.resources();
    MemoryAccount held = resources.newAccount();
    long bytesPerRow = PlainQueryRun.bytesPerRow(stream.getRowType(root.getTypeFactory()).getFieldCount());
    stream.source().readRange(0, to, row -> {
      rows.add(row);
      if (rows.size() % PlainQueryRun.CHECK_INTERVAL == 0) {
        resources.throwIfCancelled();
        held.set(rows.size() * bytesPerRow);
      }
    });
    held.set(rows.size() * bytesPerRow);
    return new CancellableRows(rows, resources);
  }

  /**
   * The rows a scan read, handed out with a check of the statement's cancellation at each: an
   * operator over them (a nested-loop join that goes over them once per row of the other side)
   * sees the cancel within one row.
   */
  private static final class CancellableRows extends AbstractEnumerable<@Nullable Object[]> {
    private final List<@Nullable Object[]> rows;
    private final QueryResources resources;

    CancellableRows(List<@Nullable Object[]> rows, QueryResources resources) {
      this.rows = rows;
      this.resources = resources;
    }

    @Override public Enumerator<@Nullable Object[]> enumerator() {
      return new Enumerator<>() {
        private int next;
        private @Nullable Object @Nullable [] current;

        @Override public @Nullable Object[] current() {
          return current;
        }

        @Override public boolean moveNext() {
          resources.throwIfCancelled();
          if (next == rows.size()) {
            return false;
          }
          current = rows.get(next++);
          return true;
        }

        @Override public void reset() {
          next = 0;
          current = null;
        }

        @Override public void close() {
        }
      };
    }
  }

  @Override public <C> @Nullable C unwrap(Class<C> aClass) {
    if (aClass.isInstance(stream)) {
      return aClass.cast(stream);
    }
    return super.unwrap(aClass);
  }
}
