package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.await;
import static dev.freshet.server.RemoteTesting.queriesReading;
import static dev.freshet.server.RemoteTesting.read;
import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.avatica.remote.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Clients other than Freshet's own driver: Avatica's stock remote driver, and a HikariCP pool. */
class RemoteClientsTest {
  private static FreshetServer server;

  private static final String STOCK = "jdbc:avatica:remote:url=";
  private static final String SERIALIZATION = ";serialization=PROTOBUF";

  @BeforeAll static void startServer() {
    // Short: a stock client that waits for rows gets a PROGRESS row after each fetch timeout.
    server = FreshetServer.builder().port(0).fetchTimeout(Duration.ofMillis(500)).start();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  /**
   * Avatica's stock client cannot long-poll: its {@code executeQuery} and each {@code next()}
   * fetch until a row exists, and {@code next()} returns a row only once it fetched the next. The
   * server answers it with a PROGRESS row instead of each empty frame, so that it never waits
   * longer than a fetch timeout, and a row reaches it without another INSERT.
   */
  @Test void shouldServeAPushQueryToTheStockAvaticaClientWithProgressRows() throws Exception {
    String stream = uniqueName("clicks");
    try (Connection writer = DriverManager.getConnection(STOCK + server.url() + SERIALIZATION);
         Connection reader = DriverManager.getConnection(STOCK + server.url() + SERIALIZATION);
         Statement insert = writer.createStatement()) {
      assertEquals(Driver.class, DriverManager.getDriver(STOCK + server.url()).getClass());
      insert.executeUpdate("CREATE STREAM " + stream + " (user_id VARCHAR, amount DOUBLE)");
      try (Statement query = reader.createStatement();
           ResultSet rs = assertTimeoutPreemptively(RemoteTesting.DEADLINE, () ->
               query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n FROM " + stream
                   + " GROUP BY user_id EMIT UPDATE"))) {
        // The stream is empty: executeQuery returned at once, and its first row says so.
        assertEquals(List.of(progress(null)), read(rs, 1));
        insert.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 1)");
        assertEquals(List.of("a", 1L, 0L, "INSERT"), nextData(rs, null));
        // No other INSERT: the fetch after the row got PROGRESS, which let the row out.
        assertEquals(List.of(progress(0L)), read(rs, 1));
        insert.executeUpdate("INSERT INTO " + stream + " VALUES ('b', 2), ('a', 3)");
        assertEquals(List.of("b", 1L, 1L, "INSERT"), nextData(rs, 0L));
        assertEquals(List.of(List.of("a", 2L, 1L, "UPDATE"), progress(1L)), read(rs, 2));
        ResultSetMetaData columns = rs.getMetaData();
        for (int c = 1; c <= columns.getColumnCount(); c++) {
          assertEquals(ResultSetMetaData.columnNullable, columns.isNullable(c),
              "a PROGRESS row holds null in column " + columns.getColumnName(c));
        }
      }
      await("the stock client's closed statement stops the query",
          () -> queriesReading(server, stream).isEmpty());
    }
  }

  /**
   * Avatica's {@code cancel()} only flags the statement on the client, which its reader sees in
   * {@code next()}: PROGRESS rows bring the reader there within a fetch timeout. Closing the
   * statement then stops the query on the server.
   */
  @Test void shouldEndAStockClientsReaderWhenAnotherThreadCancelsItsStatement() throws Exception {
    String stream = uniqueName("clicks");
    ExecutorService threads = Executors.newSingleThreadExecutor(RemoteClientsTest::daemon);
    try (Connection c = DriverManager.getConnection(STOCK + server.url() + SERIALIZATION);
         Statement ddl = c.createStatement();
         Statement query = c.createStatement()) {
      ddl.executeUpdate("CREATE STREAM " + stream + " (user_id VARCHAR, amount DOUBLE)");
      AtomicInteger rowsRead = new AtomicInteger();
      Future<SQLException> reader = threads.submit(() -> {
        try (ResultSet rs = query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n FROM "
            + stream + " GROUP BY user_id EMIT UPDATE")) {
          while (rs.next()) {
            rowsRead.incrementAndGet();
          }
          return null;
        } catch (SQLException e) {
          return e;
        }
      });
      await("the reader reads", () -> rowsRead.get() > 0);
      query.cancel();
      SQLException e = reader.get(RemoteTesting.DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
      assertEquals("Statement canceled", e == null ? "the result ended" : e.getMessage());
      assertEquals(1, queriesReading(server, stream).size(), "cancel() reaches no server");
      query.close();
      await("closing the cancelled statement stops the query",
          () -> queriesReading(server, stream).isEmpty());
    } finally {
      threads.shutdownNow();
    }
  }

  /** Freshet's own remote driver long-polls: it never gets a PROGRESS row, however long it waits. */
  @Test void shouldNeverSendProgressRowsToFreshetsRemoteDriver() throws Exception {
    String stream = uniqueName("clicks");
    try (Connection stock = DriverManager.getConnection(STOCK + server.url() + SERIALIZATION);
         Connection freshet = DriverManager.getConnection("jdbc:freshet:remote:url="
             + server.url());
         Statement insert = freshet.createStatement();
         Statement freshetQuery = freshet.createStatement();
         Statement stockQuery = stock.createStatement()) {
      insert.executeUpdate("CREATE STREAM " + stream + " (user_id VARCHAR, amount DOUBLE)");
      String sql = "SELECT STREAM user_id, COUNT(*) AS n FROM " + stream
          + " GROUP BY user_id EMIT UPDATE";
      try (ResultSet rs = freshetQuery.executeQuery(sql);
           ResultSet clock = assertTimeoutPreemptively(RemoteTesting.DEADLINE,
               () -> stockQuery.executeQuery(sql))) {
        ExecutorService threads = Executors.newSingleThreadExecutor(RemoteClientsTest::daemon);
        try {
          Future<List<List<Object>>> first = threads.submit(() -> read(rs, 1));
          // The stock client's third PROGRESS row comes after two fetch timeouts without rows,
          // which the waiting Freshet reader has spent in its long-polls too.
          assertEquals(List.of(progress(null), progress(null), progress(null)), read(clock, 3));
          insert.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 1)");
          assertEquals(List.of(List.of("a", 1L, 0L, "INSERT")),
              first.get(RemoteTesting.DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
        } finally {
          threads.shutdownNow();
        }
      }
    }
  }

  /** A daemon thread: a reader that a broken server leaves blocked does not keep the JVM. */
  private static Thread daemon(Runnable task) {
    Thread thread = new Thread(task, "reader");
    thread.setDaemon(true);
    return thread;
  }

  /** A PROGRESS row of a query with two columns of its own. */
  private static List<Object> progress(Long lastBatch) {
    return Arrays.asList(null, null, lastBatch, "PROGRESS");
  }

  /**
   * Reads past PROGRESS rows, each of which must say {@code lastBatch}, to the next row with
   * data. How many PROGRESS rows come first depends on timing (when the batch ran within the
   * stock client's fetches), so only their content is asserted.
   */
  private static List<Object> nextData(ResultSet rs, Long lastBatch) {
    return assertTimeoutPreemptively(RemoteTesting.DEADLINE, () -> {
      while (true) {
        List<Object> row = read(rs, 1).get(0);
        if (!"PROGRESS".equals(row.get(row.size() - 1))) {
          return row;
        }
        assertEquals(progress(lastBatch), row);
      }
    });
  }

  @Test void shouldServePullAndPushQueriesThroughAConnectionPool() throws Exception {
    String stream = uniqueName("clicks");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:freshet:remote:url=" + server.url());
    config.setMaximumPoolSize(1);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      Object firstPhysical;
      try (Connection c = pool.getConnection();
           Statement s = c.createStatement()) {
        firstPhysical = c.unwrap(Connection.class);
        s.executeUpdate("CREATE STREAM " + stream + " (user_id VARCHAR, amount DOUBLE)");
        s.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 1), ('b', 2)");
        assertEquals(List.of(List.of(2L)), readAll(s.executeQuery(
            "SELECT COUNT(*) FROM " + stream)));
      }
      try (Connection c = pool.getConnection()) {
        assertSame(firstPhysical, c.unwrap(Connection.class), "the pool reuses its connection");
        try (Statement query = c.createStatement();
             ResultSet rs = query.executeQuery("SELECT STREAM user_id, SUM(amount) AS total"
                 + " FROM " + stream + " GROUP BY user_id EMIT UPDATE")) {
          assertEquals(List.of(List.of("a", 1.0, 0L, "INSERT"), List.of("b", 2.0, 0L, "INSERT")),
              sorted(read(rs, 2)));
          try (Statement insert = c.createStatement()) {
            insert.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 5)");
          }
          assertEquals(List.of(List.of("a", 6.0, 1L, "UPDATE")), read(rs, 1));
        }
      }
      await("closing the pooled connection's statement stops the push query",
          () -> queriesReading(server, stream).isEmpty());
      try (Connection c = pool.getConnection();
           Statement s = c.createStatement()) {
        assertEquals(List.of(List.of(3L)), readAll(s.executeQuery(
            "SELECT COUNT(*) FROM " + stream)));
      }
    }
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    return rows.stream().sorted((x, y) -> x.get(0).toString().compareTo(y.get(0).toString()))
        .toList();
  }
}
