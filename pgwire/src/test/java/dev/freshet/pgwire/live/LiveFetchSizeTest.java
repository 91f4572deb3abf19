package dev.freshet.pgwire.live;

import static dev.freshet.pgwire.live.LiveTesting.DEADLINE;
import static dev.freshet.pgwire.live.LiveTesting.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Session;
import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.query.StatementResult;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * pgjdbc with autocommit off and a fetch size streams a push query over the extended protocol
 * (Execute with a row limit, PortalSuspended, Execute again): for each version of a view it
 * receives the same rows as the push query that Freshet's own JDBC driver serves, which this
 * test reads from the engine's {@link Session} directly (the embedded driver is no dependency
 * of pgwire, even in tests).
 */
class LiveFetchSizeTest {
  private LiveServer live;
  private Statement insert;

  @BeforeEach void start() throws Exception {
    live = LiveServer.start("pgwire-live-fetch-size-test",
        "CREATE STREAM clicks (k VARCHAR, n INTEGER)",
        "CREATE MATERIALIZED VIEW per_user AS SELECT k, COUNT(*) AS c, SUM(n) AS total"
            + " FROM clicks GROUP BY k");
    insert = live.statement;
  }

  @AfterEach void stop() throws Exception {
    live.close();
  }

  /** A row as both readers see it: the view's columns, kind, version. */
  private static String line(Object k, Object c, Object total, Object kind, Object version) {
    return k + "," + c + "," + total + "," + kind + "," + version;
  }

  @Test void shouldReceiveTheSameRowsAsTheEnginesPushForEachVersion() throws Exception {
    insert.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
    // Both subscribe at the same version: the one holding this row.
    try (Connection pg = live.connect(); Statement probe = pg.createStatement()) {
      await("the view has its first row", () -> {
        try (ResultSet rs = probe.executeQuery("SELECT COUNT(*) FROM per_user")) {
          return rs.next() && rs.getLong(1) == 1;
        } catch (java.sql.SQLException e) {
          throw new IllegalStateException(e);
        }
      });
    }
    Session session = live.engine.openSession();
    StatementResult.Push direct = (StatementResult.Push) session.execute(
        "SELECT STREAM * FROM per_user");
    try (Connection pg = live.connect(); Statement s = pg.createStatement()) {
      pg.setAutoCommit(false);
      s.setFetchSize(3);
      ResultSet rs = s.executeQuery("SELECT STREAM * FROM per_user");
      assertEquals("freshet_row_kind", rs.getMetaData().getColumnLabel(4));
      assertEquals("int8", rs.getMetaData().getColumnTypeName(5));

      String[][] batches = {
          {"('b', 2)"}, {"('a', 3)", "('c', 4)"}, {"('a', 5)", "('b', 6)", "('d', 7)"},
          {"('e', 8)"}};
      for (int i = -1; i < batches.length; i++) {
        if (i >= 0) {
          insert.executeUpdate("INSERT INTO clicks VALUES " + String.join(", ", batches[i]));
        }
        List<String> expected = version(direct.query());
        List<String> received = new ArrayList<>();
        while (received.size() < expected.size()) {
          assertTrue(rs.next(), "pgjdbc's rows ended");
          received.add(line(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getString(4),
              rs.getLong(5)));
        }
        assertEquals(expected, received, "version " + (i + 1));
      }
      rs.close();
      pg.rollback();
    } finally {
      direct.query().close();
    }
  }

  /** The rows of the next version the engine's push query returns. */
  private static List<String> version(PushQuery push) throws Exception {
    List<String> rows = new ArrayList<>();
    Object[] row = push.next(DEADLINE);
    assertNotNull(row, "no version within " + DEADLINE);
    // A version's rows are handed over together: what follows at once is the rest of it.
    Object version = row[3];
    while (row != null && row[3].equals(version)) {
      rows.add(line(row[0], row[1], row[2], row[4], row[3]));
      row = push.next(Duration.ZERO);
    }
    assertEquals(null, row, "two versions at once");
    return rows;
  }

  @Test void shouldStreamWithoutARowLimitUntilCancelled() throws Exception {
    try (Connection pg = live.connect(); Statement s = pg.createStatement()) {
      CompletableFuture<java.sql.SQLException> failed = CompletableFuture.supplyAsync(() -> {
        try (ResultSet rs = s.executeQuery("SELECT STREAM k, n FROM clicks")) {
          rs.next();
          return null;
        } catch (java.sql.SQLException e) {
          return e;
        }
      });
      await("the push query runs", () -> live.pushQueries() == 1);
      insert.executeUpdate("INSERT INTO clicks VALUES ('x', 1)");
      s.cancel();
      assertEquals("57014", failed.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
          .getSQLState());
      await("the push query stops", () -> live.pushQueries() == 0);
    }
  }
}
