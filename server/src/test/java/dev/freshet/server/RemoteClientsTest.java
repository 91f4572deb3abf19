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
import java.sql.Statement;
import java.util.List;
import org.apache.calcite.avatica.remote.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Clients other than Freshet's own driver: Avatica's stock remote driver, and a HikariCP pool. */
class RemoteClientsTest {
  private static FreshetServer server;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).start();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  /**
   * Avatica's stock client works, with its known lag: {@code executeQuery} returns once the first
   * row exists, and {@code next()} returns a row only after it fetched the next one, so each row
   * shows up once the following INSERT has been processed.
   */
  @Test void shouldServeAPushQueryToTheStockAvaticaClientOneRowLate() throws Exception {
    String stream = uniqueName("clicks");
    String stock = "jdbc:avatica:remote:url=" + server.url() + ";serialization=PROTOBUF";
    try (Connection writer = DriverManager.getConnection(stock);
         Connection reader = DriverManager.getConnection(stock);
         Statement insert = writer.createStatement()) {
      assertEquals(Driver.class, DriverManager.getDriver(stock).getClass());
      insert.executeUpdate("CREATE STREAM " + stream + " (user_id VARCHAR, amount DOUBLE)");
      // Before the query: a push query starts from the beginning of its stream, and the stock
      // client's executeQuery waits for the first row.
      insert.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 1)");
      try (Statement query = reader.createStatement();
           ResultSet rs = assertTimeoutPreemptively(RemoteTesting.DEADLINE, () ->
               query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n FROM " + stream
                   + " GROUP BY user_id EMIT UPDATE"))) {
        insert.executeUpdate("INSERT INTO " + stream + " VALUES ('b', 2)");
        assertEquals(List.of(List.of("a", 1L, 0L, "INSERT")), read(rs, 1));
        insert.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 3)");
        assertEquals(List.of(List.of("b", 1L, 1L, "INSERT")), read(rs, 1));
        // One more INSERT pushes the last row out.
        insert.executeUpdate("INSERT INTO " + stream + " VALUES ('c', 4)");
        assertEquals(List.of(List.of("a", 2L, 2L, "UPDATE")), read(rs, 1));
      }
      await("the stock client's closed statement stops the query",
          () -> queriesReading(server, stream).isEmpty());
    }
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
