package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.await;
import static dev.freshet.server.RemoteTesting.queriesReading;
import static dev.freshet.server.RemoteTesting.read;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.push.PushQuery;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Push results over the wire: many clients on one stream, a client that stops reading, the limit
 * on push queries, and the query timeout, all through {@code jdbc:freshet:remote:}.
 */
class RemotePushTest {
  private static final int CLIENTS = 50;
  private static final int BATCHES = 10;
  private static final List<String> KEYS = List.of("k0", "k1", "k2");

  private static FreshetServer server;

  @BeforeAll static void startServer() {
    // A short long-poll, so that the driver's timeout check between fetches comes soon.
    server = FreshetServer.builder().port(0).fetchTimeout(Duration.ofMillis(500))
        .pushIdleTimeout(Duration.ofMinutes(5)).start();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url());
  }

  /** The rows batch {@code b} gives every reader: key {@code k(b mod 3)} counted again. */
  private static List<List<Object>> expectedBatch(int b) {
    String key = KEYS.get(b % KEYS.size());
    long count = b / KEYS.size() + 1;
    return List.of(List.of(key, count, (long) b, count == 1 ? "INSERT" : "UPDATE"),
        Arrays.asList(null, null, (long) b, "BATCH_END"));
  }

  /**
   * Every one of 50 clients gets every batch's rows, and while one more client reads nothing its
   * subscription keeps one row per key (and a marker) and holds no one up: the writer waits for
   * all readers to see each batch before it starts the next, within a generous deadline.
   */
  @Test void shouldDeliverEveryBatchToEveryClientWhileOneStopsReading() throws Exception {
    String stream = uniqueName("clicks");
    String query = "SELECT STREAM user_id, COUNT(*) AS n FROM " + stream + " GROUP BY user_id";
    List<Connection> connections = new ArrayList<>();
    ExecutorService readers = Executors.newFixedThreadPool(CLIENTS);
    try (Connection writer = connect(); Statement insert = writer.createStatement()) {
      insert.executeUpdate("CREATE STREAM " + stream + " (user_id VARCHAR, amount DOUBLE)");
      List<ResultSet> results = new ArrayList<>();
      for (int c = 0; c <= CLIENTS; c++) {
        Connection connection = connect();
        connections.add(connection);
        Statement statement = connection.createStatement();
        statement.execute("SET 'push.batch.markers' = 'true'");
        // The last client is the one that stops reading; its SQL tells its query apart.
        results.add(statement.executeQuery(c == CLIENTS ? query + " HAVING 'stalled' <> ''"
            : query));
      }
      List<CountDownLatch> seen = new ArrayList<>();
      for (int b = 0; b < BATCHES; b++) {
        seen.add(new CountDownLatch(CLIENTS));
      }
      ConcurrentHashMap<Integer, List<List<Object>>> received = new ConcurrentHashMap<>();
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        ResultSet rs = results.get(c);
        int client = c;
        done.add(readers.submit(() -> {
          List<List<Object>> rows = new ArrayList<>();
          for (int b = 0; b < BATCHES; b++) {
            rows.addAll(read(rs, 2));
            seen.get(b).countDown();
          }
          received.put(client, rows);
          return null;
        }));
      }
      for (int b = 0; b < BATCHES; b++) {
        insert.executeUpdate("INSERT INTO " + stream + " VALUES ('" + KEYS.get(b % KEYS.size())
            + "', 1)");
        if (!seen.get(b).await(RemoteTesting.DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
          throw readerFailure(done, "not every client saw batch " + b + " within "
              + RemoteTesting.DEADLINE);
        }
      }
      for (Future<?> f : done) {
        f.get(RemoteTesting.DEADLINE.toSeconds(), TimeUnit.SECONDS);
      }
      List<List<Object>> expected = new ArrayList<>();
      for (int b = 0; b < BATCHES; b++) {
        expected.addAll(expectedBatch(b));
      }
      for (int c = 0; c < CLIENTS; c++) {
        assertEquals(expected, received.get(c), "client " + c);
      }
      ContinuousQuery stalled = queriesReading(server, "'stalled'").get(0);
      assertTrue(stalled.processAllAvailable(RemoteTesting.DEADLINE));
      PushQuery push = stalled.pushResult().orElseThrow();
      // Three keys and a marker, after ten batches.
      assertEquals(KEYS.size() + 1, push.bufferedRows());
      assertTrue(push.maxBufferedRows() <= KEYS.size() + 1, "at most " + push.maxBufferedRows());
      // What it reads at last: the latest row per key, each a new key to it, then the marker.
      List<List<Object>> late = read(results.get(CLIENTS), KEYS.size() + 1);
      assertEquals(Arrays.asList(null, null, (long) BATCHES - 1, "BATCH_END"), late.get(3));
      assertEquals(List.of(List.of("k1", 3L, 7L, "INSERT"), List.of("k2", 3L, 8L, "INSERT"),
          List.of("k0", 4L, 9L, "INSERT")), late.subList(0, 3));
    } finally {
      readers.shutdownNow();
      for (Connection connection : connections) {
        connection.close();
      }
    }
    await("closed connections stop their queries", () -> queriesReading(server, stream)
        .isEmpty());
  }

  /** The assertion, caused by the first reader's failure if one failed, so the cause is seen. */
  private static AssertionError readerFailure(List<Future<?>> readers, String message) {
    AssertionError failure = new AssertionError(message);
    for (Future<?> reader : readers) {
      if (reader.isDone()) {
        try {
          reader.get();
        } catch (Exception e) {
          failure.initCause(e.getCause() == null ? e : e.getCause());
          return failure;
        }
      }
    }
    return failure;
  }

  @Test void shouldEndARemotePushQueryAtItsQueryTimeout() throws Exception {
    String stream = uniqueName("clicks");
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      statement.executeUpdate("CREATE STREAM " + stream + " (user_id VARCHAR, amount DOUBLE)");
      statement.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 1)");
      statement.setQueryTimeout(1);
      try (ResultSet rs = statement.executeQuery("SELECT STREAM user_id FROM " + stream)) {
        assertEquals(List.of(List.of("a", 0L, "INSERT")), read(rs, 1));
        SQLException e = assertThrows(SQLException.class, rs::next);
        assertEquals("HYT00", e.getSQLState());
        assertEquals("The query ran for its query timeout of 1 s and was stopped on the server."
            + " Raise Statement.setQueryTimeout, or set it to 0 for no timeout", e.getMessage());
      }
      await("the timed-out query stops", () -> queriesReading(server, stream).isEmpty());
    }
  }

  @Test void shouldRefuseAPushQueryBeyondTheServersLimit() throws Exception {
    try (FreshetServer small = FreshetServer.builder().port(0).maxPushQueries(1).start();
         Connection connection = DriverManager.getConnection("jdbc:freshet:remote:url="
             + small.url());
         Statement first = connection.createStatement();
         Statement second = connection.createStatement()) {
      first.executeUpdate("CREATE STREAM s (user_id VARCHAR)");
      try (ResultSet rs = first.executeQuery("SELECT STREAM user_id FROM s")) {
        SQLException e = assertThrows(SQLException.class,
            () -> second.executeQuery("SELECT STREAM user_id FROM s"));
        assertEquals("53400", e.getSQLState());
        assertEquals("Engine server already runs 1 push queries, its limit: close result sets or"
            + " statements you no longer read, or raise the limit (the server's"
            + " --max-push-queries, Engine.setMaxPushQueries)", e.getMessage());
      }
      first.close();
      await("the closed statement's query stops", () -> small.engine().continuousQueries()
          .isEmpty());
      second.executeQuery("SELECT STREAM user_id FROM s").close();
    }
  }

  /** Text in any script crosses the wire unchanged: in a statement, a push row and a pull row. */
  @Test void shouldCarryUnicodeTextBothWays() throws Exception {
    String stream = uniqueName("unicode");
    List<String> texts = List.of("中文字符", "🚀 fire 🔥", "שלום عليكم", "e\u0301te\u0301");
    try (Connection c = connect(); Statement s = c.createStatement();
         Statement push = c.createStatement()) {
      s.execute("CREATE STREAM " + stream + " (\"名前\" VARCHAR)");
      try (ResultSet rs = push.executeQuery("SELECT STREAM \"名前\" FROM " + stream)) {
        for (String text : texts) {
          s.execute("INSERT INTO " + stream + " VALUES ('" + text + "')");
          assertEquals(text, read(rs, 1).get(0).get(0));
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT \"名前\" FROM " + stream
          + " WHERE \"名前\" LIKE '%🔥'")) {
        assertEquals(List.of(List.of("🚀 fire 🔥")), RemoteTesting.readAll(rs));
      }
    }
  }
}
