package dev.freshet.jdbc;

import static dev.freshet.jdbc.PushResults.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code SELECT STREAM * FROM view}: the view's rows at its last committed version, then every
 * later change, with no gap and no duplicate; and resuming after a version.
 */
class ViewFeedTest {
  private static final String[] KEYS = {"a", "b", "c"};

  private final String engine = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;

  @BeforeEach void create() throws SQLException {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engine);
    statement = connection.createStatement();
    statement.execute("CREATE STREAM clicks (k VARCHAR, n INTEGER)");
    statement.execute("CREATE MATERIALIZED VIEW per_key AS SELECT k, COUNT(*) AS c FROM clicks"
        + " GROUP BY k");
  }

  @AfterEach void close() throws SQLException {
    connection.close();
  }

  private static String insertAll(int n) {
    return "INSERT INTO clicks VALUES ('a', " + n + "), ('b', " + n + "), ('c', " + n + ")";
  }

  private long viewVersion() throws Exception {
    return viewVersion("PER_KEY");
  }

  @Test void shouldHandTheSnapshotThenEveryBatchOnceWhileInsertsRun() throws Exception {
    statement.executeUpdate(insertAll(1));
    ExecutorService writer = Executors.newSingleThreadExecutor();
    try (Connection reader = DriverManager.getConnection("jdbc:freshet:engine=" + engine);
         Statement subscribe = reader.createStatement()) {
      Future<?> inserts = writer.submit(() -> {
        try (Connection w = DriverManager.getConnection("jdbc:freshet:engine=" + engine);
             Statement insert = w.createStatement()) {
          for (int i = 2; i <= 200; i++) {
            insert.executeUpdate(insertAll(i));
          }
        }
        return null;
      });
      ResultSet rs = subscribe.executeQuery("SELECT STREAM * FROM per_key");
      ResultSetMetaData md = rs.getMetaData();
      assertEquals(List.of("K", "C", "_BATCH_ID", "_ROW_KIND"), List.of(md.getColumnName(1),
          md.getColumnName(2), md.getColumnName(3), md.getColumnName(4)));
      // The snapshot: each key once, as INSERTs of one version.
      List<List<Object>> snapshot = read(rs, KEYS.length);
      long version = (Long) snapshot.get(0).get(2);
      Map<Object, Long> counts = new HashMap<>();
      for (List<Object> row : snapshot) {
        assertEquals(version, row.get(2), snapshot::toString);
        assertEquals("INSERT", row.get(3), snapshot::toString);
        counts.put(row.get(0), (Long) row.get(1));
      }
      assertEquals(3, counts.size(), snapshot::toString);
      // Then the later batches, each key's rows with growing versions and counts: a reader
      // that lags finds the latest row per key (unread changes coalesce), never an older one
      // again, and ends at the exact result.
      Map<Object, Long> versions = new HashMap<>();
      for (List<Object> row : snapshot) {
        versions.put(row.get(0), (Long) row.get(2));
      }
      while (!counts.values().stream().allMatch(n -> n == 200L)) {
        List<Object> row = read(rs, 1).get(0);
        assertEquals("UPDATE", row.get(3), row::toString);
        assertTrue((Long) row.get(2) > versions.get(row.get(0)), row::toString);
        assertTrue((Long) row.get(1) > counts.get(row.get(0)), row::toString);
        versions.put(row.get(0), (Long) row.get(2));
        counts.put(row.get(0), (Long) row.get(1));
      }
      inserts.get(60, TimeUnit.SECONDS);
      long last = viewVersion();
      assertEquals(last, versions.values().stream().mapToLong(Long::longValue).max()
          .orElseThrow());
      assertEquals(Map.of("a", 200L, "b", 200L, "c", 200L), counts);
    } finally {
      writer.shutdownNow();
    }
  }

  /** A subscriber that reads nothing for a while finds one row per group: the latest. */
  @Test void shouldCoalesceTheUnreadChangesOfASlowSubscriberPerGroup() throws Exception {
    statement.executeUpdate(insertAll(1));
    viewVersion();
    try (Connection reader = DriverManager.getConnection("jdbc:freshet:engine=" + engine);
         Statement subscribe = reader.createStatement();
         ResultSet rs = subscribe.executeQuery("SELECT STREAM * FROM per_key")) {
      for (int i = 2; i <= 20; i++) {
        statement.executeUpdate(insertAll(i));
        viewVersion();
      }
      long last = viewVersion();
      // Never read, so each group is still new to the reader: INSERT, with its latest count.
      List<List<Object>> rows = read(rs, KEYS.length);
      rows.sort(java.util.Comparator.comparing(r -> (String) r.get(0)));
      assertEquals(List.of(List.of("a", 20L, last, "INSERT"), List.of("b", 20L, last, "INSERT"),
          List.of("c", 20L, last, "INSERT")), rows);
      // Nothing older is left behind them: the next rows are the next batch's.
      statement.executeUpdate("INSERT INTO clicks VALUES ('a', 21)");
      assertEquals(List.of(List.of("a", 21L, last + 1, "UPDATE")), read(rs, 1));
    }
  }

  @Test void shouldResumeAfterAVersionTheClientSaw() throws Exception {
    statement.executeUpdate(insertAll(1));
    long seen = viewVersion();
    statement.executeUpdate("INSERT INTO clicks VALUES ('a', 2)");
    long next = viewVersion();
    statement.executeUpdate("INSERT INTO clicks VALUES ('d', 3)");
    try (ResultSet rs = statement.executeQuery("SELECT STREAM * FROM per_key"
        + " /*+ OPTIONS('since_version'='" + seen + "') */")) {
      assertEquals(List.of(List.of("a", 2L, next, "UPDATE"), List.of("d", 1L, next + 1, "INSERT")),
          read(rs, 2));
    }
  }

  /**
   * A group that HAVING admits only in a later batch has state but no row before it: it is new to
   * the view's readers, an INSERT, live and resumed.
   */
  @Test void shouldInsertAGroupWhenHavingFirstAdmitsIt() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW busy AS SELECT k, COUNT(*) AS c FROM clicks"
        + " GROUP BY k HAVING COUNT(*) > 1");
    statement.executeUpdate("INSERT INTO clicks VALUES ('a', 1), ('b', 1), ('b', 2)");
    long first = viewVersion("BUSY");
    try (Statement other = connection.createStatement();
         ResultSet live = other.executeQuery("SELECT STREAM * FROM busy")) {
      assertEquals(List.of(List.of("b", 2L, first, "INSERT")), read(live, 1));
      statement.executeUpdate("INSERT INTO clicks VALUES ('a', 3), ('b', 3)");
      long second = viewVersion("BUSY");
      List<List<Object>> expected = List.of(List.of("a", 2L, second, "INSERT"),
          List.of("b", 3L, second, "UPDATE"));
      assertEquals(expected, byKey(read(live, 2)));
      try (ResultSet resumed = statement.executeQuery("SELECT STREAM * FROM busy"
          + " /*+ OPTIONS('since_version'='" + first + "') */")) {
        assertEquals(expected, byKey(read(resumed, 2)));
      }
    }
  }

  /**
   * A view reads its state with HAVING applied when it is read, so a group that HAVING stops
   * admitting leaves the view, as it leaves the same query over all input; its subscribers get
   * a DELETE (live and resumed), and a subscriber who never read the group's INSERT gets nothing.
   */
  @Test void shouldDeleteAGroupWhenHavingStopsAdmittingIt() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW small AS SELECT k, SUM(n) AS s FROM clicks"
        + " GROUP BY k HAVING SUM(n) < 10");
    statement.executeUpdate("INSERT INTO clicks VALUES ('a', 3), ('b', 1)");
    long first = viewVersion("SMALL");
    try (Statement other = connection.createStatement();
         ResultSet live = other.executeQuery("SELECT STREAM * FROM small")) {
      assertEquals(List.of(List.of("a", 3L, first, "INSERT"), List.of("b", 1L, first, "INSERT")),
          byKey(read(live, 2)));
      statement.executeUpdate("INSERT INTO clicks VALUES ('a', 9), ('b', 1)");
      long second = viewVersion("SMALL");
      List<List<Object>> expected = List.of(List.of("a", 3L, second, "DELETE"),
          List.of("b", 2L, second, "UPDATE"));
      assertEquals(expected, byKey(read(live, 2)));
      try (ResultSet resumed = statement.executeQuery("SELECT STREAM * FROM small"
          + " /*+ OPTIONS('since_version'='" + first + "') */")) {
        assertEquals(expected, byKey(read(resumed, 2)));
      }
      // What a pull query reads: what the same query computes over all input.
      try (ResultSet pulled = statement.executeQuery("SELECT k, s FROM small")) {
        assertTrue(pulled.next());
        assertEquals(List.of("b", 2L), List.of(pulled.getString(1), pulled.getLong(2)));
        assertTrue(!pulled.next(), "only b is under 10");
      }
    }
    // A subscriber that has not read a group's INSERT when its DELETE comes reads neither; one
    // whose starting row is unread reads the group's latest value as an INSERT.
    try (Statement slow = connection.createStatement();
         ResultSet unread = slow.executeQuery("SELECT STREAM * FROM small")) {
      statement.executeUpdate("INSERT INTO clicks VALUES ('c', 4)");
      viewVersion("SMALL");
      statement.executeUpdate("INSERT INTO clicks VALUES ('c', 6), ('b', 1)");
      long last = viewVersion("SMALL");
      assertEquals(List.of(List.of("b", 3L, last, "INSERT")), read(unread, 1));
      statement.executeUpdate("INSERT INTO clicks VALUES ('d', 1)");
      assertEquals(List.of(List.of("d", 1L, viewVersion("SMALL"), "INSERT")), read(unread, 1));
    }
  }

  /**
   * A COMPLETE view keeps its last result and the one before: a subscriber who saw the one before
   * resumes with its rows deleted and the current ones inserted; one who saw an older one is
   * refused with what to do.
   */
  @Test void shouldResumeACompleteViewOnlyFromTheVersionBeforeItsLatest() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW totals AS SELECT k, COUNT(*) AS c FROM clicks"
        + " GROUP BY k EMIT COMPLETE");
    statement.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
    long first = viewVersion("TOTALS");
    statement.executeUpdate("INSERT INTO clicks VALUES ('b', 1)");
    long second = viewVersion("TOTALS");
    statement.executeUpdate("INSERT INTO clicks VALUES ('a', 2)");
    long third = viewVersion("TOTALS");
    try (ResultSet resumed = statement.executeQuery("SELECT STREAM * FROM totals"
        + " /*+ OPTIONS('since_version'='" + second + "') */")) {
      List<List<Object>> rows = read(resumed, 4);
      assertEquals(List.of(List.of("a", 1L, third, "DELETE"), List.of("b", 1L, third, "DELETE")),
          byKey(new ArrayList<>(rows.subList(0, 2))));
      assertEquals(List.of(List.of("a", 2L, third, "INSERT"), List.of("b", 1L, third, "INSERT")),
          byKey(new ArrayList<>(rows.subList(2, 4))));
    }
    SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM * FROM totals /*+ OPTIONS('since_version'='" + first + "') */"));
    assertEquals("22023", e.getSQLState());
    assertTrue(e.getMessage().startsWith("View TOTALS no longer keeps the changes after version "
        + first + ": the oldest it keeps are those of version " + second + "."), e.getMessage());
  }

  private long viewVersion(String view) throws Exception {
    PushResults.awaitIdle(engine, "the views");
    try (ResultSet rs = statement.executeQuery("SHOW VIEWS")) {
      while (rs.next()) {
        if (rs.getString(1).equals(view)) {
          return rs.getLong("BATCH_ID");
        }
      }
    }
    throw new AssertionError("SHOW VIEWS does not show " + view);
  }

  private static List<List<Object>> byKey(List<List<Object>> rows) {
    rows.sort(java.util.Comparator.comparing(r -> (String) r.get(0)));
    return rows;
  }

  @Test void shouldRefuseAVersionTheViewDoesNotHave() throws Exception {
    statement.executeUpdate(insertAll(1));
    long latest = viewVersion();
    SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM * FROM per_key /*+ OPTIONS('since_version'='" + (latest + 5) + "') */"));
    assertEquals("22023", e.getSQLState());
    assertEquals("View PER_KEY has no version " + (latest + 5) + ": its latest is " + latest
        + ". Resume from a version you have seen, or subscribe without 'since_version' to start"
        + " from the view's current rows", e.getMessage());
    SQLException bad = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM * FROM per_key /*+ OPTIONS('since'='1') */"));
    assertEquals("Unknown hint OPTIONS('since'). A subscription to a view takes"
        + " OPTIONS('since_version'='<version>')", bad.getMessage());
  }
}
