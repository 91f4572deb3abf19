package dev.freshet.engine;

import dev.freshet.engine.errors.CatalogErrors;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.PlainQueryRun;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.sql.parser.SqlCreateSecret;
import dev.freshet.sql.parser.SqlCreateSink;
import dev.freshet.sql.parser.SqlCreateStream;
import dev.freshet.sql.parser.SqlCreateTable;
import dev.freshet.sql.parser.SqlDropSecret;
import dev.freshet.sql.parser.SqlDropSink;
import dev.freshet.sql.parser.SqlDropStream;
import dev.freshet.sql.parser.SqlEmit;
import dev.freshet.sql.parser.SqlGrant;
import dev.freshet.sql.parser.SqlSetProperty;
import dev.freshet.sql.parser.SqlShow;
import dev.freshet.sql.parser.SqlShowGrants;
import dev.freshet.sql.parser.SqlShowSecrets;
import dev.freshet.sql.parser.SqlStopQuery;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropTable;

/**
 * Which {@link StatementHandler} executes which statement: by the node's class (the nearest
 * registered superclass wins, as Calcite's {@code ReflectiveVisitor} looks a method up), else by
 * its {@link SqlKind} (every query kind: a plain or a push query). A statement neither names is
 * not supported (0A000).
 *
 * <pre>{@code
 * StatementResult r = StatementHandlers.ALL.execute(new StatementContext(session, sql, cancel),
 *     Session.parse(sql));
 * }</pre>
 */
final class StatementHandlers {
  /** Every statement Freshet executes. */
  static final StatementHandlers ALL = new StatementHandlers()
      .on(SqlGrant.class, (c, grant) -> {
        Grants.execute(c.engine(), c.principal(), grant);
        return done();
      })
      .on(SqlShowGrants.class, (c, show) -> Grants.show(c.engine(), c.principal(), show))
      .on(SqlCreateStream.class, CatalogStatements::createStream)
      .on(SqlDropStream.class, CatalogStatements::dropStream)
      .on(SqlCreateSecret.class, StatementHandlers::secret)
      .on(SqlDropSecret.class, StatementHandlers::secret)
      .on(SqlShowSecrets.class, StatementHandlers::secret)
      .on(SqlCreateTable.class, CatalogStatements::createTable)
      .on(SqlDropTable.class, CatalogStatements::dropTable)
      .on(SqlCreateMaterializedView.class, CatalogStatements::createView)
      .on(SqlDropMaterializedView.class, CatalogStatements::dropView)
      .on(SqlCreateSink.class, CatalogStatements::createSink)
      .on(SqlDropSink.class, CatalogStatements::dropSink)
      .on(SqlInsert.class, StatementHandlers::insert)
      .on(SqlUpdate.class, StatementHandlers::tableDml)
      .on(SqlDelete.class, StatementHandlers::tableDml)
      .on(SqlExplain.class, ExplainStatement::explain)
      .on(SqlSetProperty.class, (c, set) -> {
        c.options().set(set.key(), set.value());
        return done();
      })
      .on(SqlShow.class, ShowStatements::show)
      .on(SqlStopQuery.class, (c, stop) -> {
        stopQuery(c, stop.queryId());
        return done();
      })
      .on(SqlDescribeTable.class, ShowStatements::describe)
      .on(SqlEmit.class, (c, emit) -> PushQuerySetup.start(c, emit.query(), emit.mode()))
      .onKinds(SqlKind.QUERY, StatementHandlers::query);

  private final Map<Class<? extends SqlNode>, StatementHandler<?>> byClass = new HashMap<>();
  private final Map<SqlKind, StatementHandler<SqlNode>> byKind = new EnumMap<>(SqlKind.class);

  private StatementHandlers() {
  }

  private <T extends SqlNode> StatementHandlers on(Class<T> kind, StatementHandler<T> handler) {
    byClass.put(kind, handler);
    return this;
  }

  private StatementHandlers onKinds(Iterable<SqlKind> kinds, StatementHandler<SqlNode> handler) {
    kinds.forEach(kind -> byKind.put(kind, handler));
    return this;
  }

  /**
   * Executes {@code node} with its handler.
   *
   * @throws SQLException 0A000 if no handler executes statements like {@code node}
   */
  StatementResult execute(StatementContext context, SqlNode node) throws SQLException {
    for (Class<?> c = node.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      StatementHandler<?> handler = byClass.get(c);
      if (handler != null) {
        return run(handler, context, node);
      }
    }
    StatementHandler<SqlNode> handler = byKind.get(node.getKind());
    if (handler != null) {
      return handler.execute(context, node);
    }
    throw notSupported(node);
  }

  @SuppressWarnings("unchecked")
  private static <T extends SqlNode> StatementResult run(StatementHandler<T> handler,
      StatementContext context, SqlNode node) throws SQLException {
    // Registered by the node's class or a superclass of it: the cast holds.
    return handler.execute(context, (T) node);
  }

  static SQLException notSupported(SqlNode node) {
    return Errors.notSupported("Statement " + node.getKind() + " is not supported yet");
  }

  private static StatementResult done() {
    return new StatementResult.UpdateCount(0);
  }

  private static StatementResult secret(StatementContext context, SqlNode node)
      throws SQLException {
    return SecretDdl.execute(context.engine(), context.principal(), node)
        .orElseThrow(() -> notSupported(node));
  }

  /** An INSERT into a table changes its rows at once; into a stream, see the transaction. */
  private static StatementResult insert(StatementContext context, SqlInsert insert)
      throws SQLException {
    Optional<Integer> changed = TableDml.execute(context.engine(), insert);
    if (changed.isPresent()) {
      return new StatementResult.UpdateCount(changed.get());
    }
    return context.session().insertIntoStream(insert);
  }

  /** UPDATE and DELETE change a table's rows; a stream's rows never change. */
  private static StatementResult tableDml(StatementContext context, SqlNode node)
      throws SQLException {
    Optional<Integer> changed = TableDml.execute(context.engine(), node);
    if (changed.isPresent()) {
      return new StatementResult.UpdateCount(changed.get());
    }
    throw notSupported(node);
  }

  /**
   * A query over streams only ({@code SELECT STREAM}) is a push query; any other is a plain
   * query, answered once ({@link PlainSelect}).
   */
  private static StatementResult query(StatementContext context, SqlNode node)
      throws SQLException {
    if (FreshetPlanner.isStreamQuery(node)) {
      return PushQuerySetup.start(context, node, null);
    }
    PlainSelect select = PlainSelect.plan(context.engine(), node, context.sql(),
        context.options().maxWindowsPerRow());
    return context.session().runPlain(context.sql(), context.cancel(),
        run -> select.execute(context.options().pullMaxRows(), run));
  }

  private static void stopQuery(StatementContext context, String idOrName)
      throws SQLException {
    Engine engine = context.engine();
    Optional<PlainQueryRun> plain = engine.plainQueries().get(idOrName);
    if (plain.isPresent()
        && engine.plainQueries().visibleTo(context.principal()).contains(plain.get())) {
      // Its statement fails with 57014 at its next check; this statement does not wait.
      plain.get().cancel();
      return;
    }
    Optional<ContinuousQuery> query = engine.query(idOrName);
    if (query.isEmpty() || !engine.visibleQueries(context.principal()).contains(query.get())) {
      // Another user's push query is not theirs to know of.
      throw CatalogErrors.queryNotFound(idOrName);
    }
    engine.queryRegistry().checkOwner(context.principal(), query.get(), "STOP",
        engine.access());
    query.get().stop();
  }
}
