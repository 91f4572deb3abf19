package dev.freshet.server;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.query.ContinuousQuery;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Helpers for tests against a real server: rows with deadlines, waiting on the engine. */
final class RemoteTesting {
  /** Generous: a row normally arrives within milliseconds, but CI machines are loaded. */
  static final Duration DEADLINE = Duration.ofSeconds(30);

  private static final AtomicInteger NAMES = new AtomicInteger();
  static final long POLL_NANOS = Duration.ofMillis(2).toNanos();

  private RemoteTesting() {
  }

  /** A name no other test of this JVM uses, for streams and views on a shared server. */
  static String uniqueName(String prefix) {
    return prefix + "_" + NAMES.incrementAndGet() + "_" + ProcessHandle.current().pid();
  }

  /** Reads exactly {@code n} rows, each as a list of its column values, within the deadline. */
  static List<List<Object>> read(ResultSet rs, int n) {
    return assertTimeoutPreemptively(DEADLINE, () -> {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        assertTrue(rs.next(), "the result ended after " + i + " rows");
        rows.add(row(rs));
      }
      return rows;
    }, () -> "fewer than " + n + " rows arrived within " + DEADLINE);
  }

  /**
   * Reads exactly {@code n} rows that are not PROGRESS rows, within the deadline. Only Avatica's
   * stock client gets PROGRESS rows (one per fetch that found nothing new), and how many it gets
   * depends on timing; each one skipped is checked to be one.
   */
  static List<List<Object>> readSkippingProgress(ResultSet rs, int n) {
    return assertTimeoutPreemptively(DEADLINE, () -> {
      List<List<Object>> rows = new ArrayList<>();
      int columns = rs.getMetaData().getColumnCount();
      while (rows.size() < n) {
        assertTrue(rs.next(), "the result ended after " + rows.size() + " rows");
        List<Object> row = row(rs);
        if (!"PROGRESS".equals(row.get(columns - 1))) {
          rows.add(row);
        } else {
          for (Object value : row.subList(0, columns - 2)) {
            assertTrue(value == null, "a PROGRESS row holds no data: " + row);
          }
        }
      }
      return rows;
    }, () -> "fewer than " + n + " rows arrived within " + DEADLINE);
  }

  /** Reads every row of a finite result. */
  static List<List<Object>> readAll(ResultSet rs) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      rows.add(row(rs));
    }
    return rows;
  }

  static List<Object> row(ResultSet rs) throws SQLException {
    List<Object> row = new ArrayList<>();
    for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
      row.add(rs.getObject(c));
    }
    return row;
  }

  /** Waits until the view's query has processed every row its stream holds now. */
  static void awaitView(FreshetServer server, String view) throws InterruptedException {
    ContinuousQuery query = server.engine().query(view.toUpperCase(Locale.ROOT))
        .orElseThrow(() -> new AssertionError("no query maintains view " + view));
    if (!query.processAllAvailable(DEADLINE)) {
      fail("view " + view + " did not catch up: " + query.status(),
          query.exception().orElse(null));
    }
  }

  /** The continuous queries of the server whose SQL mentions {@code name}. */
  static List<ContinuousQuery> queriesReading(FreshetServer server, String name) {
    List<ContinuousQuery> found = new ArrayList<>();
    for (ContinuousQuery query : server.engine().continuousQueries()) {
      if (query.sql().toUpperCase(Locale.ROOT).contains(name.toUpperCase(Locale.ROOT))) {
        found.add(query);
      }
    }
    return found;
  }

  /** Polls {@code condition} until it holds, failing with {@code what} at the deadline. */
  static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("not within " + DEADLINE + ": " + what);
      }
      // Polls a condition that another thread or the server makes true; not a timed wait.
      LockSupport.parkNanos(POLL_NANOS);
    }
  }
}
