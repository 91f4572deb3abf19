package dev.freshet.benchmarks.e2e;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.pgwire.PgServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Issue 34's live latency (workload PGCOPY, Freshet only): the time from an INSERT to psql
 * printing the view's changed row, psql running
 * {@code psql -c "COPY (SELECT STREAM * FROM v) TO STDOUT"} against the PostgreSQL endpoint.
 *
 * <p>The engine and the endpoint run in this JVM; psql 15 ({@code /usr/bin/psql}) is a child
 * process under {@code stdbuf -oL}, so that it writes each line as it prints it (psql writes
 * COPY's rows with stdio, which holds a pipe's output back). Each INSERT adds one row
 * {@code (i % 10, i)} to a stream; the view {@code v} keeps per key the count and the largest
 * {@code i}, so the line psql prints for INSERT {@code i} carries {@code i}. A latency is from
 * just before the INSERT (through the engine's session, in this JVM) to the moment this JVM
 * reads that line from psql's standard output: commit, the view's batch, the endpoint, psql's
 * parsing and printing, and the pipe. INSERTs are sequential: the next goes once the previous
 * row was printed. {@code warmupRows} INSERTs are not counted, then {@code measuredRows} are.
 */
final class PgCopyLatency {
  private static final Path PSQL = Path.of("/usr/bin/psql");

  private PgCopyLatency() {}

  static JsonLine run(Workload.Size size) throws Exception {
    if (!Files.isExecutable(PSQL)) {
      return new JsonLine().put("error", "psql is not installed: apt-get install"
          + " postgresql-client");
    }
    int warmup = (int) size.warmupRows();
    int measured = (int) size.measuredRows();
    int total = warmup + measured;
    AtomicLongArray printed = new AtomicLongArray(total + 1);
    try (Engine engine = new Engine("bench-pgcopy");
        PgServer server = PgServer.builder(engine).port(0).start()) {
      Session session = engine.openSession();
      session.execute("CREATE STREAM clicks (k INTEGER, n INTEGER)");
      session.execute("CREATE MATERIALIZED VIEW v AS SELECT k, COUNT(*) AS c, MAX(n) AS last"
          + " FROM clicks GROUP BY k");
      Process psql = new ProcessBuilder("stdbuf", "-oL", PSQL.toString(), "-X", "-h",
          "127.0.0.1", "-p", Integer.toString(server.port()), "-U", "freshet", "-d", "freshet",
          "-c", "COPY (SELECT STREAM * FROM v) TO STDOUT")
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      Thread reader = new Thread(() -> read(psql, printed), "psql-output");
      reader.setDaemon(true);
      reader.start();
      long[] nanos = new long[measured];
      try {
        for (int i = 1; i <= total; i++) {
          long start = System.nanoTime();
          session.execute("INSERT INTO clicks VALUES (" + (i % 10) + ", " + i + ")");
          long deadline = start + TimeUnit.SECONDS.toNanos(30);
          long at;
          while ((at = printed.get(i)) == 0) {
            if (System.nanoTime() > deadline || !psql.isAlive()) {
              return new JsonLine().put("error", "psql did not print INSERT " + i
                  + " within 30 s");
            }
            Thread.onSpinWait();
          }
          if (i > warmup) {
            nanos[i - warmup - 1] = at - start;
          }
        }
      } finally {
        psql.destroy();
        psql.waitFor(10, TimeUnit.SECONDS);
      }
      JsonLine line = new JsonLine().put("reader", "psql 15 COPY (SELECT STREAM * FROM v) TO"
          + " STDOUT under stdbuf -oL").put("target", "p99 <= 50 ms");
      new Latencies(nanos, measured).addTo(line);
      return line;
    }
  }

  /** Records when the line of each INSERT's row came: columns k, c, last, kind, version. */
  private static void read(Process psql, AtomicLongArray printed) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(psql.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        long now = System.nanoTime();
        List<String> fields = List.of(line.split("\t"));
        if (fields.size() == 5) {
          int i = Integer.parseInt(fields.get(2));
          if (i < printed.length() && printed.get(i) == 0) {
            printed.set(i, now);
          }
        }
      }
    } catch (Exception e) {
      // psql ended: the loop above notices.
    }
  }
}
