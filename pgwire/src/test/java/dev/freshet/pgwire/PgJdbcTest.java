package dev.freshet.pgwire;

import static dev.freshet.pgwire.PgTesting.awaitRows;
import static dev.freshet.pgwire.PgTesting.connect;
import static dev.freshet.pgwire.PgTesting.row;
import static dev.freshet.pgwire.PgTesting.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.engine.security.Principal;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.postgresql.util.PSQLException;

/**
 * pgjdbc end to end against the PostgreSQL endpoint over a real engine, with its default
 * (extended) protocol and with {@code preferQueryMode=simple}: streams, INSERTs, a view's rows
 * read exactly, prepared statements, transactions and their status byte, errors with SQLSTATE
 * and hint, cancel.
 */
class PgJdbcTest {
  private Engine engine;
  private PgServer server;

  @BeforeEach void start() {
    engine = new Engine("pgwire-test");
    server = PgServer.builder(engine).port(0).start();
  }

  @AfterEach void stop() {
    server.close();
    engine.close();
  }

  @Test void shouldReadAViewsRowsExactlyOverBothProtocols() throws Exception {
    try (Connection c = connect(server); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE, ts TIMESTAMP(3))"
          + " WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW per_user AS SELECT user_id, COUNT(*) AS n,"
          + " SUM(amount) AS total FROM clicks GROUP BY user_id");
      assertEquals(2, s.executeUpdate("INSERT INTO clicks VALUES ('a', 1.5,"
          + " TIMESTAMP '2026-12-01 10:00:00'), ('b', 2.25, TIMESTAMP '2026-12-01 10:00:01.5')"));
      assertEquals(1, s.executeUpdate("INSERT INTO clicks VALUES ('a', 0.1, NULL)"));
      awaitRows(s, "SELECT user_id, n, total FROM per_user",
          List.of(row("a", 2L, 1.6), row("b", 1L, 2.25)));

