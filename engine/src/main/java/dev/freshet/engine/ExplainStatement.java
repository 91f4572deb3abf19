package dev.freshet.engine;

import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.StateBounds;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.sql.parser.SqlEmit;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;

/**
 * The {@link StatementHandler} of {@code EXPLAIN}: one row, one {@code PLAN} column.
 *
 * <p>The plan of a push query or a view's query, as the streaming planner makes it; of a plain
 * query over views or system tables, as Calcite runs it; of a plain query over streams, as
 * Freshet's executor runs it once over the rows held, or as Calcite runs it if the streaming
 * planner refuses it (see {@link PlainSelect}).
 *
 * <pre>{@code
 * EXPLAIN PLAN FOR SELECT STREAM user_id, COUNT(*) FROM clicks GROUP BY user_id EMIT UPDATE
 * }</pre>
 */
final class ExplainStatement {
  private ExplainStatement() {
  }

  static StatementResult explain(StatementContext context, SqlExplain explain)
      throws SQLException {
    Engine engine = context.engine();
    SessionOptions options = context.options();
    String sql = context.sql();
    SqlNode explicandum = explain.getExplicandum();
    if (explicandum.isA(SqlKind.QUERY) && !FreshetPlanner.isStreamQuery(explicandum)) {
      Optional<String> plan = engine.pullQueries().explain(explicandum);
      if (plan.isPresent()) {
        return planRow(plan.get());
      }
      // It reads streams. Validation rewrote the tree; the streaming planner validates a fresh one.
      SqlNode query = ((SqlExplain) Session.parse(sql)).getExplicandum();
      try {
        return planRow(RelOptUtil.toString(Errors.fromPlanner(() -> engine.planner()
            .planQuery(query, null, options.statePartitions(), options.maxWindowsPerRow()))
            .logical()));
      } catch (SQLException refused) {
        try {
          return planRow(engine.pullQueries().explainBatch(
              ((SqlExplain) Session.parse(sql)).getExplicandum()));
        } catch (SQLException e) {
          refused.addSuppressed(e);
          throw refused;
        }
      }
    }
    SqlCreateMaterializedView view = null;
    if (explicandum instanceof SqlCreateMaterializedView create) {
      // A view's query is planned exactly like a push query.
      view = create;
      explicandum = create.query;
    }
    EmitMode mode = null;
    if (explicandum instanceof SqlEmit) {
      mode = ((SqlEmit) explicandum).mode();
      explicandum = ((SqlEmit) explicandum).query();
    }
    // The state TTL the query would run with: the view's own, else the session's.
    long stateTtlMs = options.stateTtlMs();
    if (view != null) {
      ViewOptions viewOptions = ViewOptions.of(view, engine.viewEngines());
      String runOn = viewOptions.engine();
      stateTtlMs = viewOptions.stateTtlMs(options);
      if (!runOn.equals(ViewEngines.FRESHET)) {
        // Another engine plans the state itself: its plan, not Freshet's.
        return planRow(ExternalViewDdl.explain(engine, options, view, runOn, explicandum, mode));
      }
    }
    SqlNode query = explicandum;
    EmitMode emit = mode;
    PlannedQuery plan = Errors.fromPlanner(
        () -> engine.planner().planQuery(query, emit, options.statePartitions(),
            options.maxWindowsPerRow()));
    // Each stateful operator is labelled with what bounds its state (docs/sql.md, EXPLAIN); a
    // stream whose retention let offsets go says where a new query starts.
    return planRow(StateBounds.explain(plan.logical(), stateTtlMs) + retentionStarts(plan));
  }

  /**
   * A line per memory stream whose retention let offsets go, e.g. {@code -- CLICKS: a new query
   * starts at offset 4711, the oldest its 'retention' holds}: a query created now does not see
   * the rows before it. Nothing for streams that still hold offset 1.
   */
  private static String retentionStarts(PlannedQuery plan) {
    StringBuilder notes = new StringBuilder();
    for (StreamTable stream : plan.sources()) {
      stream.memoryStream().filter(m -> m.oldestOffset() > 1).ifPresent(m -> notes
          .append("-- ").append(stream.name()).append(": a new query starts at offset ")
          .append(m.oldestOffset()).append(", the oldest its 'retention' holds\n"));
    }
    return notes.toString();
  }

  private static StatementResult planRow(String plan) {
    return new StatementResult.Rows(List.of(ResultColumn.varchar("PLAN", 4096)),
        List.<Object[]>of(new Object[] {plan}));
  }
}
