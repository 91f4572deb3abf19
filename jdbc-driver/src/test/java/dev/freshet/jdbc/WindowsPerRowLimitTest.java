package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A HOP window that puts a row in more windows than {@code 'max.windows.per.row'} is refused when
 * the query is planned (54000), in both window forms, for push queries, views and EXPLAIN; the
 * option raises the limit. Regression: {@code HOP(ts, INTERVAL '0.001' SECOND, INTERVAL '100'
 * DAY)} over one row made 8.64 billion rows and took the whole server down.
 */
class WindowsPerRowLimitTest {
  private static final String BOMB_MESSAGE = "A HOP window of size 8640000000 ms and slide 1 ms"
      + " puts each row in 8640000000 windows (size / slide), more than the limit of 10000"
      + " windows per row. Use a slide of at least 864000 ms (or a smaller size), or raise the"
      + " limit with SET 'max.windows.per.row' = '2147483647' before starting the query";

  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws SQLException {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
    statement = connection.createStatement();
    statement.execute("CREATE STREAM s (k VARCHAR, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)");
  }

  @AfterEach void close() throws SQLException {
    connection.close();
  }

  @Test void shouldRefuseTheHopBombAtPlanningWhenItsWindowsPerRowExceedTheLimit() {
    for (String sql : List.of(
        "SELECT STREAM HOP_START(ts, INTERVAL '0.001' SECOND, INTERVAL '100' DAY), COUNT(*)"
            + " FROM s GROUP BY HOP(ts, INTERVAL '0.001' SECOND, INTERVAL '100' DAY)",
        "SELECT STREAM window_start, COUNT(*) FROM TABLE(HOP(TABLE s, DESCRIPTOR(ts),"
            + " INTERVAL '0.001' SECOND, INTERVAL '100' DAY)) GROUP BY window_start",
        "CREATE MATERIALIZED VIEW bomb AS SELECT HOP_START(ts, INTERVAL '0.001' SECOND,"
            + " INTERVAL '100' DAY) AS w, COUNT(*) AS n FROM s"
            + " GROUP BY HOP(ts, INTERVAL '0.001' SECOND, INTERVAL '100' DAY)",
        "EXPLAIN PLAN FOR SELECT STREAM HOP_START(ts, INTERVAL '0.001' SECOND, INTERVAL '100'"
            + " DAY), COUNT(*) FROM s GROUP BY HOP(ts, INTERVAL '0.001' SECOND,"
            + " INTERVAL '100' DAY)")) {
      SQLException e = assertThrows(SQLException.class, () -> statement.execute(sql), sql);
      assertEquals("54000", e.getSQLState(), sql);
      assertEquals(BOMB_MESSAGE, e.getMessage(), sql);
    }
  }

  @Test void shouldRunAHopWithinARaisedLimitAndRefuseItUnderALoweredOne() throws Exception {
    String hop = "SELECT STREAM HOP_START(ts, INTERVAL '1' SECOND, INTERVAL '3' SECOND) AS w,"
        + " COUNT(*) AS n FROM s GROUP BY HOP(ts, INTERVAL '1' SECOND, INTERVAL '3' SECOND)"
        + " EMIT APPEND";
    statement.execute("SET 'max.windows.per.row' = '2'");
    SQLException e = assertThrows(SQLException.class, () -> statement.execute(hop));
    assertEquals("54000", e.getSQLState());
    assertEquals("A HOP window of size 3000 ms and slide 1000 ms puts each row in 3 windows"
        + " (size / slide), more than the limit of 2 windows per row. Use a slide of at least"
        + " 1500 ms (or a smaller size), or raise the limit with SET 'max.windows.per.row' = '3'"
        + " before starting the query", e.getMessage());

    // A plain query over the stream is held to the session's limit too.
    String plain = "SELECT HOP_START(ts, INTERVAL '1' SECOND, INTERVAL '3' SECOND) AS w,"
        + " COUNT(*) AS n FROM s GROUP BY HOP(ts, INTERVAL '1' SECOND, INTERVAL '3' SECOND)";
    SQLException plainRefused = assertThrows(SQLException.class,
        () -> statement.executeQuery(plain));
    assertEquals("54000", plainRefused.getSQLState(), plainRefused.toString());

    statement.execute("SET 'max.windows.per.row' = '3'");
    try (ResultSet rs = statement.executeQuery(plain)) {
      assertFalse(rs.next(), "the stream holds no row yet");
    }
    try (Statement push = connection.createStatement();
         ResultSet rs = push.executeQuery(hop)) {
      statement.executeUpdate("INSERT INTO s VALUES ('a', TIMESTAMP '2024-01-01 00:00:00.500'),"
          + " ('b', TIMESTAMP '2024-01-01 00:00:10')");
      // The row at 0.5 s is in the windows starting at -2 s, -1 s and 0 s, final at 9 s.
      List<String> rows = new java.util.ArrayList<>();
      for (List<Object> row : PushResults.readData(rs, 3)) {
        rows.add(row.toString());
      }
      java.util.Collections.sort(rows);
      assertEquals(List.of("[2023-12-31 23:59:58.0, 1]", "[2023-12-31 23:59:59.0, 1]",
          "[2024-01-01 00:00:00.0, 1]"), rows);
    }
  }

  @Test void shouldRefuseAnOptionValueOutOfRange() {
    SQLException e = assertThrows(SQLException.class,
        () -> statement.execute("SET 'max.windows.per.row' = '0'"));
    assertEquals("Option 'max.windows.per.row' must be an integer from 1 to 100000000, not '0'",
        e.getMessage());
  }
}
