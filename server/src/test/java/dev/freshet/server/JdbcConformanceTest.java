package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.DEADLINE;
import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What applications and BI tools do first, the same through each of the three ways to reach
 * Freshet: the embedded driver, Freshet's remote driver and Avatica's stock remote driver (the
 * one BI tools bundle). Where a driver differs, the test says how and why.
 *
 * <p>Every statement names streams and views of its own ({@link RemoteTesting#uniqueName}): the
 * remote clients share one server, the embedded client one in-memory engine.
 */
class JdbcConformanceTest {
  private static FreshetServer server;

  /** A way to connect. */
  enum Client {
    /** {@code jdbc:freshet:} in this JVM. */
    EMBEDDED,
    /** {@code jdbc:freshet:remote:}, Freshet's own thin driver. */
    REMOTE,
    /** {@code jdbc:avatica:remote:}, Avatica's stock driver, as BI tools ship it. */
    STOCK;

    String url() {
      switch (this) {
      case EMBEDDED:
        return "jdbc:freshet:engine=conformance";
      case REMOTE:
        return "jdbc:freshet:remote:url=" + server.url();
      default:
        return "jdbc:avatica:remote:url=" + server.url() + ";serialization=PROTOBUF";
      }
    }

    Connection connect() throws SQLException {
      return DriverManager.getConnection(url());
    }
  }

  @BeforeAll static void startServer() {
    // A short long-poll: the stock driver's reader comes back to next() once per fetch.
    server = FreshetServer.builder().port(0).fetchTimeout(java.time.Duration.ofMillis(500))
        .start();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  private static List<List<Object>> query(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      return readAll(rs);
    }
  }

  /** Waits until {@code sql} returns {@code expected}: a view shows a batch once it committed. */
  private static void awaitRows(Statement s, String sql, List<List<Object>> expected)
      throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    List<List<Object>> last = query(s, sql);
    while (!last.equals(expected)) {
      if (System.nanoTime() > deadline) {
        assertEquals(expected, last, sql + " within " + DEADLINE);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
      last = query(s, sql);
    }
  }

  /**
   * Reads {@code n} rows of a push result, each without its batch and kind. Only the stock
   * driver gets PROGRESS rows, one per fetch that found nothing new: how many depends on timing,
   * so they are read past for it, and for the other drivers one would be a row that fails the
   * test's assertions.
   */
  private static List<List<Object>> readPushed(Client client, ResultSet rs, int n)
      throws SQLException {
    int columns = rs.getMetaData().getColumnCount();
    List<List<Object>> rows = client == Client.STOCK ? RemoteTesting.readSkippingProgress(rs, n)
        : RemoteTesting.read(rs, n);
    return rows.stream().map(row -> row.subList(0, columns - 2)).toList();
  }

  @ParameterizedTest @EnumSource(Client.class)
  void statementParametersInInsertsPullAndPushQueries(Client client) throws Exception {
    String clicks = uniqueName("clicks");
    try (Connection c = client.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + clicks + " (user_id VARCHAR(20), amount DOUBLE)");
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + clicks
          + " VALUES (?, ?)")) {
        ParameterMetaData md = insert.getParameterMetaData();
        assertEquals(2, md.getParameterCount());
        assertEquals(List.of(Types.VARCHAR, Types.DOUBLE),
            List.of(md.getParameterType(1), md.getParameterType(2)));
        insert.setString(1, "a");
        insert.setDouble(2, 1.5);
        assertEquals(1, insert.executeUpdate());
        insert.setString(1, "b");
        insert.setDouble(2, 2);
        insert.addBatch();
        insert.setString(1, "b");
        insert.setDouble(2, 3);
        insert.addBatch();
        assertArrayEquals(new int[] {1, 1}, insert.executeBatch());
      }
      try (PreparedStatement pull = c.prepareStatement("SELECT amount FROM " + clicks
          + " WHERE user_id = ?")) {
        assertEquals(1, pull.getParameterMetaData().getParameterCount());
        pull.setString(1, "a");
        assertEquals(List.of(row(1.5)), readAll(pull.executeQuery()));
      }
      try (PreparedStatement push = c.prepareStatement("SELECT STREAM user_id, SUM(amount) AS"
          + " total FROM " + clicks + " WHERE user_id = ? GROUP BY user_id EMIT UPDATE")) {
        push.setString(1, "b");
        try (ResultSet rs = push.executeQuery()) {
          assertEquals(List.of(row("b", 5.0)), readPushed(client, rs, 1));
          s.executeUpdate("INSERT INTO " + clicks + " VALUES ('a', 10), ('b', 1)");
          assertEquals(List.of(row("b", 6.0)), readPushed(client, rs, 1));
        }
      }
    }
  }

  @ParameterizedTest @EnumSource(Client.class)
  void outputColumnsKeepTheirAliases(Client client) throws Exception {
    String ticks = uniqueName("ticks");
    String perMinute = uniqueName("per_minute").toUpperCase(Locale.ROOT);
    String window = "TUMBLE(ts, INTERVAL '1' MINUTE)";
    try (Connection c = client.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + ticks + " (ts TIMESTAMP(3), x INT)");
      s.execute("CREATE MATERIALIZED VIEW " + perMinute + " AS SELECT TUMBLE_START(ts, INTERVAL"
          + " '1' MINUTE) AS w, COUNT(*) AS n FROM " + ticks + " GROUP BY " + window
          + " EMIT UPDATE");
      try (ResultSet rs = s.executeQuery("SELECT STREAM TUMBLE_START(ts, INTERVAL '1' MINUTE)"
          + " AS w, COUNT(*) AS n FROM " + ticks + " GROUP BY " + window)) {
        assertEquals(List.of("W", "N", "_BATCH_ID", "_ROW_KIND"), labels(rs.getMetaData()));
      }
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = c.getMetaData().getColumns(null, "FRESHET", perMinute, "%")) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME"));
        }
      }
      assertEquals(List.of("W", "N"), columns);
      s.executeUpdate("INSERT INTO " + ticks + " VALUES (TIMESTAMP '2024-01-01 10:00:30', 1)");
      awaitRows(s, "SELECT CAST(w AS VARCHAR), n FROM " + perMinute,
          List.of(row("2024-01-01 10:00:00", 1L)));
    }
  }

  private static List<String> labels(ResultSetMetaData md) throws SQLException {
    List<String> labels = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      labels.add(md.getColumnLabel(i));
    }
    return labels;
  }

  @ParameterizedTest @EnumSource(Client.class)
  void metadataThatBiToolsReadWithoutConfiguration(Client client) throws Exception {
    String notes = uniqueName("notes").toUpperCase(Locale.ROOT);
    String perCode = uniqueName("per_code").toUpperCase(Locale.ROOT);
    try (Connection c = client.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + notes + " (note VARCHAR, code VARCHAR(5), kind CHAR(3))");
      s.execute("CREATE MATERIALIZED VIEW " + perCode + " AS SELECT code, COUNT(*) AS n FROM "
          + notes + " GROUP BY code");
      DatabaseMetaData md = c.getMetaData();
      // Avatica's stock client names its own product (its jar's DriverVersion), never asking
      // the server; Freshet's drivers name Freshet.
      assertEquals(client == Client.STOCK ? "Avatica" : "Freshet", md.getDatabaseProductName());
      if (client != Client.STOCK) {
        assertEquals("0.1.0", md.getDatabaseProductVersion());
      }
      // What a default SchemaCrawler crawl and most BI tools ask for: tables and views.
      List<List<Object>> tables = new ArrayList<>();
      for (String name : List.of(notes, perCode)) {
        for (List<Object> found : readAll(md.getTables(null, "FRESHET", name,
            new String[] {"TABLE", "VIEW"}))) {
          tables.add(found.subList(1, 4));
        }
      }
      assertEquals(List.of(row("FRESHET", notes, "TABLE"), row("FRESHET", perCode, "VIEW")),
          tables);
      List<List<Object>> sizes = new ArrayList<>();
      try (ResultSet rs = md.getColumns(null, "FRESHET", notes, "%")) {
        while (rs.next()) {
          sizes.add(row(rs.getString("COLUMN_NAME"), rs.getString("TYPE_NAME"),
              rs.getInt("COLUMN_SIZE")));
        }
      }
      assertEquals(List.of(row("NOTE", "VARCHAR", 65536), row("CODE", "VARCHAR", 5),
          row("KIND", "CHAR", 3)), sizes);
      // The stock driver cannot ask: Avatica's protocol has no request for primary keys.
      List<List<Object>> keys = readAll(md.getPrimaryKeys(null, "FRESHET", perCode));
      assertEquals(client == Client.STOCK ? List.of()
          : List.of(row(null, "FRESHET", perCode, "CODE", (short) 1, "PK_" + perCode)), keys);
    }
  }

  @ParameterizedTest @EnumSource(Client.class)
  void errorsCarryASqlStateAndLeaveTheConnectionUsable(Client client) throws Exception {
    try (Connection c = client.connect(); Statement s = c.createStatement()) {
      SQLException syntax = assertThrows(SQLException.class, () -> s.executeQuery("SELEC 1"));
      assertEquals("42000", syntax.getSQLState(), syntax.toString());
      SQLException missing = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT * FROM no_such_stream"));
      assertEquals("42S02", missing.getSQLState(), missing.toString());
      if (client == Client.STOCK) {
        // Avatica's stock client sends the setting in a connection-sync request, at once or
        // with its next request; it throws that request's error unchecked, and keeps sending
        // the refused schema until the application sets another. The server cannot change that.
        Exception refused = assertThrows(Exception.class, () -> {
          c.setSchema("SYS");
          query(s, "SELECT 1");
        });
        assertEquals("3F000", refused instanceof AvaticaClientRuntimeException unchecked
            ? unchecked.getSqlState() : ((SQLException) refused).getSQLState(),
            refused.toString());
        SQLException again = assertThrows(SQLException.class, () -> query(s, "SELECT 1"));
        assertEquals("3F000", again.getSQLState(), again.toString());
        c.setSchema("FRESHET");
      } else {
        SQLException schema = assertThrows(SQLException.class, () -> c.setSchema("SYS"));
        assertEquals("3F000", schema.getSQLState(), schema.toString());
      }
      assertEquals("FRESHET", c.getSchema());
      assertEquals(List.of(row(1)), query(s, "SELECT 1"));
    }
  }

  @ParameterizedTest @EnumSource(Client.class)
  void transactionsCommitRollBackAndRefuseWritesWhenReadOnly(Client client) throws Exception {
    String stream = uniqueName("orders");
    try (Connection writer = client.connect(); Statement w = writer.createStatement();
         Connection reader = client.connect(); Statement r = reader.createStatement()) {
      w.execute("CREATE STREAM " + stream + " (v INTEGER)");
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, writer.getTransactionIsolation());
      writer.setAutoCommit(false);
      assertEquals(2, w.executeUpdate("INSERT INTO " + stream + " VALUES (1), (2)"));
      assertEquals(List.of(row(0L)), query(r, "SELECT COUNT(*) FROM " + stream));
      writer.rollback();
      assertEquals(1, w.executeUpdate("INSERT INTO " + stream + " VALUES (3)"));
      writer.commit();
      assertEquals(List.of(row(3)), query(r, "SELECT v FROM " + stream));

      reader.setReadOnly(true);
      SQLException e = assertThrows(SQLException.class,
          () -> r.executeUpdate("INSERT INTO " + stream + " VALUES (4)"));
      assertEquals("25006", e.getSQLState(), e.toString());
      assertEquals(List.of(row(1L)), query(r, "SELECT COUNT(*) FROM " + stream));
    }
  }

  @ParameterizedTest @EnumSource(Client.class)
  void explainOfAnyQueryAndSystemTablesWithPlainColumnNames(Client client) throws Exception {
    String clicks = uniqueName("clicks");
    String perUser = uniqueName("per_user").toUpperCase(Locale.ROOT);
    String viewQuery = "SELECT user_id, COUNT(*) AS n FROM " + clicks + " GROUP BY user_id";
    try (Connection c = client.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + clicks + " (user_id VARCHAR)");
      s.execute("CREATE MATERIALIZED VIEW " + perUser + " AS " + viewQuery);
      for (String explained : List.of("SELECT * FROM " + perUser, "SELECT * FROM " + clicks,
          "SELECT STREAM user_id FROM " + clicks)) {
        List<List<Object>> plan = query(s, "EXPLAIN PLAN FOR " + explained);
        assertFalse(plan.isEmpty(), explained);
      }
      assertEquals(List.of(row("CREATE MATERIALIZED VIEW " + perUser + " AS " + viewQuery)),
          query(s, "SELECT query_text FROM sys.queries WHERE name = '" + perUser + "'"));
      assertEquals(List.of(row(viewQuery)), query(s, "SELECT view_definition FROM"
          + " information_schema.views WHERE table_name = '" + perUser + "'"));
    }
  }

  @ParameterizedTest @EnumSource(Client.class)
  void boundedQueriesOverStreamsAreBatchSql(Client client) throws Exception {
    String clicks = uniqueName("clicks");
    String perUser = uniqueName("per_user");
    try (Connection c = client.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + clicks + " (user_id VARCHAR, amount INTEGER)");
      s.execute("CREATE MATERIALIZED VIEW " + perUser + " AS SELECT user_id, COUNT(*) AS n"
          + " FROM " + clicks + " GROUP BY user_id");
      s.executeUpdate("INSERT INTO " + clicks + " VALUES ('a', 1), ('b', 5), ('a', 3)");
      assertEquals(List.of(row("b", 5), row("a", 3), row("a", 1)),
          query(s, "SELECT user_id, amount FROM " + clicks + " ORDER BY amount DESC"));
      awaitRows(s, "SELECT user_id, n FROM " + perUser + " ORDER BY user_id",
          List.of(row("a", 2L), row("b", 1L)));
      assertEquals(List.of(row("a", 1, 2L), row("a", 3, 2L), row("b", 5, 1L)),
          query(s, "SELECT c.user_id, c.amount, v.n FROM " + clicks + " c JOIN " + perUser
              + " v ON c.user_id = v.user_id ORDER BY c.user_id, c.amount"));
    }
  }

  @ParameterizedTest @EnumSource(Client.class)
  void informationSchemaListsTablesAndColumns(Client client) throws Exception {
    String notes = uniqueName("notes").toUpperCase(Locale.ROOT);
    try (Connection c = client.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + notes + " (note VARCHAR, code VARCHAR(5))");
      assertEquals(List.of(row("FRESHET", notes, "TABLE")), query(s, "SELECT table_schema,"
          + " table_name, table_type FROM information_schema.tables WHERE table_name = '"
          + notes + "'"));
      assertEquals(List.of(row("NOTE", 1), row("CODE", 2)), query(s, "SELECT column_name,"
          + " ordinal_position FROM information_schema.columns WHERE table_name = '" + notes
          + "' ORDER BY ordinal_position"));
    }
  }

  @ParameterizedTest @EnumSource(Client.class)
  void pushQueryOverAnEmptyStreamReturnsAtOnceAndCancelEndsIt(Client client) throws Exception {
    String stream = uniqueName("empty");
    try (Connection c = client.connect(); Statement s = c.createStatement();
         Statement query = c.createStatement()) {
      s.execute("CREATE STREAM " + stream + " (v INTEGER)");
      ResultSet rs = assertTimeoutPreemptively(DEADLINE,
          () -> query.executeQuery("SELECT STREAM v FROM " + stream));
      // Whether next() ends by throwing or by returning false depends on whether the cancel
      // came before or during it; either way the reader is let go, having seen no row.
      CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> {
        try {
          while (rs.next()) {
            assertEquals("PROGRESS", rs.getString("_ROW_KIND"));
            assertEquals(Client.STOCK, client, "only the stock driver gets PROGRESS rows");
          }
          return "ended";
        } catch (SQLException e) {
          return "cancelled";
        }
      });
      query.cancel();
      assertTrue(List.of("ended", "cancelled").contains(
          reader.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)));
      query.close();
      if (client != Client.EMBEDDED) {
        RemoteTesting.await("the cancelled push query stops on the server",
            () -> RemoteTesting.queriesReading(server, stream).isEmpty());
      }
    }
  }
}
