package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.query.StatementResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens a data directory that the release before views read their state wrote (checked in under
 * {@code legacy-data-dir/}: views of every kind over four batches of a stream, kept in H2 result
 * tables), and checks that every view shows what it showed, keeps running, and no longer keeps
 * a result table.
 *
 * <p>The directory was made by that release with these statements, waiting for every view after
 * each INSERT:
 * <pre>
 * CREATE STREAM events (k VARCHAR, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
 * CREATE MATERIALIZED VIEW per_key AS SELECT k, COUNT(*) AS c, SUM(v) AS s FROM events GROUP BY k
 * CREATE MATERIALIZED VIEW per_window AS SELECT TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, k,
 *     COUNT(*) AS c, SUM(v) AS s FROM events GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), k
 * CREATE MATERIALIZED VIEW closed_windows AS SELECT TUMBLE_START(ts, INTERVAL '10' SECOND) AS w,
 *     k, COUNT(*) AS c FROM events GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), k EMIT APPEND
 * CREATE MATERIALIZED VIEW big AS SELECT k, v FROM events WHERE v > 2
 * CREATE MATERIALIZED VIEW totals AS SELECT k, COUNT(*) AS c FROM events GROUP BY k EMIT COMPLETE
 * INSERT INTO events VALUES ('a', 1, 00:00:01), ('b', 2, 00:00:02), ('a', 3, 00:00:04)
 * INSERT INTO events VALUES ('a', 4, 00:00:12), ('c', 5, 00:00:13)
 * INSERT INTO events VALUES ('b', 6, 00:00:27)
 * INSERT INTO events VALUES ('c', 7, 00:00:31)
 * </pre>
 * (times on 2026-01-01). Its watermark, 26 s, had evicted the windows [0, 10) and [10, 20) of
 * {@code per_window} from the state: their rows were only in its result table.
 */
class LegacyDataDirectoryTest {
  private static final List<String> VIEWS =
      List.of("PER_KEY", "PER_WINDOW", "CLOSED_WINDOWS", "BIG", "TOTALS");
  private static final String T0 = "2026-01-01 00:00:";

  @TempDir Path temp;
  private Engine engine;

  @AfterEach void close() {
    if (engine != null) {
      engine.close();
    }
  }

  @Test void shouldShowWhatEveryViewShowedAndKeepRunningWithoutResultTables() throws Exception {
    Path dir = temp.resolve("data");
    copy(Path.of(getClass().getResource("/legacy-data-dir").toURI()), dir);
    engine = new Engine("legacy", Optional.of(dir));
    Session session = engine.openSession();

    assertViews(session, List.of("[a, 3, 8]", "[b, 2, 8]", "[c, 2, 12]"),
        List.of(window(0, "a", 2, 4), window(0, "b", 1, 2), window(10, "a", 1, 4),
            window(10, "c", 1, 5), window(20, "b", 1, 6), window(30, "c", 1, 7)),
        List.of(closed(0, "a", 2), closed(0, "b", 1), closed(10, "a", 1), closed(10, "c", 1)),
        List.of("[a, 3]", "[a, 4]", "[b, 6]", "[c, 5]", "[c, 7]"),
        List.of("[a, 3]", "[b, 2]", "[c, 2]"));
    // The views run on: the watermark (40 s) now evicts [20, 30) and [30, 40) too.
    session.execute("INSERT INTO events VALUES ('a', 8, TIMESTAMP '" + T0 + "45')");
    awaitViews();
    assertViewsAfterTheFifthRow(session);

    // And after a restart, from their state and appended rows alone: the catalog database no
    // longer has the views' result tables.
    engine.close();
    List<String> tables = tableNames(dir);
    assertFalse(tables.stream().anyMatch(t -> t.startsWith("RESULT$")
        || t.startsWith("CHANGELOG$")), tables.toString());
    engine = new Engine("legacy-again", Optional.of(dir));
    assertViewsAfterTheFifthRow(engine.openSession());
  }

  /** The views after ('a', 8, 00:00:45) too. */
  private static void assertViewsAfterTheFifthRow(Session session) throws Exception {
    assertViews(session, List.of("[a, 4, 16]", "[b, 2, 8]", "[c, 2, 12]"),
        List.of(window(0, "a", 2, 4), window(0, "b", 1, 2), window(10, "a", 1, 4),
            window(10, "c", 1, 5), window(20, "b", 1, 6), window(30, "c", 1, 7),
            window(40, "a", 1, 8)),
        List.of(closed(0, "a", 2), closed(0, "b", 1), closed(10, "a", 1), closed(10, "c", 1),
            closed(20, "b", 1), closed(30, "c", 1)),
        List.of("[a, 3]", "[a, 4]", "[a, 8]", "[b, 6]", "[c, 5]", "[c, 7]"),
        List.of("[a, 4]", "[b, 2]", "[c, 2]"));
  }

  private void awaitViews() throws InterruptedException {
    for (String view : VIEWS) {
      assertTrue(engine.query(view).orElseThrow().processAllAvailable(Duration.ofSeconds(60)),
          view + " did not catch up");
    }
  }

  private static void assertViews(Session session, List<String> perKey, List<String> perWindow,
      List<String> closedWindows, List<String> big, List<String> totals) throws Exception {
    assertEquals(perKey, rows(session, "SELECT k, c, s FROM per_key ORDER BY k"));
    assertEquals(perWindow, rows(session, "SELECT w, k, c, s FROM per_window ORDER BY w, k"));
    assertEquals(closedWindows,
        rows(session, "SELECT w, k, c FROM closed_windows ORDER BY w, k"));
    assertEquals(big, rows(session, "SELECT k, v FROM big ORDER BY k, v"));
    assertEquals(totals, rows(session, "SELECT k, c FROM totals ORDER BY k"));
  }

  private static List<String> rows(Session session, String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    for (Object[] row : ((StatementResult.Rows) session.execute(sql)).rows()) {
      rows.add(Arrays.toString(row));
    }
    return rows;
  }

  /** A row of per_window: TIMESTAMP as Calcite's milliseconds. */
  private static String window(int second, String k, long c, long s) {
    return Arrays.toString(new Object[] {millis(second), k, c, s});
  }

  private static String closed(int second, String k, long c) {
    return Arrays.toString(new Object[] {millis(second), k, c});
  }

  private static long millis(int second) {
    return java.sql.Timestamp.valueOf(T0 + String.format("%02d", second)).toLocalDateTime()
        .toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
  }

  /** The tables of the engine's H2 catalog database, read while no engine has it open. */
  private static List<String> tableNames(Path dataDir) throws Exception {
    List<String> names = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(
            "jdbc:h2:file:" + dataDir.resolve("catalog").toAbsolutePath(), "sa", "");
         ResultSet r = c.getMetaData().getTables(null, null, null, new String[] {"TABLE"})) {
      while (r.next()) {
        names.add(r.getString("TABLE_NAME"));
      }
    }
    return names;
  }

  private static void copy(Path from, Path to) throws Exception {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Files.copy(file, to.resolve(from.relativize(file).toString()));
      }
    }
  }
}
