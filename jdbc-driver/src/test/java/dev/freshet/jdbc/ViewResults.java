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

/**
 * Reads materialized views through plain SELECTs, and waits for a view's query to catch up.
 *
 * <p>A view's query runs in the background, so a test waits by re-running a query until it
 * returns the expected rows, failing after a deadline; nothing sleeps.
 */
final class ViewResults {
  /** Generous: a view normally catches up within milliseconds, but CI machines are loaded. */
  static final Duration DEADLINE = Duration.ofSeconds(30);

  private ViewResults() {
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
    long dropped;
    do {
      try (ResultSet rs = statement.executeQuery("SELECT COALESCE(SUM(rows_dropped_by_error),"
          + " 0) FROM sys.query_progress WHERE name = '" + name + "'")) {
        rs.next();
        dropped = rs.getLong(1);
      }
    } while (dropped != expected && System.nanoTime() < deadline);
    return dropped;
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
