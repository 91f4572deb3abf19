package dev.freshet.benchmarks.e2e;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * W3 on Freshet: one row per INSERT at 1,000 rows/s, and a push query whose {@code next()} returns
 * each row's group; latency is from the INSERT's return (its commit) to that {@code next()}.
 *
 * <p>Row {@code i} is {@code (i % 1000, i)} and the query emits {@code MAX(i)} per key, so each
 * returned row names the INSERT it answers (a batch spans far less than 1,000 rows at this pace).
 * A row can come back before {@code executeUpdate} returns (remotely, the push fetch can beat the
 * INSERT's own response): that latency counts as zero. So that this does not flatter the remote
 * figure, {@link #fromSend} also measures from the moment the INSERT was sent.
 */
final class LatencyProbe {
  private static final long WARMUP_SECONDS = 3;

  private LatencyProbe() {}

  /** Latencies from commit, and from send, of the last run. */
  record Result(Latencies fromCommit, Latencies fromSend) {}

  static Result run(FreshetWorkloads.ConnectionFactory connections, int seconds)
      throws Exception {
    int total = (int) ((seconds + WARMUP_SECONDS) * 1000);
    long[] sent = new long[total];
    long[] committed = new long[total];
    long[] seen = new long[total];
    try (Connection writer = connections.open(); Connection reader = connections.open()) {
      try (Statement s = writer.createStatement()) {
        s.execute("CREATE STREAM lat (k BIGINT NOT NULL, i BIGINT NOT NULL)");
      }
      Statement query = reader.createStatement();
      ResultSet rs = query.executeQuery(
          "SELECT STREAM k, MAX(i) AS i FROM lat GROUP BY k EMIT UPDATE");
      Thread readerThread = new Thread(() -> read(rs, seen, total), "w3-reader");
      readerThread.setDaemon(true);
      readerThread.start();
      // A plain statement: the drivers do not take parameters in INSERT INTO a stream yet.
      try (Statement insert = writer.createStatement()) {
        long start = System.nanoTime();
        for (int i = 0; i < total; i++) {
          // Paced by the schedule, not by the previous INSERT, so a slow one is not hidden.
          long due = start + i * 1_000_000L;
          long wait = due - System.nanoTime();
          if (wait > 0) {
            LockSupport.parkNanos(wait);
          }
          sent[i] = System.nanoTime();
          insert.executeUpdate("INSERT INTO lat VALUES (" + (i % 1000) + ", " + i + ")");
          committed[i] = System.nanoTime();
        }
      }
      readerThread.join(TimeUnit.SECONDS.toMillis(10));
      query.cancel();
    }
    int from = (int) (WARMUP_SECONDS * 1000);
    long[] latencies = new long[total - from];
    long[] fromSend = new long[total - from];
    int n = 0;
    for (int i = from; i < total; i++) {
      if (seen[i] != 0) {
        fromSend[n] = seen[i] - sent[i];
        latencies[n++] = Math.max(0, seen[i] - committed[i]);
      }
    }
    return new Result(new Latencies(latencies, n), new Latencies(fromSend, n));
  }

  private static void read(ResultSet rs, long[] seen, int total) {
    try {
      while (rs.next()) {
        long now = System.nanoTime();
        int i = (int) rs.getLong(2);
        if (i >= 0 && i < total) {
          seen[i] = now;
          if (i == total - 1) {
            return;
          }
        }
      }
    } catch (Exception e) {
      // Cancelling the query at the end ends next() with an exception; the samples are taken.
    }
  }
}
