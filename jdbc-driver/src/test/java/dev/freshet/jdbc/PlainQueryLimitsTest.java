package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A plain query over streams holds the rows it reads and the rows of its result under the
 * memory budgets, which are on by default (53200 naming the query and the option), and stops
 * with 57014 soon after {@code Statement.cancel()} from another thread or {@code STOP QUERY}
 * from another connection, wherever it is: reading, or joining rows it read.
 */
class PlainQueryLimitsTest {
  /** A join of this stream with itself on {@code a.v + b.v < 0} compares 900 million pairs. */
  private static final int ROWS = 30_000;
  /** The statement's text, as SHOW QUERIES lists it. */
  private static final String ENDLESS_JOIN =
      "SELECT COUNT(*) FROM big a JOIN big b ON a.v + b.v < 0";

  private final String engineName = UUID.randomUUID().toString();
  private final String url = "jdbc:freshet:engine=" + engineName;

  @AfterEach void closeEngine() throws SQLException {
    engine().close();
  }

  private Engine engine() throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.ENGINE, engineName));
  }

  @Test void shouldFailAPlainQueryThatHoldsMoreRowsThanItsBudgetWith53200NamingTheOption()
      throws Exception {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      bigStream(s, 5_000);
      s.execute("SET 'query.memory.budget' = '64 KB'");

      // Calcite's path: a join of a stream with itself holds both scans' rows.
      SQLException join = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT COUNT(*) FROM big a JOIN big b ON a.k = b.k"));
      assertEquals("53200", join.getSQLState(), join.toString());
      assertTrue(Pattern.matches("Plain query plain-\\d+ \\(SELECT COUNT\\(\\*\\) FROM big a JOIN"
          + " big b ON a\\.k = b\\.k\\) holds an estimated \\d+ bytes of rows read and rows of its"
          + " result, more than its memory budget of 65536 bytes\\. Raise it with SET"
          + " 'query\\.memory\\.budget' = '\\.\\.\\.' \\(e\\.g\\. '1 GB' or 'unlimited'; the default"
          + " is 40% of the JVM's maximum heap\\), or read fewer rows: filter the streams,"
          + " or keep the aggregate in a materialized view and query that",
          join.getMessage()), join.getMessage());

      // Freshet's executor's path: a scan of one stream collects its rows.
      SQLException scan = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT k, v FROM big"));
      assertEquals("53200", scan.getSQLState(), scan.toString());
      assertTrue(scan.getMessage().startsWith("Plain query plain-"), scan.getMessage());
      assertTrue(scan.getMessage().contains("(SELECT k, v FROM big) holds an estimated "),
          scan.getMessage());
      // What the failed queries held went back to the engine's pool.
      assertEquals(0, engine().memoryPool().usedBytes());

    }
    // A new session's default budget, 40% of the heap, takes such queries; the engine's is 60%.
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      assertEquals(List.of(List.of(50L * 100 * 100)),
          rows(s, "SELECT COUNT(*) FROM big a JOIN big b ON a.k = b.k"));
      assertEquals(5_000, rows(s, "SELECT k, v FROM big").size());
      assertEquals(Runtime.getRuntime().maxMemory() / 100 * 60, engine().memoryPool().limitBytes());
      assertEquals(0, engine().memoryPool().usedBytes());
    }
  }

  @Test void shouldEndAPlainQueryWith57014SoonAfterStatementCancelFromAnotherThread()
      throws Exception {
    try (Connection c = DriverManager.getConnection(url);
         Connection monitor = DriverManager.getConnection(url);
         Statement s = c.createStatement();
         Statement m = monitor.createStatement()) {
      bigStream(s, ROWS);
      AtomicLong endedAt = new AtomicLong();
      CompletableFuture<SQLException> failure = CompletableFuture.supplyAsync(() -> {
        SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(ENDLESS_JOIN));
        endedAt.set(System.nanoTime());
        return e;
      });
      String id = awaitRunning(m);

      long cancelledAt = System.nanoTime();
      s.cancel();
      SQLException e = failure.get(30, TimeUnit.SECONDS);
      long latencyMs = (endedAt.get() - cancelledAt) / 1_000_000;

      assertEquals("57014", e.getSQLState(), e.toString());
      assertTrue(e.getMessage().contains("Plain query " + id + " (" + ENDLESS_JOIN
          + ") was cancelled after "), e.getMessage());
      // Bounded by the check interval (a row of a scan); generous for a loaded machine.
      assertTrue(latencyMs < 5_000, "cancelled after " + latencyMs + " ms");
      System.out.println("PlainQueryLimitsTest: Statement.cancel() took effect in " + latencyMs
          + " ms");
      assertEquals(List.of(), plainQueries(m));
      assertEquals(0, engine().memoryPool().usedBytes());
      // The connection runs the next query as usual (a cancelled Avatica statement stays so).
      try (Statement next = c.createStatement()) {
        assertEquals(List.of(List.of((long) ROWS)), rows(next, "SELECT COUNT(*) FROM big"));
      }
    }
  }

  @Test void shouldEndAPlainQueryWith57014WhenAnotherConnectionStopsIt() throws Exception {
    try (Connection c = DriverManager.getConnection(url);
         Connection monitor = DriverManager.getConnection(url);
         Statement s = c.createStatement();
         Statement m = monitor.createStatement()) {
      bigStream(s, ROWS);
      CompletableFuture<SQLException> failure = CompletableFuture.supplyAsync(
          () -> assertThrows(SQLException.class, () -> s.executeQuery(ENDLESS_JOIN)));
      String id = awaitRunning(m);

      m.execute("STOP QUERY '" + id + "'");
      SQLException e = failure.get(30, TimeUnit.SECONDS);

      assertEquals("57014", e.getSQLState(), e.toString());
      assertTrue(e.getMessage().contains("was cancelled after "), e.getMessage());
      assertEquals(List.of(), plainQueries(m));
      SQLException unknown = assertThrows(SQLException.class,
          () -> m.execute("STOP QUERY '" + id + "'"));
      assertEquals("42704", unknown.getSQLState(), unknown.toString());
    }
  }

  /** Waits until SHOW QUERIES lists the endless join, and returns its id. */
  private static String awaitRunning(Statement m) throws SQLException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      List<List<Object>> plain = plainQueries(m);
      if (!plain.isEmpty()) {
        assertEquals(ENDLESS_JOIN, plain.get(0).get(2), plain.toString());
        assertEquals("ACTIVE", plain.get(0).get(1), plain.toString());
        return (String) plain.get(0).get(0);
      }
      assertTrue(System.nanoTime() < deadline, "the join was not listed");
      ViewResults.betweenPolls();
    }
  }

  /** The plain queries SHOW QUERIES lists: id, status and text. */
  private static List<List<Object>> plainQueries(Statement m) throws SQLException {
    List<List<Object>> plain = new ArrayList<>();
    for (List<Object> row : rows(m, "SHOW QUERIES")) {
      if ("PLAIN".equals(row.get(3))) {
        plain.add(List.of(row.get(0), row.get(2), row.get(5)));
      }
    }
    return plain;
  }

  /** Stream BIG of {@code rows} rows: k in 50 keys, v from 0. */
  private static void bigStream(Statement s, int rows) throws SQLException {
    s.execute("CREATE STREAM big (k VARCHAR, v INTEGER)");
    for (int from = 0; from < rows; from += 1_000) {
      StringBuilder insert = new StringBuilder("INSERT INTO big VALUES ");
      for (int i = from; i < Math.min(rows, from + 1_000); i++) {
        insert.append(i == from ? "" : ", ").append("('k").append(i % 50).append("', ")
            .append(i).append(')');
      }
      s.executeUpdate(insert.toString());
    }
  }

  private static List<List<Object>> rows(Statement s, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (ResultSet r = s.executeQuery(sql)) {
      while (r.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
          row.add(r.getObject(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
