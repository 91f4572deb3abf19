package dev.freshet.benchmarks.jmh;

import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.DeltaFileStateStoreProvider;
import dev.freshet.executor.state.internals.MVStoreStateStoreProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One batch's work on one state partition: open the store at the last version, get and put
 * {@value #KEYS_PER_BATCH} keys (a (BIGINT key, COUNT, SUM) row each), commit. With the delta-file
 * provider the commit writes and fsyncs the version's delta file, so this is also the benchmark of
 * delta writing. The score is keys per second.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StateStoreBenchmark {
  static final int KEYS_PER_BATCH = 100_000;

  @Param({"delta-file", "mvstore"})
  public String provider;

  /** Keys in state: each batch updates {@value #KEYS_PER_BATCH} of them. */
  @Param({"1000000"})
  public int stateKeys;

  private Path directory;
  private StateStoreProvider<Object, Object[]> store;
  private long version;
  private long next;

  @Setup(Level.Trial)
  @SuppressWarnings("unchecked")
  public void setUp() throws IOException {
    directory = Files.createTempDirectory("freshet-jmh-");
    StateStoreSpec spec = StateStoreSpec.of(new StateStoreId("bench", 0, 0), directory);
    store = switch (provider) {
      case "delta-file" -> (StateStoreProvider<Object, Object[]>) (StateStoreProvider<?, ?>)
          new DeltaFileStateStoreProvider(spec);
      case "mvstore" -> new MVStoreStateStoreProvider<>(spec);
      default -> throw new IllegalArgumentException(provider);
    };
    StateStore<Object, Object[]> s = store.getStore(0);
    for (long k = 0; k < stateKeys; k++) {
      s.put(k, new Object[] {1L, k});
    }
    version = s.commit();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    store.close();
    try (var paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  @OperationsPerInvocation(KEYS_PER_BATCH)
  public long batch() {
    StateStore<Object, Object[]> s = store.getStore(version);
    for (int i = 0; i < KEYS_PER_BATCH; i++) {
      // Walks the key space so that successive batches touch different keys, as W2 does.
      long key = next++ % stateKeys;
      Object[] old = s.get(key);
      long count = old == null ? 1 : (Long) old[0] + 1;
      long sum = old == null ? key : (Long) old[1] + key;
      s.put(key, new Object[] {count, sum});
    }
    version = s.commit();
    return version;
  }
}
