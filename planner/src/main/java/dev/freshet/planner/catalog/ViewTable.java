package dev.freshet.planner.catalog;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.OutputMode;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ProjectableFilterableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A materialized view as Calcite sees it: a table whose rows are the committed result that the
 * view's continuous query keeps in a {@link ViewResult}.
 *
 * <pre>{@code
 * ViewTable view = new ViewTable("CLICKS_PER_USER", proto, OutputMode.UPDATE, queryId, sql,
 *     List.of("CLICKS"), result);
 * // SELECT n FROM clicks_per_user WHERE user_id = 'ann' reads result.scan(root, [=($0, 'ann')],
 * // [1]), which may find the row by its key instead of reading them all
 * }</pre>
 *
 * <p>A continuous query does not scan the view's rows: it reads the view's changes, version by
 * version ({@link #changelog()}).
 */
public final class ViewTable extends AbstractTable implements ProjectableFilterableTable {
  private final String name;
  private final RelProtoDataType rowType;
  private final OutputMode outputMode;
  private final String queryId;
  private final String sql;
  private final List<String> sources;
  private final ViewResult result;

  /**
   * Creates a view table.
   *
   * @param name view name as stored in the catalog
   * @param rowType column names and types
   * @param outputMode how the query's batches change the result
   * @param queryId id of the continuous query that maintains the view
   * @param sql the statement that created the view
   * @param sources names of the streams the view reads
   * @param result where the view's result is kept
   */
  public ViewTable(String name, RelProtoDataType rowType, OutputMode outputMode, String queryId,
      String sql, List<String> sources, ViewResult result) {
    this.name = requireNonNull(name, "name");
    this.rowType = requireNonNull(rowType, "rowType");
    this.outputMode = requireNonNull(outputMode, "outputMode");
    this.queryId = requireNonNull(queryId, "queryId");
    this.sql = requireNonNull(sql, "sql");
    this.sources = List.copyOf(sources);
    this.result = requireNonNull(result, "result");
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return rowType.apply(typeFactory);
  }

  @Override public Schema.TableType getJdbcTableType() {
    return Schema.TableType.MATERIALIZED_VIEW;
  }

  /**
   * The view's rows: the result's answer to {@code filters}, which it leaves in the list, so that
   * Calcite applies each of them again to whatever rows it returns.
   */
  @Override public Enumerable<@Nullable Object[]> scan(DataContext root, List<RexNode> filters,
      int @Nullable [] projects) {
    return result.scan(root, filters, projects);
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

  /**
   * A new stream of the view's changes for a continuous query that reads the view, or empty if
   * its result cannot hand them out (a COMPLETE view).
   */
  public java.util.Optional<ViewChangelog> changelog() {
    return result.newChangeSource().map(source -> new ViewChangelog(this, rowType, source,
        outputMode != OutputMode.APPEND));
  }

  /** Where the view's result is kept. */
  public ViewResult result() {
    return result;
  }
}
