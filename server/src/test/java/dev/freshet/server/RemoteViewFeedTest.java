package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.read;
import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Over the wire: a subscription to a view ({@code SELECT STREAM * FROM view}) hands the snapshot
 * and then every batch once while other clients insert, a client resumes after a version it saw,
 * and a plain SELECT with LIMIT reads a stream's retained rows.
 */
class RemoteViewFeedTest {
  private static final String[] KEYS = {"a", "b", "c"};
  private static FreshetServer server;
  private static String url;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).start();
    url = "jdbc:freshet:remote:url=" + server.url();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  private static String insertAll(String stream, int n) {
    return "INSERT INTO " + stream + " VALUES ('a', " + n + "), ('b', " + n + "), ('c', " + n
        + ")";
  }

  /** The view's version once it has processed every row its stream holds now. */
  private static long version(Statement s, String view) throws Exception {
    RemoteTesting.awaitView(server, view);
    for (List<Object> row : readAll(s.executeQuery("SHOW VIEWS"))) {
      if (row.get(0).equals(view.toUpperCase(java.util.Locale.ROOT))) {
        return (Long) row.get(4);
      }
    }
    throw new AssertionError("no view " + view);
  }

  @Test void shouldHandTheSnapshotThenEveryBatchOnceWhileOthersInsert() throws Exception {
    String stream = uniqueName("clicks");
    String view = uniqueName("per_key");
    ExecutorService writer = Executors.newSingleThreadExecutor();
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
         Connection reader = DriverManager.getConnection(url);
         Statement subscribe = reader.createStatement()) {
      s.execute("CREATE STREAM " + stream + " (k VARCHAR, n INTEGER)");
      s.execute("CREATE MATERIALIZED VIEW " + view + " AS SELECT k, COUNT(*) AS c FROM " + stream
          + " GROUP BY k");
      s.executeUpdate(insertAll(stream, 1));
      version(s, view);
      Future<?> inserts = writer.submit(() -> {
        try (Connection w = DriverManager.getConnection(url);
             Statement insert = w.createStatement()) {
          for (int i = 2; i <= 100; i++) {
            insert.executeUpdate(insertAll(stream, i));
          }
        }
        return null;
      });
      ResultSet rs = subscribe.executeQuery("SELECT STREAM * FROM " + view);
      List<List<Object>> snapshot = read(rs, KEYS.length);
      long first = (Long) snapshot.get(0).get(2);
      Map<Object, Long> counts = new HashMap<>();
      for (List<Object> row : snapshot) {
        assertEquals(List.of(first, "INSERT"), row.subList(2, 4), snapshot::toString);
        counts.put(row.get(0), (Long) row.get(1));
      }
      // Then the later batches, each key's rows with growing versions and counts: a reader
      // that lags finds the latest row per key (unread changes coalesce), never an older one
      // again, and ends at the exact result.
      Map<Object, Long> versions = new HashMap<>();
      for (List<Object> row : snapshot) {
        versions.put(row.get(0), (Long) row.get(2));
      }
      while (!counts.values().stream().allMatch(n -> n == 100L)) {
        List<Object> row = read(rs, 1).get(0);
        assertEquals("UPDATE", row.get(3), row::toString);
        assertTrue((Long) row.get(2) > versions.get(row.get(0)), row::toString);
        assertTrue((Long) row.get(1) > counts.get(row.get(0)), row::toString);
        versions.put(row.get(0), (Long) row.get(2));
        counts.put(row.get(0), (Long) row.get(1));
      }
      inserts.get(60, TimeUnit.SECONDS);
      long last = version(s, view);
      assertEquals(last, versions.values().stream().mapToLong(Long::longValue).max()
          .orElseThrow());
      assertEquals(Map.of("a", 100L, "b", 100L, "c", 100L), counts);
    } finally {
      writer.shutdownNow();
    }
  }

  /**
   * 50 subscribers to one view each follow it to its final result while another subscriber reads
   * nothing; that one then finds one row per group, the latest, as new groups to it.
   */
  @Test void shouldKeepFiftySubscribersOfOneViewCurrentWhileOneStopsReading() throws Exception {
    String stream = uniqueName("clicks");
    String view = uniqueName("per_key");
    int clients = 50;
    int statements = 10;
    List<Connection> connections = new java.util.ArrayList<>();
    ExecutorService readers = Executors.newFixedThreadPool(clients);
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + stream + " (k VARCHAR, n INTEGER)");
      s.execute("CREATE MATERIALIZED VIEW " + view + " AS SELECT k, COUNT(*) AS c FROM " + stream
          + " GROUP BY k");
      List<ResultSet> results = new java.util.ArrayList<>();
      for (int i = 0; i <= clients; i++) {
        Connection connection = DriverManager.getConnection(url);
        connections.add(connection);
        results.add(connection.createStatement().executeQuery("SELECT STREAM * FROM " + view));
      }
      List<Future<Map<Object, Long>>> finals = new java.util.ArrayList<>();
      for (int i = 0; i < clients; i++) {
        ResultSet rs = results.get(i);
        finals.add(readers.submit(() -> {
          Map<Object, Long> counts = new HashMap<>();
          Map<Object, Long> versions = new HashMap<>();
          while (counts.size() < KEYS.length
              || !counts.values().stream().allMatch(n -> n == statements)) {
            List<Object> row = read(rs, 1).get(0);
            assertTrue((Long) row.get(2) > versions.getOrDefault(row.get(0), -1L), row::toString);
            assertTrue((Long) row.get(1) > counts.getOrDefault(row.get(0), 0L), row::toString);
            versions.put(row.get(0), (Long) row.get(2));
            counts.put(row.get(0), (Long) row.get(1));
          }
          return counts;
        }));
      }
      for (int i = 1; i <= statements; i++) {
        s.executeUpdate(insertAll(stream, i));
      }
      for (Future<Map<Object, Long>> f : finals) {
        assertEquals(Map.of("a", 10L, "b", 10L, "c", 10L),
            f.get(RemoteTesting.DEADLINE.toSeconds(), TimeUnit.SECONDS));
      }
      long last = version(s, view);
      List<List<Object>> late = read(results.get(clients), KEYS.length);
      late.sort(java.util.Comparator.comparing(r -> (String) r.get(0)));
      assertEquals(List.of(List.of("a", 10L, last, "INSERT"), List.of("b", 10L, last, "INSERT"),
          List.of("c", 10L, last, "INSERT")), late);
    } finally {
      readers.shutdownNow();
      for (Connection connection : connections) {
        connection.close();
      }
    }
  }

  @Test void shouldResumeAfterAVersionAndReadAStreamsRowsWithLimit() throws Exception {
    String stream = uniqueName("clicks");
    String view = uniqueName("per_key");
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + stream + " (k VARCHAR, n INTEGER)");
      s.execute("CREATE MATERIALIZED VIEW " + view + " AS SELECT k, SUM(n) AS total FROM "
          + stream + " GROUP BY k");
      s.executeUpdate(insertAll(stream, 1));
      long seen = version(s, view);
      s.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 10)");
      long next = version(s, view);
      try (ResultSet rs = s.executeQuery("SELECT STREAM * FROM " + view
          + " /*+ OPTIONS('since_version'='" + seen + "') */")) {
        assertEquals(List.of(List.of("a", 11L, next, "UPDATE")), read(rs, 1));
      }
      try (ResultSet rs = s.executeQuery("SELECT STREAM * FROM " + view
          + " /*+ OPTIONS('since_version'='" + (next + 1) + "') */")) {
        throw new AssertionError("a version the view does not have was accepted");
      } catch (SQLException e) {
        assertEquals("22023", e.getSQLState());
      }
      assertEquals(2, readAll(s.executeQuery("SELECT * FROM " + stream + " LIMIT 2")).size());
    }
  }
}
