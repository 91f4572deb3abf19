package dev.freshet.engine;

import dev.freshet.engine.errors.Errors;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.sql.parser.SqlCreateSink;
import dev.freshet.sql.parser.SqlCreateStream;
import dev.freshet.sql.parser.SqlDropSink;
import dev.freshet.sql.parser.SqlDropStream;
import dev.freshet.sql.parser.SqlEmit;
import dev.freshet.sql.parser.SqlSetProperty;
import dev.freshet.sql.parser.SqlShow;
import dev.freshet.sql.parser.SqlStopQuery;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropMaterializedView;
import org.checkerframework.checker.nullness.qual.Nullable;
import dev.freshet.engine.query.StatementResult;

/**
 * Describes a statement's result without executing it, as a prepared statement's metadata must:
 * queries are validated and planned exactly as {@link Session#execute} plans them, so the
 * columns described are the columns executing returns, but no query starts and nothing is read.
 *
 * <pre>{@code
 * StatementDescription d = StatementDescriber.describe(session,
 *     "SELECT * FROM clicks_per_user WHERE 1 = 0");   // a BI tool asking for the columns
 * d.columns();   // USER_ID, N
 * }</pre>
 *
 * <p>SHOW, DESCRIBE and EXPLAIN only read the catalog (EXPLAIN plans without running), so they
 * are described by running them. Statements that change something (DDL, INSERT, SET, STOP QUERY)
 * are not run; an INSERT is validated.
 */
public final class StatementDescriber {
  private StatementDescriber() {
  }

  /**
   * Describes statement {@code sql} for {@code session}.
   *
   * @throws SQLException if the statement is not valid, with the SQLSTATE executing it would
   *     report
   */
  public static StatementDescription describe(Session session, String sql) throws SQLException {
    Engine engine = session.engine();
    SqlNode node = Session.parse(sql);
    // A description names the columns of what it reads: not for users who may not read it.
    StatementPrivileges.check(engine, session.principal(), node);
    if (node instanceof SqlCreateStream || node instanceof SqlDropStream
        || node instanceof SqlCreateMaterializedView || node instanceof SqlDropMaterializedView
        || node instanceof SqlCreateSink || node instanceof SqlDropSink
        || node instanceof SqlSetProperty || node instanceof SqlStopQuery) {
      return new StatementDescription(StatementDescription.Kind.OTHER, List.of());
    }
    if (node instanceof SqlInsert) {
      Errors.fromPlanner(() -> engine.planner().planInsert((SqlInsert) node));
      return new StatementDescription(StatementDescription.Kind.INSERT, List.of());
    }
    if (node instanceof SqlShow || node instanceof SqlDescribeTable
        || node instanceof SqlExplain) {
      StatementResult.Rows rows = (StatementResult.Rows) session.execute(sql);
      return new StatementDescription(StatementDescription.Kind.ROWS, rows.columns());
    }
    if (node instanceof SqlEmit) {
      SqlEmit emit = (SqlEmit) node;
      return push(session, emit.query(), emit.mode(), sql);
    }
    if (node.isA(SqlKind.QUERY)) {
      if (FreshetPlanner.isStreamQuery(node)) {
        return push(session, node, null, sql);
      }
      return new StatementDescription(StatementDescription.Kind.ROWS,
          PlainSelect.plan(engine, node, sql, session.maxWindowsPerRow()).columns());
    }
    throw Errors.notSupported("Statement " + node.getKind() + " is not supported yet");
  }

  /**
   * A push query, planned as {@link Session} plans it before starting it; a subscription to a
   * view ({@code SELECT STREAM * FROM view}) is matched, not subscribed.
   */
  private static StatementDescription push(Session session, SqlNode query,
      @Nullable EmitMode emit, String sql) throws SQLException {
    Engine engine = session.engine();
    Optional<Map.Entry<ViewTable, Long>> feed = ViewFeed.match(engine, query);
    if (feed.isPresent()) {
      ViewFeed.checkEmit(feed.get().getKey(), emit);
      return new StatementDescription(StatementDescription.Kind.PUSH,
          ViewFeed.columns(engine, feed.get().getKey()));
    }
    PlannedQuery plan = Errors.fromPlanner(
        () -> engine.planner().planQuery(query, emit, session.statePartitions(),
            session.maxWindowsPerRow()));
    return new StatementDescription(StatementDescription.Kind.PUSH,
        PushQuerySetup.columns(plan.rowType(), session.options().pushBatchMarkers()));
  }
}
