package dev.freshet.executor.runtime;

import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.limits.MemoryBudgetExceededException;
import dev.freshet.executor.limits.QueryCancelledException;
import dev.freshet.executor.source.SourceUnavailableException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Tells a failure a restart may cure (a database restarting or failing over, a broker away, a
 * timeout) from one it cannot (a bad row, a missing table, a damaged checkpoint), as Flink's
 * {@code ThrowableClassifier} does. The whole chain of causes is looked at, since a sink wraps
 * the driver's error.
 *
 * <p>Recoverable: SQLSTATE class {@code 08} (connection), {@code 40001} and {@code 40P01}
 * (serialization failure, deadlock), {@code 57P01}-{@code 57P03} (PostgreSQL's admin shutdown,
 * crash shutdown, cannot connect now), class {@code 28} (authentication: a server that has just
 * failed over may not know the role yet, a rotated password may not have reached every replica;
 * a password that stays wrong fails once the attempts are spent), JDBC's
 * {@link SQLTransientException} and {@link SQLRecoverableException}, socket errors and timeouts
 * ({@link SocketException}, {@link SocketTimeoutException}, {@link UnknownHostException}),
 * Kafka's {@code RetriableException}s, and {@link SourceUnavailableException}. Never
 * recoverable, wherever in the chain: a stop ({@link QueryCancelledException}), an exceeded
 * memory budget, a checkpoint that cannot be read or written, and {@link Error}s.
 *
 * <pre>{@code
 * RecoverableFailures.isRecoverable(new SQLException("refused", "08001"));   // true
 * RecoverableFailures.isRecoverable(new ArithmeticException("/ by zero"));   // false
 * }</pre>
 */
public final class RecoverableFailures {
  /** Kafka's marker of errors a retry may cure; by name, as the runtime needs no Kafka. */
  private static final String KAFKA_RETRIABLE =
      "org.apache.kafka.common.errors.RetriableException";
  /** SQLSTATEs outside class 08 and 28 that a retry may cure. */
  private static final Set<String> RECOVERABLE_STATES =
      Set.of("40001", "40P01", "57P01", "57P02", "57P03");

  private RecoverableFailures() {
  }

  /** Whether a restart of the query may get past {@code failure}. */
  public static boolean isRecoverable(Throwable failure) {
    boolean recoverable = false;
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    for (Throwable t = failure; t != null && seen.put(t, true) == null; t = t.getCause()) {
      if (isFinal(t)) {
        return false;
      }
      recoverable |= isRecoverableItself(t);
    }
    return recoverable;
  }

  private static boolean isFinal(Throwable t) {
    return t instanceof Error || t instanceof QueryCancelledException
        || t instanceof MemoryBudgetExceededException || t instanceof CheckpointException;
  }

  private static boolean isRecoverableItself(Throwable t) {
    if (t instanceof SQLException sql) {
      String state = sql.getSQLState();
      if (state != null && (state.startsWith("08") || state.startsWith("28")
          || RECOVERABLE_STATES.contains(state))) {
        return true;
      }
      return t instanceof SQLTransientException || t instanceof SQLRecoverableException;
    }
    if (t instanceof SocketException || t instanceof SocketTimeoutException
        || t instanceof UnknownHostException || t instanceof SourceUnavailableException
        || t instanceof java.util.concurrent.TimeoutException) {
      return true;
    }
    for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
      if (c.getName().equals(KAFKA_RETRIABLE)) {
        return true;
      }
    }
    return false;
  }
}
