package dev.freshet.benchmarks.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * SOAK (issue 32, acceptance 1): rows inserted by JDBC in 1,000-row statements into a durable
 * stream, through a {@code GROUP BY} view, in a JVM of {@code -Xmx512m}: the heap after a full GC
 * at the end against its value after the first tenth, the stream's files bounded by its
 * {@code 'retention'}, the view exact (a closed form), and then a restart in a new JVM timed
 * from the first connection until the view answers exactly.
 *
 * <p>Each phase is a JVM of its own, started by {@link #run}: {@code insert} ends with
 * {@code System.exit}, engine open (as a crash would leave it), and {@code restart} opens the
 * same data directory.
 *
 * <pre>
 * java -cp CP dev.freshet.benchmarks.e2e.Soak run 100000000 1000   # both phases, -Xmx512m each
 * Harness --workloads SOAK --engines freshet                     # the same, from the harness
 * </pre>
 *
 * <p>It needs only the JDBC driver and {@link JsonLine} on the class path (no JMH or plotting),
 * so it also runs from the jdbc-driver module's class path.
 */
final class Soak {
  /** Keys of the view: {@code k = n % KEYS}. */
  static final int KEYS = 1_000;
  /** The heap of each phase's JVM, as issue 32 asks. */
  static final String HEAP = "-Xmx512m";
  private static final String STREAM = "CREATE STREAM IF NOT EXISTS events"
      + " (n BIGINT NOT NULL, k INTEGER NOT NULL) WITH ('retention' = '0',"
      + " 'segment.size' = '16 MB', 'memory.max' = '16 MB')";
  private static final String VIEW = "CREATE MATERIALIZED VIEW IF NOT EXISTS totals AS"
      + " SELECT k, COUNT(*) AS c, SUM(n) AS s FROM events GROUP BY k";

  private Soak() {
  }

  /** Runs both phases, each in a JVM of {@link #HEAP}, and returns their figures together. */
  static JsonLine run(Workload.Size size) throws Exception {
    return run(size.totalRows(), (int) size.rowsPerBatch());
  }

  private static JsonLine run(long rows, int perStatement) throws Exception {
    Path dataDir = Files.createTempDirectory("freshet-soak-");
    try {
      JsonLine insert = runPhase("insert", dataDir, rows, perStatement);
      JsonLine restart = runPhase("restart", dataDir, rows, perStatement);
      for (String key : restart.keys()) {
        insert.put(key, restart.get(key));
      }
      return insert;
    } finally {
      deleteQuietly(dataDir);
    }
  }

  /** Runs a phase in a child JVM, its output passed through; its result line parsed. */
  private static JsonLine runPhase(String phase, Path dataDir, long rows, int perStatement)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP, "-cp",
        System.getProperty("java.class.path"), Soak.class.getName(), phase, dataDir.toString(),
        Long.toString(rows), Integer.toString(perStatement)));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String result = null;
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith(JsonLine.RESULT_PREFIX)) {
          result = line.substring(JsonLine.RESULT_PREFIX.length());
        } else {
          System.err.println(line);
        }
      }
    }
    int exit = process.waitFor();
    if (result == null) {
      return new JsonLine().put("error", phase + ": exit " + exit + ", no result");
    }
    return JsonLine.parse(result);
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A temp directory left behind is harmless.
    }
  }

  /**
   * {@code run rows rowsPerStatement}: both phases, printing the result line; or one phase,
   * {@code insert|restart dataDir rows rowsPerStatement}.
   */
  public static void main(String[] args) throws Exception {
    if (args[0].equals("run")) {
      JsonLine result = run(Long.parseLong(args[1]), Integer.parseInt(args[2]));
      System.out.println(JsonLine.RESULT_PREFIX + result.put("engine", "freshet")
          .put("workload", "SOAK"));
      return;
    }
    Path dataDir = Path.of(args[1]);
    long rows = Long.parseLong(args[2]);
    int perStatement = Integer.parseInt(args[3]);
    JsonLine result = args[0].equals("insert") ? insert(dataDir, rows, perStatement)
        : restart(dataDir, rows);
    System.out.println(JsonLine.RESULT_PREFIX + result);
    System.out.flush();
    // Without closing the engine: the restart finds the directory as a crash leaves it.
    Runtime.getRuntime().halt(0);
  }

  private static JsonLine insert(Path dataDir, long rows, int perStatement) throws Exception {
    JsonLine line = new JsonLine();
    long started = System.nanoTime();
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute(STREAM);
      s.execute(VIEW);
      StringBuilder sql = new StringBuilder("INSERT INTO events VALUES ");
      for (int i = 0; i < perStatement; i++) {
        sql.append(i == 0 ? "(?, ?)" : ", (?, ?)");
      }
      long tenth = rows / 10;
      long heapAtTenth = -1;
      long maxSegments = 0;
      long maxStreamBytes = 0;
      try (PreparedStatement insert = c.prepareStatement(sql.toString())) {
        for (long n = 0; n < rows; n += perStatement) {
          for (int i = 0; i < perStatement; i++) {
            insert.setLong(2 * i + 1, n + i);
            insert.setInt(2 * i + 2, (int) ((n + i) % KEYS));
          }
          insert.executeUpdate();
          long done = n + perStatement;
          if (done % (rows / 100) == 0) {
            long[] files = streamFiles(dataDir);
            maxSegments = Math.max(maxSegments, files[0]);
            maxStreamBytes = Math.max(maxStreamBytes, files[1]);
            if (done % (rows / 10) == 0) {
              System.err.printf("SOAK: %,d rows in %.0f s, %d segments, %,d bytes%n", done,
                  (System.nanoTime() - started) / 1e9, files[0], files[1]);
            }
          }
          if (done == tenth) {
            awaitCount(s, done, 600);
            heapAtTenth = heapAfterGc();
          }
        }
      }
      double insertSeconds = (System.nanoTime() - started) / 1e9;
      awaitCount(s, rows, 1800);
      long heapAtEnd = heapAfterGc();
      long[] files = streamFiles(dataDir);
      line.put("rows", rows).put("rows_per_statement", perStatement)
          .put("insert_s", insertSeconds).put("rows_per_s", rows / insertSeconds)
          .put("heap_after_gc_at_tenth_bytes", heapAtTenth)
          .put("heap_after_gc_at_end_bytes", heapAtEnd)
          .put("heap_end_over_tenth", (double) heapAtEnd / heapAtTenth)
          .put("max_heap_bytes", Runtime.getRuntime().maxMemory())
          .put("stream_segments_max", maxSegments).put("stream_bytes_max", maxStreamBytes)
          .put("stream_segments_end", files[0]).put("stream_bytes_end", files[1])
          .put("view_exact", exact(s, rows) ? "yes" : "no");
    }
    return line;
  }

  private static JsonLine restart(Path dataDir, long rows) throws Exception {
    // The JVM's own cold start (class loading, Calcite's first plans) on an empty directory
    // first, reported apart: what grows with the stream's history is the restart after it.
    Path scratch = Files.createTempDirectory("freshet-soak-cold-");
    long coldStarted = System.nanoTime();
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + scratch);
         Statement s = c.createStatement()) {
      s.execute(STREAM);
      s.execute(VIEW);
      s.executeUpdate("INSERT INTO events VALUES (0, 0)");
      awaitCount(s, 1, 60);
      exact(s, 1);
    }
    double coldSeconds = (System.nanoTime() - coldStarted) / 1e9;
    long started = System.nanoTime();
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute(STREAM);
      s.execute(VIEW);
      boolean exact = exact(s, rows);
      double readySeconds = (System.nanoTime() - started) / 1e9;
      // And it takes rows again: the stream's offsets continue.
      s.executeUpdate("INSERT INTO events VALUES (" + rows + ", " + (rows % KEYS) + ")");
      awaitCount(s, rows + 1, 60);
      return new JsonLine().put("cold_jvm_engine_start_s", coldSeconds)
          .put("restart_ready_s", readySeconds)
          .put("restart_view_exact", exact ? "yes" : "no");
    }
  }

  /** The stream's segment files: how many, and their bytes. */
  private static long[] streamFiles(Path dataDir) throws IOException {
    long count = 0;
    long bytes = 0;
    try (Stream<Path> files = Files.list(dataDir.resolve("streams").resolve("EVENTS"))) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (f.getFileName().toString().startsWith("segment-")) {
          count++;
          bytes += Files.size(f);
        }
      }
    }
    return new long[] {count, bytes};
  }

  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Waits until the view has counted {@code rows} rows. */
  private static void awaitCount(Statement s, long rows, int seconds) throws Exception {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (count(s) < rows) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the view did not count " + rows + " rows in "
            + seconds + " s: " + count(s));
      }
      Thread.sleep(20);
    }
  }

  private static long count(Statement s) throws SQLException {
    try (ResultSet r = s.executeQuery("SELECT COALESCE(SUM(c), 0) FROM totals")) {
      r.next();
      return r.getLong(1);
    }
  }

  /** Whether every key's count and sum are those of rows {@code 0..rows-1}, {@code k = n % KEYS}. */
  static boolean exact(Statement s, long rows) throws SQLException {
    int seen = 0;
    try (ResultSet r = s.executeQuery("SELECT k, c, s FROM totals")) {
      while (r.next()) {
        int k = r.getInt(1);
        // n = k + KEYS * j for j = 0 .. count - 1.
        long count = rows / KEYS + (k < rows % KEYS ? 1 : 0);
        long sum = count * k + (long) KEYS * (count * (count - 1) / 2);
        if (r.getLong(2) != count || r.getLong(3) != sum) {
          System.err.printf("SOAK: key %d has count %d sum %d, expected %d and %d%n", k,
              r.getLong(2), r.getLong(3), count, sum);
          return false;
        }
        seen++;
      }
    }
    return seen == Math.min(KEYS, rows);
  }
}
