package dev.freshet.executor.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.source.SourceUnavailableException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tests {@link RestartStrategy}'s backoff and {@link RecoverableFailures}' classification (Kafka's
 * errors: {@code dev.freshet.connectors.kafka.KafkaRestartTest}).
 */
class RestartStrategyTest {
  @Test void shouldDoubleTheBackoffUpToTheMaximum() {
    RestartStrategy s = RestartStrategy.exponentialDelay(10, Duration.ofSeconds(1));
    assertEquals(List.of(1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 32_000L, 60_000L, 60_000L),
        List.of(1, 2, 3, 4, 5, 6, 7, 100).stream().map(a -> s.backoff(a).toMillis()).toList());
    assertEquals(RestartStrategy.DEFAULT, s);
    // A longer first wait is its own maximum.
    assertEquals(Duration.ofMinutes(5),
        RestartStrategy.exponentialDelay(3, Duration.ofMinutes(5)).backoff(3));
    assertEquals(Duration.ZERO, RestartStrategy.exponentialDelay(3, Duration.ZERO).backoff(3));
  }

  @Test void shouldRestartAfterSocketErrorsAndTimeouts() {
    RestartStrategy s = RestartStrategy.DEFAULT;
    assertTrue(s.isRecoverable(new RuntimeException(new ConnectException("Connection refused"))));
    assertTrue(s.isRecoverable(new SocketTimeoutException("Read timed out")));
    assertTrue(s.isRecoverable(new java.util.concurrent.TimeoutException("no answer")));
    assertTrue(s.isRecoverable(new SourceUnavailableException("broker away", null)));
    // What the caller's predicate knows too, anywhere in the chain.
    RestartStrategy more = s.alsoRestartingAfter(t -> t instanceof IllegalStateException);
    assertTrue(more.isRecoverable(new RuntimeException(new IllegalStateException("failover"))));
    assertFalse(s.isRecoverable(new RuntimeException(new IllegalStateException("failover"))));
  }

  @Test void shouldNotRestartAfterOtherErrors() {
    RestartStrategy s = RestartStrategy.DEFAULT.alsoRestartingAfter(t -> true);
    assertFalse(RestartStrategy.DEFAULT.isRecoverable(new ArithmeticException("/ by zero")));
    assertFalse(RestartStrategy.DEFAULT.isRecoverable(new IOException("disk full")));
    // Never an Error or a checkpoint that cannot be written, whatever else the chain holds.
    assertFalse(s.isRecoverable(new OutOfMemoryError()));
    assertFalse(s.isRecoverable(new RuntimeException(
        CheckpointException.concurrentUpdate(Path.of("offsets", "3")))));
  }
}
