package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.awaitRows;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A materialized view, or a push query, over an UPDATE view reads the view's changes version by
 * version: an updated upstream row retracts its old value and adds its new one, so groups move
 * between the downstream groups, a retracted minimum falls back to the next value and an
 * emptied group is deleted.
 */
class ViewOverViewTest {
  /** Per key: its rows, their sum and their minimum. */
  private static final String UPSTREAM = "CREATE MATERIALIZED VIEW v AS SELECT k,"
      + " COUNT(*) AS c, SUM(x) AS sx, MIN(x) AS lo FROM s GROUP BY k";
  /** Per number of rows of a key: the keys, their sums, their lowest and highest minimum. */
  private static final String DOWNSTREAM = "CREATE MATERIALIZED VIEW w AS SELECT c,"
      + " COUNT(*) AS n, SUM(sx) AS total, MIN(lo) AS low, MAX(lo) AS high FROM v GROUP BY c";
  private static final String READ_W = "SELECT c, n, total, low, high FROM w";

  @TempDir Path dataDir;

  @Test void shouldMoveGroupsFallBackToTheNextMinimumAndDeleteEmptiedGroups() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, x BIGINT) WITH (connector = 'memory')");
      s.execute(UPSTREAM);
      s.execute(DOWNSTREAM);
      try (Statement pushStatement = c.createStatement();
           ResultSet push = pushStatement.executeQuery("SELECT STREAM c, COUNT(*) AS n,"
               + " MIN(lo) AS low"
               + " FROM v GROUP BY c EMIT UPDATE")) {
        s.execute("INSERT INTO s VALUES ('a', 5), ('b', 3)");
        awaitRows(s, READ_W, List.of(row(1L, 2L, 8L, 3L, 5L)));
        assertEquals(List.of(row(1L, 2L, 3L, "INSERT")), read(push, 1));

        // b has two rows now: it leaves group 1 (whose minimum 3 falls back to 5) for group 2.
        s.execute("INSERT INTO s VALUES ('b', 10)");
        awaitRows(s, READ_W, List.of(row(1L, 1L, 5L, 5L, 5L), row(2L, 1L, 13L, 3L, 3L)));
        assertEquals(List.of(row(1L, 1L, 5L, "UPDATE"), row(2L, 1L, 3L, "INSERT")),
            read(push, 2));

        // a follows: group 1 has no key left and is deleted.
        s.execute("INSERT INTO s VALUES ('a', 7)");
        awaitRows(s, READ_W, List.of(row(2L, 2L, 25L, 3L, 5L)));
        assertEquals(List.of(row(1L, 1L, 5L, "DELETE"), row(2L, 2L, 3L, "UPDATE")),
            read(push, 2));
        assertEquals(List.of(), ViewResults.query(s, "SELECT * FROM w WHERE c = 1"));

        // b moves on to group 3: group 2's lowest minimum 3 goes, 5 is next.
        s.execute("INSERT INTO s VALUES ('b', 1)");
        awaitRows(s, READ_W, List.of(row(2L, 1L, 12L, 5L, 5L), row(3L, 1L, 14L, 1L, 1L)));
        assertEquals(List.of(row(2L, 1L, 5L, "UPDATE"), row(3L, 1L, 1L, "INSERT")),
            read(push, 2));
      }
    }
  }

  @Test void shouldKeepAGlobalAggregateOverAViewWhenItsRowsLeave() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, x BIGINT) WITH (connector = 'memory')");
      // Keys with an even number of rows leave v.
      s.execute("CREATE MATERIALIZED VIEW v AS SELECT k, COUNT(*) AS c, SUM(x) AS sx FROM s"
          + " GROUP BY k HAVING MOD(COUNT(*), 2) = 1");
      s.execute("CREATE MATERIALIZED VIEW w AS SELECT COUNT(*) AS keys, SUM(sx) AS total,"
          + " MAX(sx) AS top FROM v");
      s.execute("INSERT INTO s VALUES ('a', 5), ('b', 3)");
      awaitRows(s, "SELECT keys, total, top FROM w", List.of(row(2L, 8L, 5L)));
      s.execute("INSERT INTO s VALUES ('a', 1), ('b', 1)");
      // No key left: the one global row stays, as the query over all input gives it.
      awaitRows(s, "SELECT keys, total, top FROM w", List.of(row(0L, null, null)));
      s.execute("INSERT INTO s VALUES ('b', 2)");
      awaitRows(s, "SELECT keys, total, top FROM w", List.of(row(1L, 6L, 6L)));
    }
  }

  @Test void shouldSubscribeToTheDeletionsOfAViewOverAView() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, x BIGINT) WITH (connector = 'memory')");
      s.execute(UPSTREAM);
      s.execute(DOWNSTREAM);
      s.execute("INSERT INTO s VALUES ('a', 5)");
      awaitRows(s, READ_W, List.of(row(1L, 1L, 5L, 5L, 5L)));
      try (Statement feedStatement = c.createStatement();
           ResultSet feed = feedStatement.executeQuery("SELECT STREAM * FROM w")) {
        assertEquals(List.of(row(1L, 1L, 5L, 5L, 5L, "INSERT")), readWithoutBatch(feed, 1));
        s.execute("INSERT INTO s VALUES ('a', 6)");
        assertEquals(List.of(row(1L, 1L, 5L, 5L, 5L, "DELETE"),
            row(2L, 1L, 11L, 5L, 5L, "INSERT")), readWithoutBatch(feed, 2));
      }
    }
  }

  @Test void shouldKeepACompleteViewOverAnUpdateView() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, x BIGINT) WITH (connector = 'memory')");
      s.execute(UPSTREAM);
      s.execute("CREATE MATERIALIZED VIEW w AS SELECT c, COUNT(*) AS n, MIN(lo) AS low FROM v"
          + " WHERE sx > 0 GROUP BY c EMIT COMPLETE");
      s.execute("INSERT INTO s VALUES ('a', 5), ('b', 3), ('c', -1)");
      awaitRows(s, "SELECT c, n, low FROM w", List.of(row(1L, 2L, 3L)));
      // c's sum turns positive: the filter now admits it, with its minimum -1.
      s.execute("INSERT INTO s VALUES ('c', 4), ('a', 1)");
      awaitRows(s, "SELECT c, n, low FROM w", List.of(row(1L, 1L, 3L), row(2L, 2L, -1L)));
    }
  }

  @Test void shouldShowTheScanOfTheViewsChangesInExplain() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, x BIGINT) WITH (connector = 'memory')");
      s.execute(UPSTREAM);
      try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT STREAM c, COUNT(*) AS n"
          + " FROM v GROUP BY c")) {
        rs.next();
        String plan = rs.getString(1);
        assertEquals(""
            + "LogicalStateStoreSave(operatorId=[0], keys=[{0}], outputMode=[Update],"
            + " statePartitions=[1], state=[UNBOUNDED])\n"
            + "  LogicalStreamAggregate(group=[{0}], N=[$SUM0($1)], phase=[MERGE])\n"
            + "    LogicalStateStoreRestore(operatorId=[0], keys=[{0}])\n"
            + "      LogicalStreamAggregate(group=[{1}], N=[COUNT()], phase=[PARTIAL])\n"
            + "        LogicalTableScan(table=[[FRESHET, V, CHANGES]])\n", plan);
      }
    }
  }

  @Test void shouldReadTheNewRowsOfAnAppendViewAsAnAppendOnlyInput() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, x BIGINT) WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW big AS SELECT k, x FROM s WHERE x > 10");
      s.execute("INSERT INTO s VALUES ('a', 11), ('a', 5), ('b', 20)");
      awaitRows(s, "SELECT k, x FROM big", List.of(row("a", 11L), row("b", 20L)));
      // Created after big's first batch: it reads big's rows from the beginning.
      s.execute("CREATE MATERIALIZED VIEW per_k AS SELECT k, COUNT(*) AS n, MIN(x) AS lo"
          + " FROM big GROUP BY k");
      try (Statement pushStatement = c.createStatement();
           ResultSet push = pushStatement.executeQuery("SELECT STREAM k, x * 2 AS y FROM big"
               + " WHERE k = 'a'")) {
        assertEquals(List.of(row("a", 22L, "INSERT")), read(push, 1));
        awaitRows(s, "SELECT k, n, lo FROM per_k", List.of(row("a", 1L, 11L), row("b", 1L, 20L)));
        s.execute("INSERT INTO s VALUES ('a', 30), ('c', 1)");
        awaitRows(s, "SELECT k, n, lo FROM per_k", List.of(row("a", 2L, 11L), row("b", 1L, 20L)));
        assertEquals(List.of(row("a", 60L, "INSERT")), read(push, 1));
      }
    }
  }

  @Test void shouldKeepTheWindowsTheUpstreamViewEvicted() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID()
            + ";timeZone=UTC");
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM events (k VARCHAR, ts TIMESTAMP(3),"
          + " WATERMARK FOR ts AS ts - INTERVAL '10' SECOND) WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW per_window AS SELECT TUMBLE_START(ts, INTERVAL '5'"
          + " SECOND) AS ws, COUNT(*) AS n FROM events GROUP BY TUMBLE(ts, INTERVAL '5' SECOND)");
      s.execute("CREATE MATERIALIZED VIEW sizes AS SELECT n, COUNT(*) AS windows"
          + " FROM per_window GROUP BY n");
      s.execute("INSERT INTO events VALUES ('a', TIMESTAMP '1970-01-01 00:00:00'),"
          + " ('a', TIMESTAMP '1970-01-01 00:00:01'), ('a', TIMESTAMP '1970-01-01 00:00:06')");
      awaitRows(s, "SELECT n, windows FROM sizes", List.of(row(2L, 1L), row(1L, 1L)));
      // The watermark passes both windows: they leave the state, not the view, nor sizes.
      s.execute("INSERT INTO events VALUES ('a', TIMESTAMP '1970-01-01 00:00:30')");
      awaitRows(s, "SELECT SUM(state_rows_removed) FROM sys.query_progress"
          + " WHERE name = 'PER_WINDOW'", List.of(row(2L)));
      awaitRows(s, "SELECT n, windows FROM sizes", List.of(row(2L, 1L), row(1L, 2L)));
      // A view created now reads the evicted windows with the rest.
      s.execute("CREATE MATERIALIZED VIEW sizes_later AS SELECT n, COUNT(*) AS windows"
          + " FROM per_window GROUP BY n");
      awaitRows(s, "SELECT n, windows FROM sizes_later", List.of(row(2L, 1L), row(1L, 2L)));
    }
  }

  @Test void shouldRefuseToReadTheChangesOfACompleteView() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, x BIGINT) WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW totals AS SELECT k, COUNT(*) AS n FROM s GROUP BY k"
          + " EMIT COMPLETE");
      SQLException e = assertThrows(SQLException.class, () -> s.execute(
          "SELECT STREAM n, COUNT(*) FROM totals GROUP BY n"));
      assertEquals("0A000", e.getSQLState());
      assertEquals("A continuous query cannot read materialized view TOTALS yet: it is an EMIT"
          + " COMPLETE view, and only EMIT UPDATE and EMIT APPEND views can be read. Read the"
          + " stream the view reads instead, or query the view with a plain SELECT",
          e.getMessage());
    }
  }

  @Test void shouldResumeBothViewsAfterARestartWithoutCountingTwice() throws Exception {
    String url = "jdbc:freshet:dataDir=" + dataDir;
    try {
      try (Connection c = DriverManager.getConnection(url);
           Statement s = c.createStatement()) {
        s.execute("CREATE STREAM s (k VARCHAR, x BIGINT) WITH (connector = 'memory')");
        s.execute(UPSTREAM);
        s.execute(DOWNSTREAM);
        s.execute("INSERT INTO s VALUES ('a', 5), ('b', 3)");
        awaitRows(s, READ_W, List.of(row(1L, 2L, 8L, 3L, 5L)));
        s.execute("INSERT INTO s VALUES ('b', 4)");
        awaitRows(s, READ_W, List.of(row(1L, 1L, 5L, 5L, 5L), row(2L, 1L, 7L, 3L, 3L)));
      }
      engine().close();
      try (Connection c = DriverManager.getConnection(url);
           Statement s = c.createStatement()) {
        // Nothing new: both views resume where they were, w does not read v's rows again.
        awaitRows(s, READ_W, List.of(row(1L, 1L, 5L, 5L, 5L), row(2L, 1L, 7L, 3L, 3L)));
        s.execute("INSERT INTO s VALUES ('a', 1)");
        awaitRows(s, READ_W, List.of(row(2L, 2L, 13L, 1L, 3L)));
        awaitRows(s, "SELECT k, c, sx, lo FROM v",
            List.of(row("a", 2L, 6L, 1L), row("b", 2L, 7L, 3L)));
      }
    } finally {
      engine().close();
    }
  }

  @Test void shouldRefuseToDropAViewAnotherViewReads() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, x BIGINT) WITH (connector = 'memory')");
      s.execute(UPSTREAM);
      s.execute(DOWNSTREAM);
      SQLException e = assertThrows(SQLException.class,
          () -> s.execute("DROP MATERIALIZED VIEW v"));
      assertEquals("2BP01", e.getSQLState());
      assertEquals("Cannot drop materialized view 'V': materialized view W reads it. Drop the"
          + " view first: DROP MATERIALIZED VIEW W.", e.getMessage());
      SQLException stream = assertThrows(SQLException.class, () -> s.execute("DROP STREAM s"));
      assertEquals(stream.getSQLState(), e.getSQLState());
      s.execute("DROP MATERIALIZED VIEW w");
      s.execute("DROP MATERIALIZED VIEW v");
    }
  }

  @Test void shouldRefuseWhatCannotReadAViewsChanges() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, x BIGINT) WITH (connector = 'memory')");
      s.execute(UPSTREAM);
      SQLException append = assertThrows(SQLException.class, () -> s.execute(
          "CREATE MATERIALIZED VIEW w AS SELECT c, COUNT(*) AS n FROM v GROUP BY c EMIT APPEND"));
      assertEquals("42KDE", append.getSQLState());
      assertEquals("Append output mode not supported over the changes of materialized view V:"
          + " they update and delete its rows, so an aggregation over them changes groups it"
          + " has emitted. Use EMIT UPDATE or EMIT COMPLETE", append.getMessage());

      SQLException join = assertThrows(SQLException.class, () -> s.execute(
          "CREATE MATERIALIZED VIEW w AS SELECT v.c, COUNT(*) AS n FROM v JOIN s ON v.k = s.k"
              + " GROUP BY v.c"));
      assertEquals("0A000", join.getSQLState());
      assertEquals("A continuous query over the changes of materialized view V, whose rows are"
          + " updated and deleted, cannot join them with another input yet. Filter, project"
          + " and aggregate the view's changes (GROUP BY with COUNT, SUM, AVG, MIN, MAX) only",
          join.getMessage());

      SQLException distinct = assertThrows(SQLException.class, () -> s.execute(
          "SELECT STREAM COUNT(DISTINCT c) FROM v EMIT UPDATE"));
      assertEquals("0A000", distinct.getSQLState());

      SQLException plain = assertThrows(SQLException.class, () -> s.execute(
          "SELECT STREAM k, c FROM v WHERE c > 1"));
      assertEquals("0A000", plain.getSQLState());
      assertEquals("A continuous query can read the changes of materialized view V only to"
          + " aggregate them (GROUP BY): its rows are updated and deleted, which a query"
          + " without aggregation cannot emit. Subscribe with SELECT STREAM * FROM V to get its"
          + " rows and their changes, or query it with a plain SELECT", plain.getMessage());
    }
  }

  private Engine engine() throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }

  /** {@code n} push rows, data and kind (no batch id), sorted for a batch's any order. */
  private static List<List<Object>> read(ResultSet push, int n) {
    return readWithoutBatch(push, n);
  }

  private static List<List<Object>> readWithoutBatch(ResultSet push, int n) {
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> row : PushResults.read(push, n)) {
      List<Object> out = new ArrayList<>(row.subList(0, row.size() - 2));
      out.add(row.get(row.size() - 1));
      rows.add(out);
    }
    rows.sort(Comparator.comparing(Object::toString));
    return rows;
  }
}
