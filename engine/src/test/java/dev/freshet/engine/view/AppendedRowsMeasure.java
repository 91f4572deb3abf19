package dev.freshet.engine.view;

import dev.freshet.engine.store.StoredColumnType;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Prints what {@link AppendedRows} costs a row: {@code addBatch} of batches of 100,000 rows of 4
 * columns {@code (window BIGINT, user VARCHAR, n BIGINT, total DOUBLE)} keyed by a {@code Long},
 * a full scan of 1,000,000 rows, and 200,000 gets of random keys among them; wall time and the
 * measuring thread's CPU time. Not a test: run it by hand, e.g.
 *
 * <pre>{@code
 * java -cp <engine test classpath> dev.freshet.engine.view.AppendedRowsMeasure /tmp/measure
 * }</pre>
 *
 * <p>Each round uses a new file (and a round in memory follows); the first round warms the JIT.
 */
public final class AppendedRowsMeasure {
  private static final StoredColumnType[] TYPES = {StoredColumnType.BIGINT,
      StoredColumnType.VARCHAR, StoredColumnType.BIGINT, StoredColumnType.DOUBLE};
  private static final int BATCH = 100_000;
  private static final int BATCHES = 10;
  private static final int GETS = 200_000;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private AppendedRowsMeasure() {
  }

  public static void main(String[] args) throws Exception {
    Path dir = Files.createDirectories(Path.of(args[0]));
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    for (int round = 0; round < rounds; round++) {
      measure("file, round " + round, dir.resolve("rows-" + round + ".mv.db"));
    }
    measure("memory", null);
  }

  private static void measure(String name, Path file) {
    System.out.println("== " + name);
    try (AppendedRows rows = AppendedRows.open(file, TYPES, true)) {
      long wall = 0;
      long cpu = 0;
      long gc = 0;
      for (int b = 0; b < BATCHES; b++) {
        List<Object[]> batch = new ArrayList<>(BATCH);
        List<Object> keys = new ArrayList<>(BATCH);
        for (long k = (long) b * BATCH; k < (long) (b + 1) * BATCH; k++) {
          batch.add(new Object[] {1_700_000_000_000L + k / 1000 * 60_000, "user-" + k % 10_000,
              k % 97, k * 0.25});
          keys.add(k);
        }
        long g = gcMillis();
        long w = System.nanoTime();
        long c = THREADS.getCurrentThreadCpuTime();
        rows.addBatch(b, batch, keys);
        wall += System.nanoTime() - w;
        cpu += THREADS.getCurrentThreadCpuTime() - c;
        gc += gcMillis() - g;
      }
      long n = (long) BATCH * BATCHES;
      print("addBatch, " + BATCHES + " x " + BATCH + " rows", wall, cpu, n);
      System.out.println("    of which GC (all threads): " + gc + " ms");

      AppendedRows.Snapshot s = rows.snapshot(rows.lastBatch());
      long w = System.nanoTime();
      long c = THREADS.getCurrentThreadCpuTime();
      long g = gcMillis();
      long count = 0;
      long sum = 0;
      for (Object[] r : s.rows()) {
        count++;
        sum += (Long) r[2];
      }
      print("full scan of " + count + " rows (checksum " + sum + ")", System.nanoTime() - w,
          THREADS.getCurrentThreadCpuTime() - c, count);
      System.out.println("    of which GC (all threads): " + (gcMillis() - g) + " ms");

      SplittableRandom random = new SplittableRandom(42);
      w = System.nanoTime();
      c = THREADS.getCurrentThreadCpuTime();
      g = gcMillis();
      long found = 0;
      for (int i = 0; i < GETS; i++) {
        if (s.get(random.nextLong(n)) != null) {
          found++;
        }
      }
      print(GETS + " random gets (" + found + " found)", System.nanoTime() - w,
          THREADS.getCurrentThreadCpuTime() - c, GETS);
      System.out.println("    of which GC (all threads): " + (gcMillis() - g) + " ms");
      if (file != null) {
        System.out.println("  file: " + Files.size(file) / (1024 * 1024) + " MB");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long gcMillis() {
    long millis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      millis += Math.max(0, gc.getCollectionTime());
    }
    return millis;
  }

  private static void print(String what, long wallNanos, long cpuNanos, long n) {
    System.out.printf("  %-45s wall %7.0f ms (%5.2f us/row), CPU %7.0f ms (%5.2f us/row)%n",
        what, wallNanos / 1e6, wallNanos / 1e3 / n, cpuNanos / 1e6, cpuNanos / 1e3 / n);
  }
}