      try (ResultSet rs = s.executeQuery("SELECT user_id, n, total FROM per_user")) {
        ResultSetMetaData md = rs.getMetaData();
        assertEquals("user_id", md.getColumnLabel(1));
        assertEquals("varchar", md.getColumnTypeName(1));
        assertEquals("int8", md.getColumnTypeName(2));
        assertEquals("float8", md.getColumnTypeName(3));
      }
      // A stream's rows, timestamps and NULLs included, through Freshet's executor.
      try (ResultSet rs = s.executeQuery("SELECT user_id, ts FROM clicks ORDER BY amount")) {
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
          rows.add(row(rs.getString(1), rs.getObject(2, LocalDateTime.class)));
        }
        assertEquals(List.of(row("a", null), row("a", LocalDateTime.of(2026, 12, 1, 10, 0)),
            row("b", LocalDateTime.of(2026, 12, 1, 10, 0, 1, 500_000_000))), rows);
      }
    }
    try (Connection c = connect(server, "freshet", null, "preferQueryMode", "simple");
         Statement s = c.createStatement()) {
      assertEquals(List.of(row("a", 2L, 1.6), row("b", 1L, 2.25)),
          rows(s, "SELECT user_id, n, total FROM per_user ORDER BY user_id"));
    }
  }

  @Test void shouldWriteEveryTypeInTextAndBinary() throws Exception {
    String query = "SELECT TRUE AS b, CAST(7 AS SMALLINT) AS s, 42 AS i,"
        + " CAST(9000000000 AS BIGINT) AS l, CAST(0.5 AS REAL) AS r, 0.1E0 AS d,"
        + " CAST(12.345 AS DECIMAL(10, 3)) AS n, CAST('x' AS VARCHAR(5)) AS v,"
        + " DATE '2026-12-01' AS dt, TIMESTAMP '2026-12-01 10:00:00.125' AS ts";
    for (String binary : new String[] {"false", "true"}) {
      // prepareThreshold=-1 makes pgjdbc ask for binary results at the first execution.
      try (Connection c = connect(server, "freshet", null, "binaryTransfer", binary,
              "prepareThreshold", binary.equals("true") ? "-1" : "5");
           PreparedStatement p = c.prepareStatement(query);
           ResultSet rs = p.executeQuery()) {
        assertTrue(rs.next());
        assertEquals(true, rs.getObject(1));
        assertEquals(7, rs.getObject(2));
        assertEquals(42, rs.getObject(3));
        assertEquals(9_000_000_000L, rs.getObject(4));
        assertEquals(0.5f, rs.getObject(5));
        assertEquals(0.1, rs.getObject(6));
        assertEquals(new BigDecimal("12.345"), rs.getObject(7));
        assertEquals("x", rs.getObject(8));
        assertEquals(LocalDate.of(2026, 12, 1), rs.getObject(9, LocalDate.class));
        assertEquals(LocalDateTime.of(2026, 12, 1, 10, 0, 0, 125_000_000),
            rs.getObject(10, LocalDateTime.class));
        ResultSetMetaData md = rs.getMetaData();
        assertEquals(List.of("bool", "int2", "int4", "int8", "float4", "float8", "numeric",
            "varchar", "date", "timestamp"), typeNames(md));
        assertEquals(5, md.getPrecision(8));
        assertEquals(10, md.getPrecision(7));
        assertEquals(3, md.getScale(7));
      }
    }
  }

  private static List<String> typeNames(ResultSetMetaData md) throws SQLException {
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      names.add(md.getColumnTypeName(i));
    }
    return names;
  }

  @Test void shouldRunPreparedStatementsWithAThousandValues() throws Exception {
    try (Connection c = connect(server); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM kv (k INTEGER, v VARCHAR, d DATE)");
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO kv VALUES (?, ?, ?)")) {
        for (int k = 0; k < 1_000; k++) {
          insert.setInt(1, k);
          insert.setString(2, "v'" + k);
          insert.setDate(3, Date.valueOf(LocalDate.of(2026, 1, 1).plusDays(k)));
          assertEquals(1, insert.executeUpdate());
        }
      }
      assertEquals(List.of(row(1_000L)), rows(s, "SELECT COUNT(*) FROM kv"));
      // Every tenth key: each plain query over a stream reads the whole stream (17 ms each
      // here), and PgJdbcConformanceTest runs 1,000 values over a view.
      try (PreparedStatement select = c.prepareStatement(
          "SELECT v, d FROM kv WHERE k = ? AND d >= ?")) {
        for (int k = 0; k < 1_000; k += 10) {
          select.setInt(1, k);
          select.setObject(2, LocalDate.of(2026, 1, 1));
          try (ResultSet rs = select.executeQuery()) {
            assertTrue(rs.next(), "no row for " + k);
            assertEquals("v'" + k, rs.getString(1));
            assertEquals(LocalDate.of(2026, 1, 1).plusDays(k), rs.getObject(2, LocalDate.class));
            assertFalse(rs.next());
          }
        }
      }
    }
  }

  @Test void shouldTakeBinaryParameters() throws Exception {
    try (Connection c = connect(server, "freshet", null, "binaryTransfer", "true",
            "prepareThreshold", "-1");
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM typed (b BOOLEAN, i INTEGER, l BIGINT, d DOUBLE,"
          + " n DECIMAL(10, 2), v VARCHAR, dt DATE, ts TIMESTAMP(3))");
      try (PreparedStatement p = c.prepareStatement(
          "INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
        p.setBoolean(1, true);
        p.setInt(2, -7);
        p.setLong(3, 1L << 40);
        p.setDouble(4, 0.25);
        p.setBigDecimal(5, new BigDecimal("-3.50"));
        p.setString(6, "ü");
        p.setObject(7, LocalDate.of(1999, 12, 31));
        p.setObject(8, LocalDateTime.of(2026, 12, 1, 10, 0, 0, 1_000_000));
        assertEquals(1, p.executeUpdate());
      }
      try (PreparedStatement p = c.prepareStatement(
          "SELECT b, i, l, d, n, v, dt, ts FROM typed WHERE i = ? AND l = ? AND d = ?")) {
        p.setInt(1, -7);
        p.setLong(2, 1L << 40);
        p.setDouble(3, 0.25);
        try (ResultSet rs = p.executeQuery()) {
          assertTrue(rs.next());
          assertEquals(row(true, -7, 1L << 40, 0.25, new BigDecimal("-3.50"), "ü",
              LocalDate.of(1999, 12, 31), LocalDateTime.of(2026, 12, 1, 10, 0, 0, 1_000_000)),
              row(rs.getObject(1), rs.getObject(2), rs.getObject(3), rs.getObject(4),
                  rs.getObject(5), rs.getObject(6), rs.getObject(7, LocalDate.class),
                  rs.getObject(8, LocalDateTime.class)));
          assertFalse(rs.next());
        }
      }
    }
  }

  @Test void shouldRunABatchOfInsertsInOneTransaction() throws Exception {
    try (Connection c = connect(server); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM batch (k INTEGER, v VARCHAR)");
      c.setAutoCommit(false);
      try (PreparedStatement p = c.prepareStatement("INSERT INTO batch VALUES (?, ?)")) {
        for (int k = 0; k < 50; k++) {
          p.setInt(1, k);
          p.setString(2, "v" + k);
          p.addBatch();
        }
        int[] counts = p.executeBatch();
        assertEquals(50, counts.length);
        for (int count : counts) {
          assertEquals(1, count);
        }
      }
      c.commit();
      c.setAutoCommit(true);
      assertEquals(List.of(row(50L, 1225L)), rows(s, "SELECT COUNT(*), SUM(k) FROM batch"));
    }
  }

  @Test void shouldFetchInPortionsWithAFetchSize() throws Exception {
    try (Connection c = connect(server); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM nums (n INTEGER)");
      s.executeUpdate("INSERT INTO nums VALUES (1), (2), (3), (4), (5)");
      c.setAutoCommit(false);
      try (PreparedStatement p = c.prepareStatement("SELECT n FROM nums ORDER BY n")) {
        p.setFetchSize(2);
        List<Object> seen = new ArrayList<>();
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            seen.add(rs.getObject(1));
          }
        }
        assertEquals(List.of(1, 2, 3, 4, 5), seen);
      }
      c.commit();
    }
  }

  @Test void shouldCommitAndRollBackWithTheRightStatusByte() throws Exception {
    try (Connection c = connect(server); Connection other = connect(server);
         Statement s = c.createStatement(); Statement o = other.createStatement()) {
      s.execute("CREATE STREAM t (x INTEGER)");
      BaseConnection base = c.unwrap(BaseConnection.class);
      assertEquals(TransactionState.IDLE, base.getTransactionState());

      c.setAutoCommit(false);
      s.executeUpdate("INSERT INTO t VALUES (1)");
      assertEquals(TransactionState.OPEN, base.getTransactionState());
      assertEquals(List.of(row(0L)), rows(o, "SELECT COUNT(*) FROM t"));
      c.commit();
      assertEquals(TransactionState.IDLE, base.getTransactionState());
      assertEquals(List.of(row(1L)), rows(o, "SELECT COUNT(*) FROM t"));

      s.executeUpdate("INSERT INTO t VALUES (2)");
      c.rollback();
      assertEquals(List.of(row(1L)), rows(o, "SELECT COUNT(*) FROM t"));

      // An error fails the transaction: everything but ROLLBACK is refused with 25P02.
      s.executeUpdate("INSERT INTO t VALUES (3)");
      assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM missing"));
      assertEquals(TransactionState.FAILED, base.getTransactionState());
      SQLException aborted = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT COUNT(*) FROM t"));
      assertEquals("25P02", aborted.getSQLState());
      c.rollback();
      assertEquals(TransactionState.IDLE, base.getTransactionState());
      assertEquals(List.of(row(1L)), rows(o, "SELECT COUNT(*) FROM t"));
    }
    try (Connection c = connect(server, "freshet", null, "preferQueryMode", "simple");
         Statement s = c.createStatement()) {
      s.execute("BEGIN");
      s.executeUpdate("INSERT INTO t VALUES (4)");
      assertEquals(TransactionState.OPEN, c.unwrap(BaseConnection.class).getTransactionState());
      s.execute("COMMIT");
      assertEquals(TransactionState.IDLE, c.unwrap(BaseConnection.class).getTransactionState());
      assertEquals(List.of(row(2L)), rows(s, "SELECT COUNT(*) FROM t"));
    }
  }

  @Test void shouldReportFreshetsSqlStateMessageAndHint() throws Exception {
    try (Connection c = connect(server); Statement s = c.createStatement()) {
      PSQLException e = assertThrows(PSQLException.class,
          () -> s.executeQuery("SELECT * FROM missing_stream"));
      SQLException direct = assertThrows(SQLException.class,
          () -> engine.openSession(Principal.LOCAL).execute("SELECT * FROM missing_stream"));
      assertEquals(direct.getSQLState(), e.getSQLState());
      assertNotNull(e.getServerErrorMessage());
      assertEquals("ERROR", e.getServerErrorMessage().getSeverity());
      String whole = e.getServerErrorMessage().getMessage()
          + (e.getServerErrorMessage().getHint() == null ? ""
              : ". " + e.getServerErrorMessage().getHint());
      assertEquals(direct.getMessage(), whole);
      // The connection goes on.
      assertEquals(List.of(row(1)), rows(s, "SELECT 1"));

      s.execute("CREATE STREAM clicks (user_id VARCHAR)");
      // A push query never completes (the live tests read it); with autocommit on pgjdbc waits
      // for the end, so its query timeout cancels it, and the push query stops.
      s.setQueryTimeout(1);
      SQLException push = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT STREAM * FROM clicks"));
      assertEquals("57014", push.getSQLState(), push.toString());
      s.setQueryTimeout(0);
      long deadline = System.nanoTime() + PgTesting.DEADLINE.toNanos();
      while (!engine.queries().isEmpty() && System.nanoTime() < deadline) {
        java.util.concurrent.locks.LockSupport.parkNanos(PgTesting.POLL.toNanos());
      }
      assertEquals(List.of(), engine.queries(), "the push query still runs");
    }
  }

  @Test void shouldAnswerThePgjdbcStartupAndSettings() throws Exception {
    try (Connection c = connect(server, "freshet", null, "ApplicationName", "probe");
         Statement s = c.createStatement()) {
      assertEquals(List.of(row("probe")), rows(s, "SHOW application_name"));
      s.execute("SET extra_float_digits = 3");
      s.execute("SET TIME ZONE 'Europe/Berlin'");
      assertEquals(List.of(row("Europe/Berlin")), rows(s, "SHOW TimeZone"));
      assertEquals(List.of(row("ISO, MDY")), rows(s, "SHOW DateStyle"));
      assertTrue(c.getMetaData().getDatabaseProductVersion().startsWith("15."),
          c.getMetaData().getDatabaseProductVersion());
      assertTrue(c.isValid(5));
      // Freshet's own SET still reaches the session.
      s.execute("SET 'state.partitions' = '2'");
    }
  }

  @Test void shouldRefuseAnotherDatabaseWith3D000() {
    PSQLException e = assertThrows(PSQLException.class, () -> java.sql.DriverManager
        .getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/postgres?user=x"));
    assertEquals("3D000", e.getSQLState());
    assertTrue(e.getMessage().contains("freshet"), e.getMessage());
  }

  @Test void shouldCancelARunningStatementWith57014() throws Exception {
    try (Connection c = connect(server); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM big (k VARCHAR, v INTEGER)");
      for (int from = 0; from < 30_000; from += 1_000) {
        StringBuilder insert = new StringBuilder("INSERT INTO big VALUES ");
        for (int i = from; i < from + 1_000; i++) {
          insert.append(i == from ? "" : ", ").append("('k").append(i % 50).append("', ")
              .append(i).append(')');
        }
        s.executeUpdate(insert.toString());
      }
      CompletableFuture<SQLException> failure = CompletableFuture.supplyAsync(() -> {
        try {
          s.executeQuery("SELECT COUNT(*) FROM big a JOIN big b ON a.v + b.v < 0");
          return null;
        } catch (SQLException e) {
          return e;
        }
      });
      long deadline = System.nanoTime() + PgTesting.DEADLINE.toNanos();
      while (engine.plainQueries().visibleTo(Principal.LOCAL).isEmpty()) {
        assertTrue(System.nanoTime() < deadline, "the join did not start");
        LockSupport.parkNanos(PgTesting.POLL.toNanos());
      }
      // The join holds one statement thread; other connections go on meanwhile.
      try (Connection other = connect(server); Statement o = other.createStatement()) {
        assertEquals(List.of(row(30_000L)), rows(o, "SELECT COUNT(*) FROM big"));
      }
      assertFalse(failure.isDone(), "the join ended before it was cancelled");
      s.cancel();
      SQLException e = failure.get(60, TimeUnit.SECONDS);
      assertNotNull(e, "the join was not cancelled");
      assertEquals("57014", e.getSQLState(), e.toString());
      assertEquals(List.of(row(30_000L)), rows(s, "SELECT COUNT(*) FROM big"));

      // statement_timeout cancels the same way.
      s.execute("SET statement_timeout = '300ms'");
      SQLException timeout = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT COUNT(*) FROM big a JOIN big b ON a.v + b.v < 0"));
      assertEquals("57014", timeout.getSQLState(), timeout.toString());
      assertTrue(timeout.getMessage().contains("statement timeout (300 ms)"),
          timeout.getMessage());
      s.execute("SET statement_timeout = 0");
      assertEquals(List.of(row(30_000L)), rows(s, "SELECT COUNT(*) FROM big"));
    }
  }

  @Test void shouldReadTimestampsWrittenAsParameters() throws Exception {
    try (Connection c = connect(server); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM ev (id BIGINT, ts TIMESTAMP(3), amount DECIMAL(10, 2))");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO ev VALUES (?, ?, ?)")) {
        p.setLong(1, 1);
        p.setTimestamp(2, Timestamp.valueOf(LocalDateTime.of(2026, 12, 1, 10, 0, 0, 5_000_000)));
        p.setBigDecimal(3, new BigDecimal("12.34"));
        assertEquals(1, p.executeUpdate());
        p.setLong(1, 2);
        p.setObject(2, LocalDateTime.of(2026, 12, 2, 0, 0));
        p.setNull(3, java.sql.Types.DECIMAL);
        assertEquals(1, p.executeUpdate());
      }
      try (ResultSet rs = s.executeQuery("SELECT id, ts, amount FROM ev ORDER BY id")) {
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
          rows.add(row(rs.getLong(1), rs.getObject(2, LocalDateTime.class),
              rs.getBigDecimal(3)));
        }
        assertEquals(List.of(
            row(1L, LocalDateTime.of(2026, 12, 1, 10, 0, 0, 5_000_000), new BigDecimal("12.34")),
            row(2L, LocalDateTime.of(2026, 12, 2, 0, 0), null)), rows);
      }
    }
  }
}
