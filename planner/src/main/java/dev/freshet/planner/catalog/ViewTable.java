package dev.freshet.planner.catalog;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.runtime.OutputMode;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A materialized view as Calcite sees it: a table whose rows are the latest {@link ViewSnapshot}
 * that the view's continuous query published.
 *
 * <pre>{@code
 * ViewTable view = new ViewTable("CLICKS_PER_USER", proto, OutputMode.UPDATE, queryId, sql,
 *     List.of("CLICKS"));
 * view.publish(new ViewSnapshot(0, rows));   // from the query's batch thread
 * // now SELECT * FROM clicks_per_user reads the rows of batch 0
 * }</pre>
 *
 * <p>The snapshot is published through a volatile field, so a reader sees the rows of whole
 * batches only. A statement that reads a view more than once (a self-join) should read the same
 * snapshot each time: whoever executes it can pin the snapshot in the {@link DataContext} under
 * {@link #snapshotVariable(String)}, and {@link #scan} then reads the pinned one.
 *
 * <p>The planner's streaming rules do not apply to a view: a continuous query cannot read one.
 */
public final class ViewTable extends AbstractTable implements ScannableTable {
  private final String name;
  private final RelProtoDataType rowType;
  private final OutputMode outputMode;
  private final String queryId;
  private final String sql;
  private final List<String> sources;
  /** The result of the last batch applied; replaced whole, never modified. */
  private volatile ViewSnapshot snapshot = ViewSnapshot.EMPTY;

  /**
   * Creates a view table with an empty result.
   *
   * @param name view name as stored in the catalog
   * @param rowType column names and types
   * @param outputMode how the query's batches change the result
   * @param queryId id of the continuous query that maintains the view
   * @param sql the statement that created the view
   * @param sources names of the streams the view reads
   */
  public ViewTable(String name, RelProtoDataType rowType, OutputMode outputMode, String queryId,
      String sql, List<String> sources) {
    this.name = requireNonNull(name, "name");
    this.rowType = requireNonNull(rowType, "rowType");
    this.outputMode = requireNonNull(outputMode, "outputMode");
    this.queryId = requireNonNull(queryId, "queryId");
    this.sql = requireNonNull(sql, "sql");
    this.sources = List.copyOf(sources);
  }

  /** Name of the {@link DataContext} variable that pins the snapshot of view {@code name}. */
  public static String snapshotVariable(String name) {
    return "freshet.viewSnapshot." + name;
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return rowType.apply(typeFactory);
  }

  @Override public Schema.TableType getJdbcTableType() {
    return Schema.TableType.MATERIALIZED_VIEW;
  }

  @Override public Enumerable<@Nullable Object[]> scan(DataContext root) {
    Object pinned = root.get(snapshotVariable(name));
    ViewSnapshot s = pinned instanceof ViewSnapshot ? (ViewSnapshot) pinned : snapshot;
    return Linq4j.asEnumerable(s.rows());
  }

  /** The view's name. */
  public String name() {
    return name;
  }

  /** How the query's batches change the result: upsert by key, replace, or append. */
  public OutputMode outputMode() {
    return outputMode;
  }

  /** Id of the continuous query that maintains the view. */
  public String queryId() {
    return queryId;
  }

  /** The {@code CREATE MATERIALIZED VIEW} statement as the user wrote it. */
  public String sql() {
    return sql;
  }

  /** Names of the streams the view reads; none of them can be dropped while the view exists. */
  public List<String> sources() {
    return sources;
  }

  /** The result of the last batch applied. */
  public ViewSnapshot snapshot() {
    return snapshot;
  }

  /**
   * Makes {@code next} the view's result; called by the view's query after each batch, from one
   * thread. Batch ids must grow.
   */
  public void publish(ViewSnapshot next) {
    requireNonNull(next, "next");
    if (next.batchId() <= snapshot.batchId()) {
      throw new IllegalArgumentException("view " + name + " has batch " + snapshot.batchId()
          + " already; cannot publish batch " + next.batchId());
    }
    snapshot = next;
  }
}
