package dev.freshet.executor.state.internals;

import dev.freshet.executor.operators.AggregateCall;
import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.executor.operators.ValueKind;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs {@code SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k} (UPDATE mode) over many distinct
 * BIGINT keys with {@link MVStoreStateStoreProvider}, in a JVM whose heap is far smaller than the
 * state would take on the heap; {@link MVStoreLargeStateTest} starts it with {@code -Xmx96m}.
 *
 * <p>Arguments: state directory, number of distinct keys {@code n}, rows per batch, state
 * partitions, and {@code r}, the number of rows of the batches that follow and revisit keys;
 * optionally the {@link MVStoreStateStoreProvider.Options} cache size (MB), write buffer (KB) and
 * page buffer (KB), which default to {@link MVStoreStateStoreProvider.Options#DEFAULT}'s. Row
 * {@code i < n} has key {@code i * 0x9E3779B97F4A7C15} (odd, so the keys are distinct and scattered
 * over the key space, the worst case for a B-tree) and value {@code i % 1000}; revisiting row
 * {@code j < r} has the key of row {@code (j * 7919) mod n} and value 1. Afterwards it reads the
 * last version of every partition through a cursor and prints
 * {@code RESULT keys=... numKeys=... countSum=... sumSum=... revisited=... outputRows=...}. Then,
 * as a restart after a kill between the state commit and the commit log would, it reads the
 * version before the last (through the provider's undo, without writing) and re-runs the last
 * batch from it (which applies the undo: one write per key the batch changed), reads the last
 * version again and prints {@code RERUN previousKeys=... previousCountSum=... keys=...
 * countSum=... sumSum=... revisited=...}; then timings and memory.
 */
public final class LargeStateMain {
  /** Odd, so that multiplying by it is a bijection of longs. */
  static final long SCRAMBLE = 0x9E3779B97F4A7C15L;
  /** A prime that does not divide the key counts used, so that revisited keys are distinct. */
  static final long STRIDE = 7919;

  private LargeStateMain() {
  }

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    long keys = Long.parseLong(args[1]);
    int batchRows = Integer.parseInt(args[2]);
    int partitions = Integer.parseInt(args[3]);
    long revisits = Long.parseLong(args[4]);
    MVStoreStateStoreProvider.Options defaults = MVStoreStateStoreProvider.Options.DEFAULT;
    MVStoreStateStoreProvider.Options options = new MVStoreStateStoreProvider.Options(
        args.length > 5 ? Integer.parseInt(args[5]) : defaults.cacheSizeMb(),
        args.length > 6 ? Integer.parseInt(args[6]) : defaults.writeBufferKb(),
        args.length > 7 ? Integer.parseInt(args[7]) : defaults.pageBufferKb(),
        defaults.syncOnCommit());
    System.out.println("options " + options);
    long start = System.nanoTime();

    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG)),
        OutputMode.UPDATE, partitions);
    List<MVStoreStateStoreProvider<Object, Object[]>> stores = new ArrayList<>();
    List<StateStoreProvider<Object, Object[]>> providers = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      MVStoreStateStoreProvider<Object, Object[]> provider = new MVStoreStateStoreProvider<>(
          new StateStoreSpec(new StateStoreId("large-state", 0, p), dir.resolve("state/0/" + p),
              StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, 2), options);
      stores.add(provider);
      providers.add(provider);
    }
    OutputCounter output = new OutputCounter();
    StatefulAggregateOperator operator = new StatefulAggregateOperator(spec, providers, output);

    long batchId = 0;
    long total = keys + revisits;
    long lastFirst = 0;
    for (long first = 0; first < total; first += batchRows) {
      runBatch(operator, batchId, first, Math.min(total, first + batchRows), keys);
      lastFirst = first;
      batchId++;
    }

    long verifyStart = System.nanoTime();
    Totals last = read(providers, batchId);
    long verifyMs = (System.nanoTime() - verifyStart) / 1_000_000;
    long outputRows = output.rows;

    long rerunStart = System.nanoTime();
    Totals previous = read(providers, batchId - 1);
    runBatch(operator, batchId - 1, lastFirst, total, keys);
    Totals rerun = read(providers, batchId);
    long rerunMs = (System.nanoTime() - rerunStart) / 1_000_000;
    for (StateStoreProvider<Object, Object[]> provider : providers) {
      provider.close();
    }
    long fileBytes = 0;
    for (MVStoreStateStoreProvider<Object, Object[]> s : stores) {
      fileBytes += Files.size(s.file());
    }
    System.out.printf("RESULT keys=%d numKeys=%d countSum=%d sumSum=%d revisited=%d"
        + " outputRows=%d%n", last.entries, last.numKeys, last.countSum, last.sumSum,
        last.revisited, outputRows);
    System.out.printf("RERUN previousKeys=%d previousCountSum=%d keys=%d countSum=%d sumSum=%d"
        + " revisited=%d%n", previous.entries, previous.countSum, rerun.entries, rerun.countSum,
        rerun.sumSum, rerun.revisited);
    System.out.printf("verify (cursor over every entry): %d ms; read the version before, re-run"
        + " the last batch and verify: %d ms; total %d ms; files %d MB; max heap %d MB; heap used"
        + " after batches at most %d MB; old gen peak %d MB; GC %s%n", verifyMs, rerunMs,
        (System.nanoTime() - start) / 1_000_000, fileBytes >> 20,
        Runtime.getRuntime().maxMemory() >> 20, maxUsedHeapMb, oldGenPeakMb(), gcSummary());
  }

  /** Runs batch {@code batchId} over rows {@code first..end - 1}. */
  private static void runBatch(StatefulAggregateOperator operator, long batchId, long first,
      long end, long keys) {
    long batchStart = System.nanoTime();
    BatchContext batch = new BatchContext(batchId, batchId);
    operator.startBatch(batch);
    Object[] row = new Object[2];
    for (long i = first; i < end; i++) {
      if (i < keys) {
        row[0] = i * SCRAMBLE;
        row[1] = i % 1000;
      } else {
        row[0] = Math.floorMod((i - keys) * STRIDE, keys) * SCRAMBLE;
        row[1] = 1L;
      }
      operator.push(row);
    }
    operator.finishBatch(batch);
    System.out.printf("batch %d: rows %d-%d, %d ms, state rows %d, heap used %d MB%n", batchId,
        first, end - 1, (System.nanoTime() - batchStart) / 1_000_000,
        operator.metrics().numTotalStateRows(), usedHeapMb());
  }

  /** Sums over version {@code version} of every partition, read through cursors. */
  private static Totals read(List<StateStoreProvider<Object, Object[]>> providers, long version) {
    Totals totals = new Totals();
    for (StateStoreProvider<Object, Object[]> provider : providers) {
      ReadStateStore<Object, Object[]> store = provider.getReadStore(version);
      totals.numKeys += store.numKeys();
      for (Map.Entry<Object, Object[]> e : store.entries()) {
        long count = (Long) e.getValue()[1];
        totals.entries++;
        totals.countSum += count;
        totals.sumSum += (Long) e.getValue()[2];
        if (count > 1) {
          totals.revisited++;
        }
      }
    }
    return totals;
  }

  /** What {@link #read} sums. */
  private static final class Totals {
    long entries;
    long numKeys;
    long countSum;
    long sumSum;
    long revisited;
  }

  private static long maxUsedHeapMb;

  private static long usedHeapMb() {
    Runtime r = Runtime.getRuntime();
    long used = (r.totalMemory() - r.freeMemory()) >> 20;
    maxUsedHeapMb = Math.max(maxUsedHeapMb, used);
    return used;
  }

  /** Peak of the pools that hold long-lived objects: what the heap really had to hold. */
  private static long oldGenPeakMb() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP
          && (pool.getName().contains("Old") || pool.getName().contains("Tenured"))) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak >> 20;
  }

  private static String gcSummary() {
    StringBuilder sb = new StringBuilder();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      sb.append(Stream.of(gc.getName(), gc.getCollectionCount() + "x",
          gc.getCollectionTime() + "ms").reduce((a, b) -> a + " " + b).orElseThrow()).append("; ");
    }
    return sb.toString();
  }

  /** Counts the rows the aggregation emits; keeps none of them. */
  private static final class OutputCounter implements Operator {
    long rows;

    @Override public void startBatch(BatchContext batch) {
    }

    @Override public void push(Object[] row) {
      rows++;
    }

    @Override public void finishBatch(BatchContext batch) {
    }
  }
}
