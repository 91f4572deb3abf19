package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.connectors.filesystem.FileSystemSource;
import dev.freshet.connectors.kafka.KafkaTopicSource;
import dev.freshet.connectors.nexmark.NexmarkSource;
import dev.freshet.engine.errors.CatalogErrors;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.DynamicParameters;
import dev.freshet.engine.query.PlainQueryRun;
import dev.freshet.executor.runtime.BoundedExecution;
import dev.freshet.executor.runtime.QueryStatus;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.source.SequenceSource;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.exec.ExecPlanBuilder;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.checkerframework.checker.nullness.qual.Nullable;
import dev.freshet.engine.query.InformationSchema;
import dev.freshet.engine.query.SystemSchema;
import dev.freshet.engine.query.PullQueryExecutor;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.query.ResultColumn;

/**
 * A plain {@code SELECT} (no {@code STREAM}, no {@code EMIT}), planned for the engine that will
 * answer it but not run yet. A plain query is a batch query: it reads the rows each stream holds
 * when it starts, the views' current results and the system tables as they are then.
 *
 * <pre>{@code
 * PlainSelect select = PlainSelect.plan(engine, FreshetSqlParser.parse(sql), sql, 10_000);
 * List<ResultColumn> columns = select.columns();   // nothing has run yet
 * StatementResult.Rows rows = select.execute(10_000_000, run);   // at most that many rows
 * }</pre>
 *
 * <p>Two engines answer: a query over streams alone that the streaming planner accepts (one
 * stream, filters, projections, aggregates, TUMBLE and HOP windows) runs once on Freshet's
 * executor over every row the stream holds, as it always has, so its rows, column names and
 * types, per-row error policy and window semantics are those of the same query run as a
 * continuous one; such a query with an {@code ORDER BY} of its result columns (by name or
 * position) on top runs the same way and is sorted afterwards ({@link RowOrder}), so that a
 * windowed GROUP BY, which Calcite cannot run, can be ordered too. Every other plain query,
 * including a query over streams that the streaming rules refuse (ORDER BY, joins, UNION,
 * subqueries) and any query that names a view or a table of {@code SYS} or
 * {@code INFORMATION_SCHEMA}, runs on Calcite's enumerable engine
 * ({@link PullQueryExecutor}), which reads each stream up to the offset it had when the
 * statement started. A query over streams that neither accepts fails with the streaming
 * planner's error.
 *
 * <p>Planning and running are apart so that a prepared statement can describe its columns
 * without reading anything, and the columns it describes are those that executing it returns.
 */
abstract class PlainSelect {
  private PlainSelect() {
  }

  /** The columns that {@link #execute()} returns. */
  abstract List<ResultColumn> columns();

  /**
   * Runs the query and returns all its rows.
   *
   * @param maxRows the most rows the result may hold ({@code 'pull.max.rows'})
   * @param run the execution's budget and cancellation: the rows read and the result count
   *     against it
   * @throws SQLException 54000 if the result would hold more, 53200 if the rows it holds would
   *     pass the budget, 57014 if the run is cancelled
   */
  abstract StatementResult.Rows execute(int maxRows, PlainQueryRun run) throws SQLException;

  /**
   * Validates and plans a plain query.
   *
   * @param query the parsed query; planning may rewrite it
   * @param sql the statement's text, parsed again where a fresh tree is needed
   * @param maxWindowsPerRow the session's {@code 'max.windows.per.row'}, as for a push query
   * @throws SQLException if the query is not valid, or neither engine can run it
   */
  static PlainSelect plan(Engine engine, SqlNode query, String sql, int maxWindowsPerRow)
      throws SQLException {
    Catalog catalog = engine.catalog();
    Set<String> identifiers = ViewReferences.identifiers(query);
    // A view or a system table is only Calcite's to read, even when a stream is named too.
    if (ViewReferences.mentionsView(catalog, identifiers)
        || identifiers.contains(SystemSchema.NAME)
        || identifiers.contains(InformationSchema.NAME)
        || !ViewReferences.mentionsStream(catalog, identifiers)) {
      return new OverCalcite(engine, engine.pullQueries().prepare(query));
    }
    PlainSelect streams;
    try {
      streams = overStreams(engine, query, maxWindowsPerRow);
    } catch (SQLException refused) {
      // Streaming rules (no ORDER BY, no outer join without a range, ...) do not bind a batch
      // read.
      PlainSelect sorted = sortedOverStreams(engine, sql, maxWindowsPerRow);
      return sorted != null ? sorted : overSnapshot(engine, sql, refused);
    }
    if (streams == null) {
      // A join or union of streams is a batch join over what they hold, which Calcite runs:
      // the streaming join would hold an outer row back until a watermark passes it. Validation
      // rewrote the tree; Calcite validates a fresh one, and reports its own errors.
      PullQueryExecutor.Prepared prepared = engine.pullQueries().prepare(Session.parse(sql));
      prepared.compile();
      return new OverCalcite(engine, prepared);
    }
    return streams;
  }

