package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.engine.Engine;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A row whose expression fails ({@code 100 / i} with {@code i = 0}) fails its view by default, as
 * in Spark, and a plain SELECT of the failed view then fails with the view's error instead of
 * returning out-of-date rows; with {@code 'on.error' = 'skip'} the row is dropped, counted in the
 * query's progress, and the view keeps running, also after a restart.
 */
class RowErrorPolicyTest {
  private static final String VIEW = "CREATE MATERIALIZED VIEW ratios AS"
      + " SELECT k, SUM(100 / i) AS r, COUNT(*) AS c FROM s GROUP BY k";

  @TempDir Path dataDir;

  @AfterEach void closeEngine() throws SQLException {
    engine().close();
  }

  private Engine engine() throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
  }

  @Test void shouldFailTheViewAndItsReadersOnARowThatFails() throws Exception {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, i INT)");
      s.execute(VIEW);
      s.execute("INSERT INTO s VALUES ('a', 5)");
      ViewResults.awaitRows(s, "SELECT k, r, c FROM ratios", List.of(row("a", 20L, 1L)));
      s.execute("INSERT INTO s VALUES ('b', 0), ('a', 10)");
      SQLException e = awaitFailure(s, "SELECT k, r, c FROM ratios");
      assertEquals("22012", e.getSQLState());
      assertEquals("Materialized view RATIOS failed after batch 0, so its rows are out of date:"
          + " Division by zero. Guard the divisor, e.g. x / NULLIF(y, 0), which gives NULL where"
          + " y is 0. Fix the cause, then DROP MATERIALIZED VIEW RATIOS and create it again"
          + " (after SET 'on.error' = 'skip' a view drops rows whose expressions fail instead of"
          + " failing)", e.getMessage());
    }
  }

  @Test void shouldDropAndCountRowsThatFailWhenSkipping() throws Exception {
    String first = "('a', 5), ('b', 0), ('a', 10), ('c', 0), ('c', 4)";
    String second = "('b', 0), ('b', 50)";
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement oracle = h2.createStatement()) {
      oracle.execute("CREATE TABLE s (k VARCHAR, i INT)");
      oracle.execute("INSERT INTO s VALUES " + first);
      try (Connection c = connect(); Statement s = c.createStatement()) {
        s.execute("CREATE STREAM s (k VARCHAR, i INT)");
        s.execute("SET 'on.error' = 'skip'");
        s.execute(VIEW);
        s.execute("INSERT INTO s VALUES " + first);
        ViewResults.awaitRows(s, "SELECT k, r, c FROM ratios", ViewResults.query(oracle,
            "SELECT k, CAST(SUM(100 / i) AS BIGINT), COUNT(*) FROM s WHERE i <> 0 GROUP BY k"));
        assertEquals(2L, droppedRows(s));
      }
      engine().close();

      // The view keeps the option it was created with; this session has not set it.
      oracle.execute("INSERT INTO s VALUES " + second);
      try (Connection c = connect(); Statement s = c.createStatement()) {
        s.execute("INSERT INTO s VALUES " + second);
        ViewResults.awaitRows(s, "SELECT k, r, c FROM ratios", ViewResults.query(oracle,
            "SELECT k, CAST(SUM(100 / i) AS BIGINT), COUNT(*) FROM s WHERE i <> 0 GROUP BY k"));
        assertEquals(1L, droppedRows(s));
        assertEquals(List.of(row("ACTIVE")), ViewResults.query(s,
            "SELECT status FROM sys.queries WHERE name = 'RATIOS'"));
      }
    }
  }

  /** Rows dropped by error in the progress this engine run recorded. */
  private static long droppedRows(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT SUM(rows_dropped_by_error)"
        + " FROM sys.query_progress WHERE name = 'RATIOS'")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Re-runs {@code sql} until it fails, and returns the failure. */
  private static SQLException awaitFailure(Statement s, String sql) throws SQLException {
    long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        ViewResults.query(s, sql);
      } catch (SQLException e) {
        return e;
      }
    }
    return assertThrows(SQLException.class, () -> ViewResults.query(s, sql),
        sql + " still answers after " + ViewResults.DEADLINE);
  }
}
