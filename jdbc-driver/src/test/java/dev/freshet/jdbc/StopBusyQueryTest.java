package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.freshet.engine.Engine;
import dev.freshet.executor.runtime.MicroBatchExecution;
import dev.freshet.executor.runtime.StreamingQuery;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code STOP QUERY}, {@code Statement.cancel()} and {@code Connection.close()} end a query while
 * its batch is busy, within seconds. Regression: a large HOP made a batch run for minutes, and the
 * stop waited for it to end.
 */
class StopBusyQueryTest {
  /**
   * Well below the minutes the batch would run, and half the time a stop waits for a batch
   * thread ({@link MicroBatchExecution#STOP_TIMEOUT}): the batch must have ended, not been left.
   */
  private static final Duration STOP_DEADLINE = MicroBatchExecution.STOP_TIMEOUT.dividedBy(2);

  @ParameterizedTest @ValueSource(strings = {"STOP QUERY", "cancel", "close"})
  void shouldEndABusyBatchWithinADeadline(String how) throws Exception {
    String engineName = UUID.randomUUID().toString();
    Engine engine = EngineRegistry.INSTANCE.resolve(Map.of("engine", engineName));
    try (Connection admin = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
         Statement ddl = admin.createStatement()) {
      ddl.execute("CREATE STREAM s (k VARCHAR, ts TIMESTAMP(3))");
      Connection client = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
      Statement query = client.createStatement();
      query.execute("SET 'max.windows.per.row' = '100000000'");
      // Each row is in 86.4 million windows, all filtered out: a batch of one row is minutes of
      // work that holds no memory.
      query.executeQuery("SELECT STREAM k, window_start FROM TABLE(HOP(TABLE s, DESCRIPTOR(ts),"
          + " INTERVAL '0.001' SECOND, INTERVAL '1' DAY))"
          + " WHERE window_start < TIMESTAMP '1900-01-01 00:00:00'");
      StreamingQuery busy = engine.queries().get(0);
      ddl.executeUpdate("INSERT INTO s VALUES ('a', TIMESTAMP '2024-01-01 00:00:00')");
      awaitWindowing(busy.name());

      CompletableFuture<Void> stop = CompletableFuture.runAsync(() -> {
        try {
          switch (how) {
          case "STOP QUERY" -> ddl.execute("STOP QUERY '" + busy.id() + "'");
          case "cancel" -> query.cancel();
          default -> client.close();
          }
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      stop.get(STOP_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
      assertEquals(List.of(), engine.queries(), how + " left the query registered");
      assertEquals(false, batchThreadAlive(busy.name()), how + " left the batch running");
      client.close();
    }
  }

  private static boolean batchThreadAlive(String queryName) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("freshet-query-" + queryName));
  }

  /** Waits until the query's batch thread is inside the window operator: the batch is busy. */
  private static void awaitWindowing(String queryName) {
    assertTimeoutPreemptively(PushResults.DEADLINE, () -> {
      while (true) {
        for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
          if (t.getKey().getName().equals("freshet-query-" + queryName)) {
            for (StackTraceElement frame : t.getValue()) {
              if (frame.getClassName().endsWith("TimeWindowOperator")) {
                return;
              }
            }
          }
        }
        // A stack walk stops every thread: poll a few hundred times a second, not in a spin.
        java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
      }
    });
  }
}