  /**
   * A query with parameter markers planned with them, to run with many values: one that only
   * Calcite runs (it names a view or a system table, or no stream) and whose markers
   * {@link DynamicParameters} can take as values (each compared with something else, of a type
   * the validator infers); null for any other, which is bound as text.
   *
   * <pre>{@code
   * PlainSelect.Parameterized q = PlainSelect.parameterized(engine, parse("SELECT c FROM v WHERE k = ?"));
   * q.execute(maxRows, List.of(42L));   // null if 42 must be written as a literal instead
   * }</pre>
   */
  static @Nullable Parameterized parameterized(Engine engine, SqlNode query) {
    Catalog catalog = engine.catalog();
    Set<String> identifiers = ViewReferences.identifiers(query);
    boolean calciteOnly = ViewReferences.mentionsView(catalog, identifiers)
        || identifiers.contains(SystemSchema.NAME)
        || identifiers.contains(InformationSchema.NAME)
        || !ViewReferences.mentionsStream(catalog, identifiers);
    if (!calciteOnly || !DynamicParameters.comparedOnly(query)) {
      return null;
    }
    PullQueryExecutor.Prepared prepared;
    try {
      prepared = engine.pullQueries().prepare(query);
    } catch (SQLException | RuntimeException e) {
      // A marker whose type the validator cannot tell, or an invalid query: the text path
      // reports it as it always has.
      return null;
    }
    for (RelDataType type : prepared.parameterTypes()) {
      if (type.getSqlTypeName() == SqlTypeName.UNKNOWN || type.getSqlTypeName() == SqlTypeName.NULL
          || type.getSqlTypeName() == SqlTypeName.ANY) {
        return null;
      }
    }
    return new Parameterized(new OverCalcite(engine, prepared));
  }

  /** A query Calcite runs with values for its markers; see {@link #parameterized}. */
  static final class Parameterized {
    private final OverCalcite select;

    private Parameterized(OverCalcite select) {
      this.select = select;
    }

    /**
     * Runs the query with {@code values} for its markers, or returns null without running it if
     * a value does not fit its marker's type exactly ({@link DynamicParameters#values}).
     */
    StatementResult.@Nullable Rows execute(int maxRows, List<?> values, PlainQueryRun run)
        throws SQLException {
      Map<String, Object> internal =
          DynamicParameters.values(select.prepared.parameterTypes(), values);
      return internal == null ? null : select.execute(maxRows, internal, run);
    }
  }

  /**
   * A query the executor runs once the top {@code ORDER BY} is taken off, sorted by it afterwards,
   * or null if it is not one: adding an ORDER BY of result columns to a query over a stream only
   * orders its rows (a windowed GROUP BY among them, which Calcite cannot run).
   */
  private static @Nullable PlainSelect sortedOverStreams(Engine engine, String sql,
      int maxWindowsPerRow) throws SQLException {
    if (!(Session.parse(sql) instanceof SqlOrderBy order) || order.orderList.isEmpty()
        || !isCount(order.offset) || !isCount(order.fetch)) {
      return null;
    }
    PlannedQuery plan;
    try {
      plan = engine.planner().planQuery(order.query, null, 1, maxWindowsPerRow);
    } catch (PlanningException | RuntimeException e) {
      return null;
    }
    if (plan.scansSeveralStreams()) {
      return null;
    }
    Optional<Comparator<Object[]>> rowOrder = RowOrder.of(order.orderList, plan.rowType());
    if (rowOrder.isEmpty()) {
      return null;
    }
    return new OverStreams(engine, plan, count(order.offset, 0), count(order.fetch, -1),
        rowOrder.get());
  }

