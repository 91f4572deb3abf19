package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.Engine;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.catalog.StreamTable;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32's soak at CI size (acceptance 1; the full size is the benchmark workload SOAK): rows
 * INSERTed through JDBC in 1,000-row statements into a durable stream with small segments, a
 * small memory bound and {@code 'retention' = '0'}, through a GROUP BY view. The view is exact
 * (H2 runs the same GROUP BY over every row as the oracle), the stream's segments stay bounded by its retention,
 * its rows in memory by {@code 'memory.max'}, the heap after GC does not grow, and a restart
 * reads only the log's last segment. Size: {@code -Dfreshet.soak.rows} (default 300,000).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class StreamSoakTest {
  private static final int KEYS = 1_000;
  private static final int PER_STATEMENT = 1_000;
  private static final long SEGMENT_BYTES = 64 * 1024;
  private static final long MEMORY_MAX = 256 * 1024;
  private static final String STREAM = "CREATE STREAM IF NOT EXISTS events"
      + " (n BIGINT NOT NULL, k INTEGER NOT NULL) WITH ('retention' = '0',"
      + " 'segment.size' = '64 KB', 'memory.max' = '256 KB')";
  private static final String VIEW = "CREATE MATERIALIZED VIEW IF NOT EXISTS totals AS"
      + " SELECT k, COUNT(*) AS c, SUM(n) AS s FROM events GROUP BY k";
  private static final Duration DEADLINE = Duration.ofSeconds(120);

  @TempDir Path dataDir;
  /** The oracle: every row inserted, in H2. */
  private Connection h2;

  @BeforeEach void openOracle() throws SQLException {
    h2 = DriverManager.getConnection("jdbc:h2:mem:soak" + System.nanoTime());
    try (Statement s = h2.createStatement()) {
      s.execute("CREATE TABLE events (n BIGINT NOT NULL, k INTEGER NOT NULL)");
    }
  }

  @AfterEach void closeEngine() throws SQLException {
    engine().close();
    h2.close();
  }

  private Engine engine() throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
  }

  private MemoryStream stream() throws SQLException {
    return engine().planner().catalog().stream("EVENTS").flatMap(StreamTable::memoryStream)
        .orElseThrow();
  }

  @Test void shouldKeepMemoryAndDiskBoundedAndRestartFromTheTail() throws Exception {
    long rows = Long.getLong("freshet.soak.rows", 300_000L);
    long heapEarly;
    long maxSegments = 0;
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute(STREAM);
      s.execute(VIEW);
      StringBuilder sql = new StringBuilder("INSERT INTO events VALUES (?, ?)");
      sql.append(", (?, ?)".repeat(PER_STATEMENT - 1));
      heapEarly = -1;
      try (PreparedStatement insert = c.prepareStatement(sql.toString())) {
        for (long n = 0; n < rows; n += PER_STATEMENT) {
          for (int i = 0; i < PER_STATEMENT; i++) {
            insert.setLong(2 * i + 1, n + i);
            insert.setInt(2 * i + 2, (int) ((n + i) % KEYS));
          }
          assertEquals(PER_STATEMENT, insert.executeUpdate());
          long done = n + PER_STATEMENT;
          if (done % (rows / 20) == 0) {
            maxSegments = Math.max(maxSegments, segments().length);
            assertTrue(stream().heldInMemory()[1] <= MEMORY_MAX,
                "rows in memory within 'memory.max': " + stream().heldInMemory()[1]);
          }
          if (done == rows / 10) {
            awaitCount(s, done);
            heapEarly = heapAfterGc();
          }
        }
      }
      awaitCount(s, rows);
    }
    long heapEnd = heapAfterGc();
    // Only now, so that the oracle's rows are not in the heap measured: the same rows, in H2.
    loadOracle(rows);
    try (Connection c = connect(); Statement s = c.createStatement()) {
      assertMatchesOracle(s);
    }
    // Within 1.5x, plus a little for what the JVM's own caches (JIT, class data) add.
    assertTrue(heapEnd <= heapEarly * 3 / 2 + (8 << 20), "heap after GC grew from " + heapEarly
        + " to " + heapEnd + " bytes");
    long statements = rows / PER_STATEMENT;
    // Every reader committed past all but the active segment (and one just filled).
    long[] sizes = segmentSizes();
    assertTrue(sizes.length <= 3, "segments kept by 'retention' = '0': " + sizes.length);
    assertTrue(maxSegments <= 6, "segments during the run: " + maxSegments);
    for (long size : sizes) {
      assertTrue(size <= SEGMENT_BYTES + 32 * 1024, "segment of " + size + " bytes");
    }
    assertTrue(stream().oldestOffset() > statements / 2, "old offsets deleted: oldest "
        + stream().oldestOffset());

    engine().close();
    long started = System.nanoTime();
    try (Connection c = connect(); Statement s = c.createStatement()) {
      MemoryStream restarted = stream();
      assertEquals(statements, restarted.latestOffset());
      long perSegment = statements - restarted.oldestOffset() + 1;
      assertTrue(restarted.recordsReadAtOpen() <= perSegment
          && restarted.recordsReadAtOpen() < statements / 10, "the restart read "
          + restarted.recordsReadAtOpen() + " of " + statements + " records: only the tail");
      assertMatchesOracle(s);
      System.out.printf("soak: %d rows; heap after GC %d -> %d bytes; %d segments at most;"
          + " restart ready in %d ms, %d records read%n", rows, heapEarly, heapEnd, maxSegments,
          (System.nanoTime() - started) / 1_000_000, restarted.recordsReadAtOpen());
      String last = "INSERT INTO events VALUES (" + rows + ", " + (rows % KEYS) + ")";
      s.executeUpdate(last);
      try (Statement o = h2.createStatement()) {
        o.executeUpdate(last);
      }
      awaitCount(s, rows + 1);
      assertMatchesOracle(s);
    }
  }

  private Path[] segments() throws Exception {
    try (Stream<Path> files = Files.list(dataDir.resolve("streams").resolve("EVENTS"))) {
      return files.filter(f -> f.getFileName().toString().startsWith("segment-"))
          .toArray(Path[]::new);
    }
  }

  private long[] segmentSizes() throws Exception {
    Path[] files = segments();
    long[] sizes = new long[files.length];
    for (int i = 0; i < files.length; i++) {
      sizes[i] = Files.size(files[i]);
    }
    return sizes;
  }

  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static void awaitCount(Statement s, long rows) throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    long seen = count(s);
    while (seen < rows) {
      if (System.nanoTime() > deadline) {
        fail("after " + DEADLINE + " the view counted " + seen + " rows, not " + rows);
      }
      ViewResults.betweenPolls();
      seen = count(s);
    }
  }

  private static long count(Statement s) throws SQLException {
    try (ResultSet r = s.executeQuery("SELECT COALESCE(SUM(c), 0) FROM totals")) {
      r.next();
      return r.getLong(1);
    }
  }

  /** Inserts rows {@code 0..rows-1} into the oracle, as they were INSERTed into the stream. */
  private void loadOracle(long rows) throws SQLException {
    try (PreparedStatement oracle = h2.prepareStatement("INSERT INTO events VALUES (?, ?)")) {
      for (long n = 0; n < rows; n++) {
        oracle.setLong(1, n);
        oracle.setInt(2, (int) (n % KEYS));
        oracle.addBatch();
        if (n % PER_STATEMENT == PER_STATEMENT - 1) {
          oracle.executeBatch();
        }
      }
      oracle.executeBatch();
    }
  }

  /** The view holds what H2's GROUP BY over every row inserted gives, row for row. */
  private void assertMatchesOracle(Statement s) throws SQLException {
    String query = "SELECT k, COUNT(*) AS c, SUM(n) AS s FROM events GROUP BY k ORDER BY k";
    List<List<Long>> expected = new ArrayList<>();
    try (Statement o = h2.createStatement(); ResultSet r = o.executeQuery(query)) {
      while (r.next()) {
        expected.add(List.of(r.getLong(1), r.getLong(2), r.getLong(3)));
      }
    }
    List<List<Long>> actual = new ArrayList<>();
    try (ResultSet r = s.executeQuery("SELECT k, c, s FROM totals ORDER BY k")) {
      while (r.next()) {
        actual.add(List.of(r.getLong(1), r.getLong(2), r.getLong(3)));
      }
    }
    assertEquals(Math.min(KEYS, expected.stream().mapToLong(e -> e.get(1)).sum()),
        actual.size(), "keys");
    assertEquals(expected, actual);
  }
}
