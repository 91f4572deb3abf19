package dev.freshet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The server's engine has a memory budget ({@code --engine-memory-budget}): the view that would
 * take all queries past it fails with 53200, the other keeps running.
 */
class ServerMemoryBudgetTest {
  private static final int KEYS = 2_000;

  @Test void shouldFailTheViewThatTakesTheServersBudgetPastItsLimit() throws Exception {
    try (FreshetServer server = FreshetServer.builder().port(0).engineMemoryBudget(100 * 1024)
        .start();
         Connection c = DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR)");
      s.execute("CREATE MATERIALIZED VIEW per_key AS SELECT k, COUNT(*) AS n FROM s GROUP BY k");
      s.execute("CREATE MATERIALIZED VIEW overall AS SELECT COUNT(*) AS n FROM s");
      List<String> rows = new ArrayList<>();
      for (int i = 0; i < KEYS; i++) {
        rows.add("('k" + i + "')");
      }
      s.executeUpdate("INSERT INTO s VALUES " + String.join(", ", rows));
      assertTimeoutPreemptively(RemoteTesting.DEADLINE, () -> {
        while (!column(s, "SELECT status FROM sys.queries WHERE name = 'PER_KEY'")
            .equals("FAILED")) {
          LockSupport.parkNanos(RemoteTesting.POLL_NANOS);
        }
        while (!column(s, "SELECT n FROM overall").equals(Integer.toString(KEYS))) {
          LockSupport.parkNanos(RemoteTesting.POLL_NANOS);
        }
      });
      String error = column(s, "SELECT last_error FROM sys.queries WHERE name = 'PER_KEY'");
      assertTrue(error.contains("more than the engine's memory budget of 102400 bytes")
          && error.contains("freshet serve --engine-memory-budget"), error);
      assertEquals("ACTIVE", column(s, "SELECT status FROM sys.queries WHERE name = 'OVERALL'"));
    }
  }

  @Test void shouldRefuseABudgetThatIsNotAnAmountOfMemory() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
    int exit = new CommandLine(new ServeCommand(System.out, errors, new CountDownLatch(0)))
        .execute("--port", "0", "--engine-memory-budget", "12 parsecs");
    assertEquals(ServeCommand.CANNOT_START, exit);
    String printed = err.toString(StandardCharsets.UTF_8);
    assertTrue(printed.startsWith("freshet serve: Option '--engine-memory-budget' must be an"
        + " amount of memory"), printed);
  }

  /** The first column of the first row of {@code sql}, as text; empty without a row. */
  private static String column(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? String.valueOf(rs.getString(1)) : "";
    }
  }
}
