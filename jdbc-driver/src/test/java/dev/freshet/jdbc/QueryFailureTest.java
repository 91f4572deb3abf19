package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A query whose batch fails stops and says why; the engine's other queries keep running. */
class QueryFailureTest {
  @Test void shouldThrowTheCauseFromNextAndKeepOtherQueriesRunningWhenABatchFails()
      throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement ddl = c.createStatement();
         Statement failing = c.createStatement();
         Statement healthy = c.createStatement()) {
      ddl.execute("CREATE STREAM s (k VARCHAR, v INTEGER) WITH (connector = 'memory')");
      ResultSet broken = failing.executeQuery("SELECT STREAM k, 100 / v AS q FROM s");
      ResultSet counts = healthy.executeQuery("SELECT STREAM k, COUNT(*) AS n FROM s GROUP BY k");

      ddl.executeUpdate("INSERT INTO s VALUES ('a', 0)");
      SQLException e = assertTimeoutPreemptively(PushResults.DEADLINE,
          () -> assertThrows(SQLException.class, broken::next));
      assertTrue(e.getMessage().contains("failed") && e.getMessage().contains("Division by zero"),
          e.getMessage());
      assertEquals("22012", e.getSQLState());
      assertEquals(List.of(List.of("a", 1L)), PushResults.readData(counts, 1));

      ddl.executeUpdate("INSERT INTO s VALUES ('a', 5)");
      assertEquals(List.of(List.of("a", 2L)), PushResults.readData(counts, 1));
      assertEquals(1, failedQueries(ddl), "the failure shows until the statement is closed");
      broken.close();
      failing.close();
      assertEquals(0, failedQueries(ddl));
    }
  }

  private static int failedQueries(Statement statement) throws SQLException {
    int failed = 0;
    try (ResultSet queries = statement.executeQuery("SHOW QUERIES")) {
      while (queries.next()) {
        for (int col = 1; col <= queries.getMetaData().getColumnCount(); col++) {
          if ("FAILED".equals(queries.getString(col))) {
            failed++;
          }
        }
      }
    }
    return failed;
  }
}
