package dev.freshet.executor.runtime;

import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.limits.MemoryBudgetExceededException;
import dev.freshet.executor.limits.QueryCancelledException;
import dev.freshet.executor.source.SourceUnavailableException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Tells a failure a restart may cure (a database restarting or failing over, a broker away, a
 * timeout) from one it cannot (a bad row, a missing table, a damaged checkpoint), as Flink's
 * {@code ThrowableClassifier} does. The whole chain of causes is looked at, since a sink wraps
 * the driver's error.
 *
 * <p>Recoverable: socket errors and timeouts ({@link SocketException}, among them a refused
 * connection, {@link SocketTimeoutException}, {@link UnknownHostException},
 * {@link java.util.concurrent.TimeoutException}), Kafka's {@code RetriableException}s,
 * {@link SourceUnavailableException}, and whatever the caller's predicate accepts (the engine's
 * knows JDBC's SQLSTATEs, which this module does not depend on). Never recoverable, wherever in
 * the chain: a stop ({@link QueryCancelledException}), an exceeded memory budget, a checkpoint
 * that cannot be read or written, and {@link Error}s.
 *
 * <pre>{@code
 * RecoverableFailures.isRecoverable(new ConnectException("refused"), t -> false);   // true
 * RecoverableFailures.isRecoverable(new ArithmeticException("/ by zero"), t -> false);   // false
 * }</pre>
 */
public final class RecoverableFailures {
  /** Kafka's marker of errors a retry may cure; by name, as the runtime needs no Kafka. */
  private static final String KAFKA_RETRIABLE =
      "org.apache.kafka.common.errors.RetriableException";

  private RecoverableFailures() {
  }

  /**
   * Whether a restart of the query may get past {@code failure}.
   *
   * @param alsoRecoverable tells of one throwable of the chain (not its causes) whether it is
   *     recoverable, beyond what this class knows
   */
  public static boolean isRecoverable(Throwable failure, Predicate<Throwable> alsoRecoverable) {
    boolean recoverable = false;
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    for (Throwable t = failure; t != null && seen.put(t, true) == null; t = t.getCause()) {
      if (isFinal(t)) {
        return false;
      }
      recoverable |= isRecoverableItself(t) || alsoRecoverable.test(t);
    }
    return recoverable;
  }

  private static boolean isFinal(Throwable t) {
    return t instanceof Error || t instanceof QueryCancelledException
        || t instanceof MemoryBudgetExceededException || t instanceof CheckpointException;
  }

  private static boolean isRecoverableItself(Throwable t) {
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
