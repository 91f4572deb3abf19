package dev.freshet.engine;

import dev.freshet.engine.query.StatementResult;
import java.sql.SQLException;
import org.apache.calcite.sql.SqlNode;

/**
 * Executes one kind of statement, once its privileges were checked and its audit begun
 * ({@link Session} does both for every statement). {@link StatementHandlers} says which handler
 * runs which kind, as Calcite's {@code DdlExecutorImpl} dispatches on the node's class.
 *
 * <pre>{@code
 * StatementHandler<SqlStopQuery> stop = (context, node) -> ...;
 * }</pre>
 *
 * @param <T> the statement's node class
 */
@FunctionalInterface
interface StatementHandler<T extends SqlNode> {
  /**
   * Executes {@code statement} for the session of {@code context}.
   *
   * @throws SQLException with a SQLSTATE and a message that says how to fix the statement
   */
  StatementResult execute(StatementContext context, T statement) throws SQLException;
}
