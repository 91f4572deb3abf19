package dev.freshet.pgwire;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;

/** Connecting pgjdbc to a {@link PgServer}, reading rows, and waiting with a deadline. */
final class PgTesting {
  /** Generous: a view normally catches up within milliseconds, but CI machines are loaded. */
  static final Duration DEADLINE = Duration.ofSeconds(30);
  /** Between two polls of a wait. */
  static final Duration POLL = Duration.ofMillis(10);

  private PgTesting() {
  }

  static String url(PgServer server) {
    return "jdbc:postgresql://127.0.0.1:" + server.port() + "/freshet";
  }

  /** pgjdbc's connection as {@code user}, with short timeouts so a broken server fails fast. */
  static Connection connect(PgServer server, String user, String password, String... extra)
      throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    if (password != null) {
      p.setProperty("password", password);
    }
    p.setProperty("connectTimeout", "30");
    p.setProperty("socketTimeout", "60");
    p.setProperty("sslmode", "disable");
    for (int i = 0; i + 1 < extra.length; i += 2) {
      p.setProperty(extra[i], extra[i + 1]);
    }
    return DriverManager.getConnection(url(server), p);
  }

  static Connection connect(PgServer server) throws SQLException {
    return connect(server, "freshet", null);
  }

  /** Every row of {@code sql}, each as a list of its values. */
  static List<List<Object>> rows(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      return rows(rs);
    }
  }

  static List<List<Object>> rows(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      List<Object> row = new ArrayList<>();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        row.add(rs.getObject(i));
      }
      rows.add(row);
    }
    return rows;
  }

  static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  /** Re-runs {@code sql} until its rows, in any order, are {@code expected}. */
  static void awaitRows(Statement s, String sql, List<List<Object>> expected)
      throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    List<List<Object>> rows = rows(s, sql);
    while (!counts(rows).equals(counts(expected))) {
      if (System.nanoTime() > deadline) {
        fail("after " + DEADLINE + ", " + sql + " returned " + rows + ", not " + expected);
      }
      LockSupport.parkNanos(POLL.toNanos());
      rows = rows(s, sql);
    }
  }

  private static Map<List<Object>, Integer> counts(List<List<Object>> rows) {
    Map<List<Object>, Integer> counts = new HashMap<>();
    rows.forEach(r -> counts.merge(r, 1, Integer::sum));
    return counts;
  }
}
