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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A continuous query whose estimated memory exceeds its budget ({@code 'query.memory.budget'}) or
 * the engine's ({@code engineMemoryBudget}) fails with 53200, naming itself, the budget and the
 * option; another client's query on the same engine keeps answering.
 */
class MemoryBudgetTest {
  private static final int KEYS = 1000;

  @Test void shouldFailOnlyTheQueryOverItsBudgetWhileAnotherClientsQueryKeepsAnswering()
      throws Exception {
    String url = "jdbc:freshet:engine=" + UUID.randomUUID();
    try (Connection greedy = DriverManager.getConnection(url);
         Connection other = DriverManager.getConnection(url);
         Statement ddl = other.createStatement();
         Statement greedyQuery = greedy.createStatement();
         Statement otherQuery = other.createStatement()) {
      ddl.execute("CREATE STREAM s (k VARCHAR, v INTEGER)");
      greedyQuery.execute("SET 'query.memory.budget' = '16 KB'");
      ResultSet perKey = greedyQuery.executeQuery(
          "SELECT STREAM k, COUNT(*) AS n FROM s GROUP BY k");
      ResultSet total = otherQuery.executeQuery(
          "SELECT STREAM COUNT(*) AS n, SUM(v) AS total FROM s");

      ddl.executeUpdate(insertOfDistinctKeys(KEYS));
      SQLException e = assertTimeoutPreemptively(PushResults.DEADLINE,
          () -> assertThrows(SQLException.class, () -> {
            while (perKey.next()) {
              // Rows of batches before the budget was reached, if any.
            }
          }));
      assertEquals("53200", e.getSQLState(), e.toString());
      assertTrue(Pattern.matches("Query push-[0-9a-f]{8} needs an estimated \\d+ bytes for its"
          + " state and batch, more than its memory budget of 16384 bytes\\. Raise the query's"
          + " budget with SET 'query.memory.budget' = '\\.\\.\\.' \\(e\\.g\\. '1 GB' or"
          + " 'unlimited'\\) before starting it, or make the query keep fewer groups: group by"
          + " fewer keys, or by a window of a column with a watermark so that finished windows"
          + " leave the state", e.getMessage()), e.getMessage());

      assertEquals(List.of(List.of((long) KEYS, (long) KEYS)), PushResults.readData(total, 1));
      ddl.executeUpdate("INSERT INTO s VALUES ('x', 5)");
      assertEquals(List.of(List.of(KEYS + 1L, KEYS + 5L)), PushResults.readData(total, 1));
      assertEquals(List.of("FAILED", "ACTIVE"), statuses(ddl));
    }
  }

  @Test void shouldFailTheViewThatTakesTheEnginesBudgetPastItsLimit() throws Exception {
    String url = "jdbc:freshet:engine=" + UUID.randomUUID() + ";engineMemoryBudget=100 KB";
    try (Connection c = DriverManager.getConnection(url);
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, v INTEGER)");
      s.execute("CREATE MATERIALIZED VIEW per_key AS SELECT k, COUNT(*) AS n FROM s GROUP BY k");
      s.execute("CREATE MATERIALIZED VIEW overall AS SELECT COUNT(*) AS n FROM s");
      s.executeUpdate(insertOfDistinctKeys(KEYS));
      assertTimeoutPreemptively(PushResults.DEADLINE, () -> {
        while (!statuses(s).contains("FAILED")) {
          ViewResults.betweenPolls();
        }
      });
      assertEquals(List.of("FAILED", "ACTIVE"), statuses(s));
      try (ResultSet error = s.executeQuery("SELECT last_error FROM sys.queries WHERE status = 'FAILED'")) {
        assertTrue(error.next());
        assertTrue(Pattern.matches("53200: Query PER_KEY would take the"
            + " estimated memory of all the engine's queries to \\d+ bytes, more than the"
            + " engine's memory budget of 102400 bytes\\. Stop other queries, or raise the"
            + " engine's budget when it starts \\(the connection property engineMemoryBudget,"
            + " or freshet serve --engine-memory-budget\\), .*", error.getString(1)),
            error.getString(1));
      }
      assertTimeoutPreemptively(PushResults.DEADLINE, () -> {
        while (!overall(s).equals(List.of((long) KEYS))) {
          ViewResults.betweenPolls();
        }
      });
    }
  }

  @Test void shouldRefuseABudgetThatIsNotAnAmountOfMemory() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class,
          () -> s.execute("SET 'query.memory.budget' = '12 parsecs'"));
      assertEquals("Option 'query.memory.budget' must be an amount of memory such as '64 MB',"
          + " '512 KB', '2 GB' or a number of bytes, or 'unlimited'; not '12 parsecs'",
          e.getMessage());
    }
  }

  private static String insertOfDistinctKeys(int keys) {
    StringBuilder sql = new StringBuilder("INSERT INTO s VALUES ");
    for (int i = 0; i < keys; i++) {
      sql.append(i == 0 ? "" : ", ").append("('k").append(i).append("', 1)");
    }
    return sql.toString();
  }

  /** The statuses of the engine's queries, the view over keys (or the greedy push) first. */
  private static List<String> statuses(Statement s) throws SQLException {
    List<String> statuses = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT status FROM sys.queries ORDER BY status DESC")) {
      while (rs.next()) {
        statuses.add(rs.getString(1));
      }
    }
    return statuses;
  }

  private static List<Long> overall(Statement s) throws SQLException {
    List<Long> n = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT n FROM overall")) {
      while (rs.next()) {
        n.add(rs.getLong(1));
      }
    }
    return n;
  }
}
