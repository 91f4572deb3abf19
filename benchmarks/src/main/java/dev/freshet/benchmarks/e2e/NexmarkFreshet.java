package dev.freshet.benchmarks.e2e;

import dev.freshet.connectors.nexmark.NexmarkEventType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs Nexmark queries on Freshet through its JDBC driver, one after the other in this JVM, each
 * as a materialized view in a data directory of its own (checkpointing on, as the other
 * workloads), over {@code connector = 'nexmark'} streams; prints a result line per query.
 *
 * <p>Usage: {@code NexmarkFreshet maxEvents bidsPerBatch q0 q1 ...}
 */
public final class NexmarkFreshet {
  private NexmarkFreshet() {}

  public static void main(String[] args) throws Exception {
    long maxEvents = Long.parseLong(args[0]);
    long bidsPerBatch = Long.parseLong(args[1]);
    List<String> names = List.of(args).subList(2, args.length);
    for (NexmarkQuery query : NexmarkQuery.all()) {
      if (!names.contains(query.name())) {
        continue;
      }
      JsonLine line;
      try {
        line = run(query, maxEvents, bidsPerBatch);
      } catch (SQLException | RuntimeException e) {
        line = new JsonLine().put("error", (e instanceof SQLException s ? s.getSQLState() + " "
            : "") + e.getMessage());
      }
      System.out.println(JsonLine.RESULT_PREFIX + line.put("engine", "freshet")
          .put("workload", "NEXMARK").put("query", query.name()).put("events", maxEvents));
      System.out.flush();
    }
    // The engines' threads are not daemons; the JVM ends with the last query.
    System.exit(0);
  }

  static JsonLine run(NexmarkQuery query, long maxEvents, long bidsPerBatch) throws Exception {
    Path dataDir = Files.createTempDirectory("freshet-nexmark-");
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      long rows = 0;
      for (String type : query.streams().keySet()) {
        s.execute(query.freshetStream(type, maxEvents, bidsPerBatch));
        rows += NexmarkEventType.named(type).orElseThrow().countBefore(maxEvents);
      }
      long start = System.nanoTime();
      try {
        s.execute("CREATE MATERIALIZED VIEW v AS " + query.freshet() + " EMIT " + query.mode());
        boolean complete = FreshetWorkloads.awaitRows(s, rows, FreshetWorkloads.DEADLINE_SECONDS);
        double wallSeconds = (System.nanoTime() - start) / 1e9;
        JsonLine line = batches(s).put("wall_s", wallSeconds).put("complete", complete ? "yes"
            : "no");
        return line.put("digest", stableDigest(s, query));
      } finally {
        s.execute("DROP MATERIALIZED VIEW IF EXISTS v");
        for (String type : query.streams().keySet()) {
          s.execute("DROP STREAM IF EXISTS " + type);
        }
      }
    } finally {
      FreshetWorkloads.deleteQuietly(dataDir);
    }
  }

  /** Input rows over the summed durations of the batches that read any. */
  private static JsonLine batches(Statement s) throws SQLException {
    long rows = 0;
    long millis = 0;
    int batches = 0;
    try (ResultSet rs = s.executeQuery("SELECT NUM_INPUT_ROWS, DURATION_MS"
        + " FROM sys.query_progress WHERE NAME = 'V' ORDER BY BATCH_ID")) {
      while (rs.next()) {
        if (rs.getLong(1) > 0) {
          rows += rs.getLong(1);
          millis += rs.getLong(2);
          batches++;
        }
      }
    }
    return new JsonLine().put("rows", rows).put("batches", (long) batches)
        .put("rows_per_s", millis == 0 ? Double.NaN : rows * 1000.0 / millis);
  }

  /**
   * The digest once it stops changing: after the last input batch a batch without data may still
   * close windows that the final watermark passes.
   */
  private static String stableDigest(Statement s, NexmarkQuery query) throws SQLException {
    String previous = digest(s, query);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
      String now = digest(s, query);
      if (now.equals(previous)) {
        return now;
      }
      previous = now;
    }
    return previous;
  }

  private static String digest(Statement s, NexmarkQuery query) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT " + query.digest() + " FROM v")) {
      rs.next();
      List<String> values = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        values.add(normalized(rs.getObject(i)));
      }
      return String.join(" ", values);
    }
  }

  /** A number as its plain decimal text without trailing zeros, so both engines' types agree. */
  static String normalized(Object value) {
    if (value == null) {
      return "0";
    }
    return new BigDecimal(value.toString()).stripTrailingZeros().toPlainString();
  }
}
