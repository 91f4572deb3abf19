package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One client JVM with 100 push results waiting for rows still runs other statements at once. */
class ManyPushResultsTest {
  private static final int PUSH_RESULTS = 100;

  @Test void shouldAnswerOtherStatementsWhile100PushResultsWait() throws Exception {
    // Fetches wait 30 s for rows: on Avatica's pool of 25 connections per server, the INSERT
    // below would wait that long for a connection.
    try (FreshetServer server = FreshetServer.builder().port(0)
        .fetchTimeout(Duration.ofSeconds(30)).httpIdleTimeout(Duration.ofSeconds(90)).start()) {
      String url = "jdbc:freshet:remote:url=" + server.url();
      String stream = uniqueName("many");
      List<Connection> connections = new ArrayList<>();
      ExecutorService readers = Executors.newFixedThreadPool(PUSH_RESULTS);
      try (Connection writer = DriverManager.getConnection(url)) {
        writer.createStatement().executeUpdate("CREATE STREAM " + stream + " (k VARCHAR)");
        List<ResultSet> results = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
          Connection connection = DriverManager.getConnection(url);
          connections.add(connection);
          for (int s = 0; s < PUSH_RESULTS / 4; s++) {
            Statement statement = connection.createStatement();
            results.add(statement.executeQuery("SELECT STREAM k FROM " + stream));
          }
        }
        CountDownLatch waiting = new CountDownLatch(PUSH_RESULTS);
        List<Future<String>> rows = new ArrayList<>();
        for (ResultSet rs : results) {
          rows.add(readers.submit(() -> {
            waiting.countDown();
            return rs.next() ? rs.getString(1) : null;
          }));
        }
        waiting.await(30, TimeUnit.SECONDS);
        // The readers are in their fetches (or about to be); another statement answers at once.
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
          writer.createStatement().executeUpdate("INSERT INTO " + stream + " VALUES ('a')");
          try (ResultSet pull = writer.createStatement().executeQuery(
              "SELECT COUNT(*) FROM SYS.QUERIES")) {
            assertEquals(1, readAll(pull).size());
          }
        });
        for (Future<String> row : rows) {
          assertEquals("a", row.get(30, TimeUnit.SECONDS));
        }
      } finally {
        readers.shutdownNow();
        for (Connection connection : connections) {
          connection.close();
        }
      }
    }
  }
}