  /**
   * The query, refused by the streaming planner with {@code refused}, run by Calcite instead;
   * compiled now, so that a query Calcite cannot run either fails before anything runs.
   */
  private static PlainSelect overSnapshot(Engine engine, String sql, SQLException refused)
      throws SQLException {
    PullQueryExecutor.Prepared prepared;
    try {
      // Validation rewrote the tree; Calcite validates a fresh one.
      prepared = engine.pullQueries().prepare(Session.parse(sql));
      prepared.compile();
    } catch (SQLException e) {
      // The streaming planner's error speaks of the query as the user wrote it, e.g. a missing
      // column or a SESSION window, which Calcite reports no better.
      refused.addSuppressed(e);
      throw refused;
    }
    return new OverCalcite(engine, prepared);
  }

  /**
   * A query over streams, or null if it reads several (Calcite's to run). A {@code LIMIT} /
   * {@code OFFSET} without {@code ORDER BY} around it is
   * applied to the rows the executor returns, in the streams' order (oldest first): the streaming
   * planner refuses a limit on a stream's rows, which a read of retained rows does not need.
   */
  private static @Nullable PlainSelect overStreams(Engine engine, SqlNode query,
      int maxWindowsPerRow)
      throws SQLException {
    long offset = 0;
    long fetch = -1;
    if (query instanceof SqlOrderBy order && order.orderList.isEmpty()
        && isCount(order.offset) && isCount(order.fetch)) {
      offset = count(order.offset, 0);
      fetch = count(order.fetch, -1);
      query = order.query;
    }
    PlannedQuery plan;
    try {
      plan = engine.planner().planQuery(query, null, 1, maxWindowsPerRow);
    } catch (PlanningException e) {
      throw Errors.toSqlException(e);
    }
    if (plan.scansSeveralStreams()) {
      return null;
    }
    return new OverStreams(engine, plan, offset, fetch, null);
  }

  private static boolean isCount(@Nullable SqlNode node) {
    return node == null || node instanceof SqlNumericLiteral literal && literal.isInteger();
  }

  /** The value of a count that {@link #isCount} accepted, or {@code absent} if there is none. */
  private static long count(@Nullable SqlNode node, long absent) {
    return node == null ? absent : ((SqlNumericLiteral) node).longValue(true);
  }

  /**
   * Fails for a stream that generates rows without end: a sequence without end has more rows the
   * older it is, without limit, so a bounded read would cost whatever the stream's age makes it;
   * it is refused rather than cut at some point. Describing a query (its columns) reads nothing,
   * so only running it is refused.
   */
  private static void rejectEndless(StreamTable stream) throws SQLException {
    if (stream.source() instanceof SequenceSource sequence && sequence.spec().end().isEmpty()) {
      throw StreamErrors.boundedReadOfEndlessStream(stream.name(),
          "generates rows without end (connector 'sequence' without 'end')",
          ", or declare the stream with 'end'");
    }
    if (stream.source() instanceof NexmarkSource nexmark
        && nexmark.spec().maxEvents().isEmpty()) {
      throw StreamErrors.boundedReadOfEndlessStream(stream.name(),
          "generates events without end (connector 'nexmark' without 'max-events')",
          ", or declare the stream with 'max-events'");
    }
    if (stream.source() instanceof KafkaTopicSource topic) {
      throw StreamErrors.boundedReadOfEndlessStream(stream.name(), "reads Kafka topic "
          + topic.spec().topic() + ", which has no end (connector 'kafka')",
          ", or a materialized view over it for its current result");
    }
    if (stream.source() instanceof FileSystemSource directory) {
      // Files keep coming, and which ones a query has read is each query's own (its log).
      throw StreamErrors.boundedReadOfEndlessStream(stream.name(), "reads the files that appear"
          + " in directory " + directory.spec().directory() + ", which has no end (connector"
          + " 'filesystem')", ", or a materialized view over it for its current result");
    }
  }

