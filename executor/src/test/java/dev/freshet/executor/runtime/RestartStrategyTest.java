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
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tests {@link RestartStrategy}'s backoff and {@link RecoverableFailures}' classification. */
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

  @Test void shouldRestartAfterConnectionSerializationAndAuthenticationErrors() {
    for (String state : List.of("08001", "08006", "08S01", "40001", "40P01", "57P01", "57P02",
        "57P03", "28000", "28P01")) {
      assertTrue(RecoverableFailures.isRecoverable(
          new RuntimeException("sink", new SQLException("x", state))), state);
    }
    assertTrue(RecoverableFailures.isRecoverable(new RuntimeException(
        new ConnectException("Connection refused"))));
    assertTrue(RecoverableFailures.isRecoverable(new SocketTimeoutException("Read timed out")));
    assertTrue(RecoverableFailures.isRecoverable(new SQLTransientConnectionException(
        "pool - Connection is not available, request timed out after 10000ms")));
    assertTrue(RecoverableFailures.isRecoverable(
        new org.apache.kafka.common.errors.NotLeaderOrFollowerException("moved")));
    assertTrue(RecoverableFailures.isRecoverable(new SourceUnavailableException("broker away",
        null)));
  }

  @Test void shouldNotRestartAfterOtherErrors() {
    for (String state : List.of("23505", "42P01", "22012", "53200")) {
      assertFalse(RecoverableFailures.isRecoverable(
          new RuntimeException("sink", new SQLException("x", state))), state);
    }
    assertFalse(RecoverableFailures.isRecoverable(new SQLException("no state")));
    assertFalse(RecoverableFailures.isRecoverable(new ArithmeticException("/ by zero")));
    assertFalse(RecoverableFailures.isRecoverable(new IOException("disk full")));
    assertFalse(RecoverableFailures.isRecoverable(new OutOfMemoryError()));
    assertFalse(RecoverableFailures.isRecoverable(
        new org.apache.kafka.common.errors.SerializationException("bad record")));
    // Never a checkpoint that cannot be written, whatever caused it.
    assertFalse(RecoverableFailures.isRecoverable(
        CheckpointException.concurrentUpdate(Path.of("offsets", "3"))));
  }
}
