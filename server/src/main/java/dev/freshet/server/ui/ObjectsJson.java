package dev.freshet.server.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.freshet.engine.Engine;
import dev.freshet.engine.EngineMetadata;
import dev.freshet.engine.errors.Failures;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.QueryMonitor;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.security.Principal;
import dev.freshet.server.ui.metrics.QueryKind;
import dev.freshet.sql.parser.SqlCreateSink;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;

/**
 * The engine's objects as the web UI's pages show them: {@code GET /api/overview} (streams,
 * views, sinks and continuous queries, each list sorted by name) and {@code GET
 * /api/queries/{name}} (one query with its plan).
 *
 * <pre>{@code
 * ObjectNode overview = new ObjectsJson(engine).overview(Principal.user("alice", false));
 * overview.get("views").get(0).get("outputMode");   // "UPDATE"
 * }</pre>
 *
 * <p>Each answer is what its viewer may see, as {@code SHOW} and {@code sys.queries} show it
 * that user: the statements run here (SHOW, EXPLAIN) run in a session of the viewer's, and the
 * queries are those {@link Engine#visibleQueries} gives it.
 */
final class ObjectsJson {
  private final Engine engine;

  ObjectsJson(Engine engine) {
    this.engine = engine;
  }

  /** {@code {"streams", "views", "sinks", "queries"}} that {@code viewer} may see. */
  ObjectNode overview(Principal viewer) throws SQLException {
    EngineMetadata metadata = new EngineMetadata(engine, viewer);
    ObjectNode overview = JsonResponses.object();
    ArrayNode streams = overview.putArray("streams");
    ArrayNode views = overview.putArray("views");
    for (EngineMetadata.Table table : metadata.tables()) {
      if (table.kind() == EngineMetadata.TableKind.STREAM) {
        ObjectNode stream = streams.addObject();
        stream.put("name", table.name());
        stream.put("connector", metadata.streamConnector(table.name()).orElse(null));
        stream.set("columns", SqlValues.columns(table.columns()));
      }
    }
    // SHOW VIEWS has each view's output mode and query; the catalog keeps views by name.
    List<Object[]> shownViews = new ArrayList<>(show("SHOW VIEWS", viewer));
    shownViews.sort(Comparator.comparing(row -> (String) row[0]));
    for (Object[] row : shownViews) {
      ObjectNode view = views.addObject();
      view.put("name", (String) row[0]);
      view.put("outputMode", (String) row[1]);
      view.put("sql", engine.query((String) row[2]).map(ContinuousQuery::sql).orElse(null));
    }
    ArrayNode sinks = overview.putArray("sinks");
    for (Object[] row : show("SHOW SINKS", viewer)) {   // sorted by name
      ObjectNode sink = sinks.addObject();
      sink.put("name", (String) row[0]);
      sink.put("sql", engine.query((String) row[4]).map(ContinuousQuery::sql).orElse(null));
    }
    ArrayNode queries = overview.putArray("queries");
    for (ContinuousQuery query : engine.visibleQueries(viewer)) {   // sorted by name
      ObjectNode json = queries.addObject();
      json.put("id", query.id());
      json.put("name", query.name());
      json.put("kind", QueryKind.of(engine, query).label());
      json.put("status", QueryMonitor.status(query));
      json.put("lastError", query.exception().map(Failures::describe).orElse(null));
      json.put("lastBatchId", query.lastBatchId());
      json.put("sql", query.sql());
    }
    return overview;
  }

  /**
   * {@code {"name", "kind", "status", "lastError", "sql", "plan"}} of the query with id or name
   * {@code idOrName}, or empty if there is none that {@code viewer} may see.
   */
  Optional<ObjectNode> query(String idOrName, Principal viewer) throws SQLException {
    Optional<ContinuousQuery> found = visibleQuery(idOrName, viewer);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    ContinuousQuery query = found.get();
    ObjectNode json = JsonResponses.object();
    json.put("name", query.name());
    json.put("kind", QueryKind.of(engine, query).label());
    json.put("status", QueryMonitor.status(query));
    json.put("lastError", query.exception().map(Failures::describe).orElse(null));
    json.put("sql", query.sql());
    json.put("plan", plan(query.sql(), viewer).orElse(null));
    return Optional.of(json);
  }

  /**
   * The query with id or name {@code idOrName}, or empty if there is none or {@code viewer} may
   * not see it: to a user, another's query does not exist.
   */
  Optional<ContinuousQuery> visibleQuery(String idOrName, Principal viewer) {
    return engine.query(idOrName).filter(q -> engine.visibleQueries(viewer).contains(q));
  }

  /**
   * The plan EXPLAIN gives for the statement that started a query: a push query and a view's
   * CREATE explain as they are; a sink's query is explained as a view's would be, and a sink of
   * a view has no plan of its own (the view's query has it). EXPLAIN runs as {@code viewer}:
   * a user who may see the view but not what it reads gets no plan.
   */
  private Optional<String> plan(String sql, Principal viewer) throws SQLException {
    String explained = sql;
    SqlNode node = Session.parse(sql);
    if (node instanceof SqlCreateSink sink) {
      if (sink.query() == null) {
        return Optional.empty();
      }
      // EXPLAIN plans a view's query as the streaming planner runs it, as it runs a sink's.
      explained = "CREATE MATERIALIZED VIEW " + sink.name() + " AS "
          + sink.query().toSqlString(CalciteSqlDialect.DEFAULT).getSql();
    }
    try {
      List<Object[]> rows = rows(engine.openSession(viewer)
          .execute("EXPLAIN PLAN FOR " + explained));
      return rows.isEmpty() ? Optional.empty() : Optional.of((String) rows.get(0)[0]);
    } catch (SQLException e) {
      // A query the planner no longer accepts (a stream it reads was dropped), or one reading
      // what the viewer may not read (42501): no plan to show.
      return Optional.empty();
    }
  }

  /** The rows of a SHOW statement, run in a session of {@code viewer}'s own. */
  private List<Object[]> show(String statement, Principal viewer) throws SQLException {
    return rows(engine.openSession(viewer).execute(statement));
  }

  private static List<Object[]> rows(StatementResult result) {
    return result instanceof StatementResult.Rows rows ? rows.rows() : List.of();
  }
}
