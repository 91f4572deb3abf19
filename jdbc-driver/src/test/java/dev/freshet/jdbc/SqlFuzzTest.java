package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.errors.Errors;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Two thousand statements generated from Freshet's grammar, valid and not, against an embedded
 * engine: every failure is a SQLException with a SQLSTATE and a message of bounded length, never
 * another throwable; and the engine still answers afterwards.
 */
class SqlFuzzTest {
  private static final long SEED = 20261201L;
  private static final int STATEMENTS = 2_000;

  @Test void shouldAnswerEveryGeneratedStatementWithRowsOrASqlStateAndKeepWorking()
      throws Exception {
    FreshetSqlGrammar grammar = new FreshetSqlGrammar(new Random(SEED));
    List<String> problems = new ArrayList<>();
    int failed = 0;
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      for (String setup : FreshetSqlGrammar.SETUP) {
        s.execute(setup);
      }
      for (int i = 0; i < STATEMENTS; i++) {
        String sql = grammar.statement();
        try {
          if (s.execute(sql)) {
            // A push result never ends: closing it stops its query.
            s.getResultSet().close();
          }
        } catch (SQLException e) {
          failed++;
          String state = e.getSQLState();
          String message = e.getMessage();
          if (state == null || !state.matches("[0-9A-Z]{5}") || message == null
              || message.isBlank() || message.length() > Errors.MAX_MESSAGE_LENGTH) {
            problems.add("#" + i + " " + sql + "\n  -> [" + state + "] " + message);
          }
        } catch (Throwable t) {
          problems.add("#" + i + " " + sql + "\n  -> " + t);
        }
      }
      s.execute("INSERT INTO plain VALUES ('canary', 41), ('canary', 1)");
      try (ResultSet rs = s.executeQuery("SELECT k, SUM(v) FROM plain WHERE k = 'canary'"
          + " GROUP BY k")) {
        assertTrue(rs.next());
        assertEquals("canary", rs.getString(1));
        assertEquals(42L, rs.getLong(2));
      }
    }
    if (!problems.isEmpty()) {
      fail(problems.size() + " of " + STATEMENTS + " statements (seed " + SEED + ") failed"
          + " without a SQLSTATE or with an unusable message:\n" + String.join("\n",
          problems.subList(0, Math.min(40, problems.size()))));
    }
    // A grammar that only produced errors, or none, would test little.
    assertTrue(failed > STATEMENTS / 10 && failed < STATEMENTS * 9 / 10, failed + " failed");
  }
}
