package dev.freshet.executor.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.source.MemoryStream;
import java.net.ConnectException;
import java.nio.file.Path;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests the restart policy of {@link MicroBatchExecution}: a recoverable failure restarts the
 * query from its checkpoint after a backoff, showing {@link QueryStatus#RESTARTING} and the
 * attempt; the batch that failed is handed over again with the same id and rows, once; the query
 * fails with the last error after the attempts; other failures fail it at once; a stop ends the
 * backoff.
 */
class RestartPolicyTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path dir;

  /** A sink whose target fails the first {@code failures} batches with {@code error}. */
  private static final class FlakySink implements Sink {
    final Map<Long, List<Long>> applied = new ConcurrentHashMap<>();
    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger restarts = new AtomicInteger();
    volatile int failures;
    volatile RuntimeException error;
    /** Thrown by {@link #restart()} with the restart's number, if set. */
    volatile boolean restartFails;

    FlakySink(int failures, RuntimeException error) {
      this.failures = failures;
      this.error = error;
    }

    @Override public void addBatch(long batchId, List<Object[]> rows) {
      if (calls.incrementAndGet() <= failures) {
        throw error;
      }
      List<Long> values = new ArrayList<>();
      for (Object[] row : rows) {
        values.add(((Number) row[0]).longValue());
      }
      if (applied.putIfAbsent(batchId, values) != null) {
        throw new AssertionError("batch " + batchId + " handed over twice");
      }
    }

    @Override public void restart() {
      int n = restarts.incrementAndGet();
      if (restartFails) {
        throw new RuntimeException("still away, restart " + n,
            new SocketTimeoutException("connect timed out"));
      }
    }
  }

  private MicroBatchExecution query(MemoryStream stream, Sink sink, RestartStrategy strategy) {
    CollectOperator collect = new CollectOperator();
    return MicroBatchExecution.builder("q", "q", StreamingPipeline.of(stream, collect, collect),
        sink).checkpoint(Checkpoint.open(dir), Map.of()).restartStrategy(strategy).build();
  }

  private static RuntimeException connectionLost() {
    return new RuntimeException("Sink OUT cannot write batch",
        new SocketException("Connection reset"));
  }

  private static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      // Gives the query's thread the core it needs on a 2-core machine, without a fixed pause.
      Thread.yield();
    }
  }

  @Test void shouldRunTheFailedBatchAgainAfterRecoverableFailures() throws Exception {
    MemoryStream stream = new MemoryStream("s", 1);
    FlakySink sink = new FlakySink(2, connectionLost());
    MicroBatchExecution q = query(stream, sink,
        RestartStrategy.exponentialDelay(5, Duration.ofMillis(10)));
    stream.addData(List.<Object[]>of(new Object[] {1L}, new Object[] {2L}));
    q.start();
    await(() -> sink.applied.containsKey(0L), "batch 0");
    assertTrue(q.processAllAvailable(TIMEOUT));
    stream.addData(List.<Object[]>of(new Object[] {3L}));
    assertTrue(q.processAllAvailable(TIMEOUT));
    assertEquals(Map.of(0L, List.of(1L, 2L), 1L, List.of(3L)), sink.applied);
    assertEquals(QueryStatus.ACTIVE, q.status());
    assertEquals(2, q.restarts());
    assertEquals(0, q.restartAttempt(), "a committed batch resets the attempts");
    assertEquals(2, sink.restarts.get());
    assertEquals("Connection reset", q.lastFailure().orElseThrow().getCause().getMessage());
    assertTrue(q.exception().isEmpty());
    q.stop();
    assertEquals(QueryStatus.STOPPED, q.status());
  }

  @Test void shouldFailWithTheLastErrorAfterTheAttempts() throws Exception {
    MemoryStream stream = new MemoryStream("s", 1);
    FlakySink sink = new FlakySink(Integer.MAX_VALUE, connectionLost());
    sink.restartFails = true;
    MicroBatchExecution q = query(stream, sink,
        RestartStrategy.exponentialDelay(2, Duration.ofMillis(10)));
    stream.addData(List.<Object[]>of(new Object[] {1L}));
    q.start();
    assertTrue(q.awaitTermination(TIMEOUT));
    assertEquals(QueryStatus.FAILED, q.status());
    assertEquals("still away, restart 2", q.exception().orElseThrow().getMessage());
    assertEquals(2, q.restarts());
    assertEquals(2, q.restartAttempt());
    assertEquals(1, sink.calls.get(), "no batch ran after a restart that failed");
    assertEquals(Map.of(), sink.applied);
  }

  @Test void shouldFailAtOnceOnAFailureARestartCannotCure() throws Exception {
    MemoryStream stream = new MemoryStream("s", 1);
    FlakySink sink = new FlakySink(1, new ArithmeticException("/ by zero"));
    MicroBatchExecution q = query(stream, sink,
        RestartStrategy.exponentialDelay(5, Duration.ofMillis(10)));
    stream.addData(List.<Object[]>of(new Object[] {1L}));
    q.start();
    assertTrue(q.awaitTermination(TIMEOUT));
    assertEquals(QueryStatus.FAILED, q.status());
    assertEquals("/ by zero", q.exception().orElseThrow().getMessage());
    assertEquals(0, q.restarts());
    assertEquals(0, sink.restarts.get());
  }

  @Test void shouldResumeAfterTheFailedBatchWithoutACheckpoint() throws Exception {
    MemoryStream stream = new MemoryStream("s", 1);
    FlakySink sink = new FlakySink(0, connectionLost());
    CollectOperator collect = new CollectOperator();
    MicroBatchExecution q = MicroBatchExecution.builder("q", "q",
        StreamingPipeline.of(stream, collect, collect), sink)
        .restartStrategy(RestartStrategy.exponentialDelay(3, Duration.ofMillis(10))).build();
    stream.addData(List.<Object[]>of(new Object[] {1L}));
    q.start();
    assertTrue(q.processAllAvailable(TIMEOUT));
    sink.failures = sink.calls.get() + 1;
    stream.addData(List.<Object[]>of(new Object[] {2L}));
    await(() -> sink.applied.containsKey(1L), "batch 1");
    assertEquals(Map.of(0L, List.of(1L), 1L, List.of(2L)), sink.applied);
    assertEquals(1, q.restarts());
    q.stop();
  }

  @Test void shouldStopAtOnceDuringTheBackoff() throws Exception {
    MemoryStream stream = new MemoryStream("s", 1);
    FlakySink sink = new FlakySink(Integer.MAX_VALUE, new RuntimeException("refused",
        new ConnectException("Connection refused")));
    MicroBatchExecution q = query(stream, sink,
        RestartStrategy.exponentialDelay(10, Duration.ofMinutes(10)));
    stream.addData(List.<Object[]>of(new Object[] {1L}));
    q.start();
    await(() -> q.status() == QueryStatus.RESTARTING, "RESTARTING");
    assertEquals(1, q.restartAttempt());
    assertFalse(q.processAllAvailable(Duration.ofMillis(50)), "nothing commits while away");
    long started = System.nanoTime();
    q.stop();
    assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(5)) < 0,
        "stop ends the backoff");
    assertTrue(q.awaitTermination(TIMEOUT));
    assertEquals(QueryStatus.STOPPED, q.status());
    assertTrue(q.exception().isEmpty());
    assertEquals(0, sink.restarts.get());
  }
}
