package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * How a query that failed with a {@linkplain RecoverableFailures recoverable} error is restarted
 * from its checkpoint, modelled on Flink's exponential-delay restart strategy: the first restart
 * waits {@code initialBackoff}, each further one twice as long as the one before, never longer
 * than {@code maxBackoff}; after {@code maxAttempts} restarts without a committed batch between
 * them the next failure is final. A committed batch resets the count and the delay.
 *
 * <pre>{@code
 * RestartStrategy s = RestartStrategy.exponentialDelay(10, Duration.ofSeconds(1));
 * s.backoff(1);   // PT1S
 * s.backoff(3);   // PT4S
 * s.backoff(9);   // PT1M: capped at maxBackoff
 * }</pre>
 *
 * @param maxAttempts restarts allowed in a row; 0 fails at the first error
 * @param initialBackoff the wait before the first restart
 * @param maxBackoff the longest wait
 * @param alsoRecoverable what else than {@link RecoverableFailures} knows is recoverable, one
 *     throwable of a failure's chain at a time (the engine's: JDBC's SQLSTATEs)
 */
public record RestartStrategy(int maxAttempts, Duration initialBackoff, Duration maxBackoff,
    Predicate<Throwable> alsoRecoverable) {
  /** Adds nothing to what {@link RecoverableFailures} knows. */
  public static final Predicate<Throwable> NOTHING_ELSE = t -> false;
  /** The longest wait between two restarts unless the initial backoff is longer. */
  public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofMinutes(1);
  /** Fails at the first error: what a query does without a restart policy. */
  public static final RestartStrategy NONE = new RestartStrategy(0, Duration.ZERO, Duration.ZERO,
      NOTHING_ELSE);
  /** 10 restarts, the first after 1 s, doubling up to 1 min: about 6 minutes of outage. */
  public static final RestartStrategy DEFAULT = exponentialDelay(10, Duration.ofSeconds(1));

  public RestartStrategy {
    requireNonNull(initialBackoff, "initialBackoff");
    requireNonNull(maxBackoff, "maxBackoff");
    requireNonNull(alsoRecoverable, "alsoRecoverable");
    if (maxAttempts < 0 || initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException("Bad restart strategy: " + maxAttempts + " attempts, "
          + initialBackoff + " up to " + maxBackoff);
    }
  }

  /**
   * {@code maxAttempts} restarts, the first after {@code initialBackoff}, doubling up to
   * {@link #DEFAULT_MAX_BACKOFF} (or {@code initialBackoff} if that is longer).
   */
  public static RestartStrategy exponentialDelay(int maxAttempts, Duration initialBackoff) {
    return new RestartStrategy(maxAttempts, initialBackoff,
        initialBackoff.compareTo(DEFAULT_MAX_BACKOFF) > 0 ? initialBackoff : DEFAULT_MAX_BACKOFF,
        NOTHING_ELSE);
  }

  /** This strategy, also restarting after what {@code recoverable} accepts. */
  public RestartStrategy alsoRestartingAfter(Predicate<Throwable> recoverable) {
    return new RestartStrategy(maxAttempts, initialBackoff, maxBackoff, recoverable);
  }

  /** Whether a restart may get past {@code failure}: see {@link RecoverableFailures}. */
  public boolean isRecoverable(Throwable failure) {
    return RecoverableFailures.isRecoverable(failure, alsoRecoverable);
  }

  /** The wait before restart {@code attempt} (from 1): {@code initialBackoff * 2^(attempt-1)}. */
  public Duration backoff(int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt " + attempt);
    }
    long millis = initialBackoff.toMillis();
    for (int i = 1; i < attempt && millis < maxBackoff.toMillis(); i++) {
      millis *= 2;
    }
    return Duration.ofMillis(Math.min(millis, maxBackoff.toMillis()));
  }
}
