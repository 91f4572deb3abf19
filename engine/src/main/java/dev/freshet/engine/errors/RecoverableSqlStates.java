package dev.freshet.engine.errors;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * The errors of an external database (a sink's target, a JDBC table) after which a query
 * restarts, by SQLSTATE: the executor's {@link dev.freshet.executor.runtime.RecoverableFailures}
 * knows sockets and Kafka, this JDBC.
 *
 * <p>Recoverable: class {@code 08} (connection exception), {@code 40001} and {@code 40P01}
 * (serialization failure, deadlock), {@code 57P01}-{@code 57P03} (PostgreSQL's admin shutdown,
 * crash shutdown, cannot connect now), class {@code 28} (invalid authorization: a server that
 * has just failed over may not know the role yet, a rotated password may not have reached every
 * replica; a password that stays wrong fails once the attempts are spent), and JDBC's
 * {@link SQLTransientException} and {@link SQLRecoverableException} (among them HikariCP's
 * "connection is not available" timeout). Anything else (a constraint, a missing table, a value
 * the target refuses) fails the query at once: a restart would fail the same way.
 *
 * <pre>{@code
 * RecoverableSqlStates.isRecoverable(new SQLException("refused", "08001"));   // true
 * RecoverableSqlStates.isRecoverable(new SQLException("duplicate key", "23505"));   // false
 * }</pre>
 */
public final class RecoverableSqlStates {
  /** SQLSTATEs outside classes 08 and 28 that a retry may cure. */
  private static final Set<String> RECOVERABLE =
      Set.of("40001", "40P01", "57P01", "57P02", "57P03");

  private RecoverableSqlStates() {
  }

  /** Whether {@code t} itself (not its causes) is a database error a restart may cure. */
  public static boolean isRecoverable(Throwable t) {
    if (!(t instanceof SQLException sql)) {
      return false;
    }
    String state = sql.getSQLState();
    if (state != null && (state.startsWith("08") || state.startsWith("28")
        || RECOVERABLE.contains(state))) {
      return true;
    }
    return t instanceof SQLTransientException || t instanceof SQLRecoverableException;
  }
}
