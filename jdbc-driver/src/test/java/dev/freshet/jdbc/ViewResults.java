package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Reads materialized views through plain SELECTs, and waits for a view's query to catch up.
 *
 * <p>A view's query runs in the background, so a test waits by re-running a query until it
 * returns the expected rows, failing after a deadline; nothing sleeps. Polls are {@link #POLL}
 * apart: a poll is a query the engine runs, and polls back to back would take a whole core from
 * the batches they wait for (two test JVMs share the two cores of a CI machine).
 */
final class ViewResults {
  /** Generous: a view normally catches up within milliseconds, but CI machines are loaded. */
  static final Duration DEADLINE = Duration.ofSeconds(30);

  /**
   * Between two polls of a wait: far below a batch's latency over a loaded machine, far above
   * the time of one poll's query.
   */
  static final Duration POLL = Duration.ofMillis(10);

  private ViewResults() {
  }

  /** Waits {@link #POLL} before a wait's next poll (of a query, a table, a topic). */
  static void betweenPolls() {
    LockSupport.parkNanos(POLL.toNanos());
  }

  /** Runs {@code sql} and returns its rows, each as a list of its column values. */
  static List<List<Object>> query(Statement statement, String sql) throws SQLException {
    return rows(statement.executeQuery(sql));
  }

  /** Every row of a finite result, each as a list of its column values; closes the result. */
  static List<List<Object>> rows(ResultSet rs) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        rows.add(PushResults.row(rs));
      }
    }
    return rows;
  }

  /**
   * Re-runs {@code sql} until its rows, in any order, are {@code expected}; fails after
   * {@link #DEADLINE} naming the last rows seen.
   */
  static void awaitRows(Statement statement, String sql, List<List<Object>> expected)
      throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    List<List<Object>> rows = query(statement, sql);
    while (!sameRows(rows, expected)) {
      if (System.nanoTime() > deadline) {
        fail("after " + DEADLINE + ", " + sql + " returned " + rows + ", not " + expected);
      }
      betweenPolls();
      rows = query(statement, sql);
    }
  }

  /** {@code rows} with every number as a long: integer types of two databases compare equal. */
  static List<List<Object>> normalized(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> row : rows) {
      List<Object> values = new ArrayList<>();
      for (Object v : row) {
        values.add(v instanceof Number n ? (Object) n.longValue() : v);
      }
      out.add(values);
    }
    return out;
  }

  /**
   * Re-runs {@code sql} until its rows, numbers as longs, are {@code expected} in any order;
   * fails after {@link #DEADLINE} naming the last rows seen.
   */
  static void awaitNormalized(Statement statement, String sql, List<List<Object>> expected)
      throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    List<List<Object>> rows = normalized(query(statement, sql));
    while (!sameRows(rows, expected)) {
      if (System.nanoTime() > deadline) {
        fail("after " + DEADLINE + ", " + sql + " returned " + rows + ", not " + expected);
      }
      betweenPolls();
      rows = normalized(query(statement, sql));
    }
  }

  /** Re-runs {@code sql} until it fails, and returns the failure; fails after {@link #DEADLINE}. */
  static SQLException awaitFailure(Statement statement, String sql) throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        query(statement, sql);
      } catch (SQLException e) {
        return e;
      }
      betweenPolls();
    }
    return fail("after " + DEADLINE + ", " + sql + " still succeeds");
  }

  /**
   * The rows query {@code name} has dropped by error ({@code sys.query_progress}), once they are
   * {@code expected} or {@link #DEADLINE} has passed: the caller asserts the count.
   */
  static long awaitDroppedRows(Statement statement, String name, long expected)
      throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      long dropped;
      try (ResultSet rs = statement.executeQuery("SELECT COALESCE(SUM(rows_dropped_by_error),"
          + " 0) FROM sys.query_progress WHERE name = '" + name + "'")) {
        rs.next();
        dropped = rs.getLong(1);
      }
      if (dropped == expected || System.nanoTime() >= deadline) {
        return dropped;
      }
      betweenPolls();
    }
  }

  /** Whether two lists hold the same rows the same number of times, in any order. */
  static boolean sameRows(List<List<Object>> actual, List<List<Object>> expected) {
    return counts(actual).equals(counts(expected));
  }

  private static Map<List<Object>, Integer> counts(List<List<Object>> rows) {
    Map<List<Object>, Integer> counts = new HashMap<>();
    for (List<Object> row : rows) {
      counts.merge(row, 1, Integer::sum);
    }
    return counts;
  }

  /** A row, for expected values: {@code row("a", 2L)}; nulls allowed. */
  static List<Object> row(Object... values) {
    List<Object> row = new ArrayList<>();
    for (Object value : values) {
      row.add(value);
    }
    return row;
  }
}
