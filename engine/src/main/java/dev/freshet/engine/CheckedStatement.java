package dev.freshet.engine;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.query.StatementResult;
import java.sql.SQLException;
import java.util.Optional;
import org.apache.calcite.sql.SqlNode;

/**
 * Executes one parsed statement of a session once it may run: the user's privileges
 * ({@link StatementPrivileges}), values for its parameter markers, the objects the engine could
 * not declare again at start ({@link NotRestoredObjects}); then its {@link StatementHandler},
 * recording the user as the owner of what it creates and forgetting the owner and grants of
 * what it drops.
 *
 * <pre>{@code
 * StatementResult r = CheckedStatement.execute(new StatementContext(session, sql, cancel), node);
 * }</pre>
 */
final class CheckedStatement {
  private CheckedStatement() {
  }

  static StatementResult execute(StatementContext context, SqlNode node) throws SQLException {
    Engine engine = context.engine();
    StatementPrivileges.check(engine, context.principal(), node);
    int markers = ParameterMarkers.count(node);
    if (markers > 0) {
      // Executed as text there are no values to bind: a NULL in their place would be stored.
      throw Errors.of(SqlState.PARAMETER_VALUES_MISSING, "The statement has " + markers
          + " parameter marker" + (markers == 1 ? "" : "s") + " (?) but no value for "
          + (markers == 1 ? "it" : "them") + ". Execute it as a PreparedStatement with its"
          + " values set, or write the values into the statement");
    }
    if (engine.notRestored().isEmpty()) {
      return owned(context, node);
    }
    Optional<String> dropped = NotRestoredObjects.drop(engine, node);
    if (dropped.isPresent()) {
      return new StatementResult.UpdateCount(0);
    }
    try {
      StatementResult result = owned(context, node);
      NotRestoredObjects.declared(engine, node);
      return result;
    } catch (SQLException e) {
      throw NotRestoredObjects.explain(engine, node, e);
    }
  }

  /**
   * Executes {@code node}, recording the owner of what it creates and forgetting the owner and
   * grants of what it drops. (Two sessions racing to create one name with IF NOT EXISTS both
   * succeed; the first to record owns it.)
   */
  private static StatementResult owned(StatementContext context, SqlNode node)
      throws SQLException {
    Engine engine = context.engine();
    Optional<String> created = StatementPrivileges.createdName(node);
    Optional<String> dropped = StatementPrivileges.droppedName(node);
    if (created.isEmpty() && dropped.isEmpty()) {
      return StatementHandlers.ALL.execute(context, node);
    }
    boolean existed = created.isPresent() && engine.objectNames().contains(created.get());
    StatementResult result = StatementHandlers.ALL.execute(context, node);
    if (created.isPresent() && !existed && engine.objectNames().contains(created.get())) {
      engine.access().created(created.get(), context.principal());
    }
    if (dropped.isPresent() && !engine.objectNames().contains(dropped.get())) {
      engine.access().dropped(dropped.get());
    }
    return result;
  }
}