  /** A query over a stream, which Freshet's executor runs once over every row it holds. */
  private static final class OverStreams extends PlainSelect {
    private final Engine engine;
    private final PlannedQuery plan;
    private final long offset;
    /** The most rows to return, or -1 for all. */
    private final long fetch;
    /** The order of the rows, before the offset and fetch apply; null for the streams' order. */
    private final @Nullable Comparator<Object[]> order;

    OverStreams(Engine engine, PlannedQuery plan, long offset, long fetch,
        @Nullable Comparator<Object[]> order) {
      this.engine = requireNonNull(engine, "engine");
      this.plan = requireNonNull(plan, "plan");
      this.offset = offset;
      this.fetch = fetch;
      this.order = order;
    }

    @Override List<ResultColumn> columns() {
      return plan.rowType().getFieldList().stream().map(ResultColumn::of).toList();
    }

    @Override StatementResult.Rows execute(int maxRows, PlainQueryRun run) throws SQLException {
      for (StreamTable stream : plan.sources()) {
        rejectEndless(stream);
      }
      StreamingPipeline pipeline = Errors.fromPlanner(() -> new ExecPlanBuilder(
          engine.planner().typeFactory(), "bounded-" + UUID.randomUUID())
          .withTables(engine.catalog()).build(plan));
      List<Object[]> rows;
      try {
        rows = BoundedExecution.run(pipeline, System.currentTimeMillis(), run.resources());
        // The result is held until the statement hands it over: it counts as the operators'
        // output did.
        run.resources().newAccount().set(rows.size() * PlainQueryRun.bytesPerRow(
            plan.rowType().getFieldCount()));
      } catch (RuntimeException e) {
        // The budget or a cancel, maybe from an operator's task on another thread.
        Optional<SQLException> limit = run.failure(e);
        if (limit.isPresent()) {
          throw limit.get();
        }
        throw e;
      }
      if (order != null) {
        rows = new ArrayList<>(rows);
        rows.sort(order);
      }
      int from = (int) Math.min(offset, rows.size());
      int to = fetch < 0 ? rows.size() : (int) Math.min(rows.size(), from + fetch);
      if (to - from > maxRows) {
        // A query the executor runs returns at most the rows its stream holds, all in memory
        // already: checked at the end, as for any result.
        throw Errors.resultTooLarge(maxRows);
      }
      return new StatementResult.Rows(columns(), rows.subList(from, to));
    }
  }

  /** A query that Calcite answers: over streams, views, system tables, or no table. */
  private static final class OverCalcite extends PlainSelect {
    private final Engine engine;
    private final PullQueryExecutor.Prepared prepared;

    OverCalcite(Engine engine, PullQueryExecutor.Prepared prepared) {
      this.engine = requireNonNull(engine, "engine");
      this.prepared = requireNonNull(prepared, "prepared");
    }

    @Override List<ResultColumn> columns() {
      return prepared.resultColumns();
    }

    @Override StatementResult.Rows execute(int maxRows, PlainQueryRun run) throws SQLException {
      return execute(maxRows, Map.of(), run);
    }

    StatementResult.Rows execute(int maxRows, Map<String, Object> markerValues,
        PlainQueryRun run) throws SQLException {
      for (StreamTable stream : prepared.streams()) {
        rejectEndless(stream);
      }
      // A failed view's rows are stale, and may be those of damaged files: its error instead.
      for (ViewTable view : prepared.views()) {
        Optional<ContinuousQuery> query = engine.query(view.queryId());
        if (query.isPresent() && query.get().status() == QueryStatus.FAILED) {
          Throwable error = query.get().exception().orElse(null);
          if (error != null) {
            throw CatalogErrors.viewFailed(view.name(), query.get().lastBatchId(), error);
          }
        }
      }
      return prepared.execute(maxRows, markerValues, run);
    }
  }
}
