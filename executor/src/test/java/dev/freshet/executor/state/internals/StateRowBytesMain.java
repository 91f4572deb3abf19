package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures the heap that W2's state takes in {@link DeltaFileStateStoreProvider} (the
 * {@code memory} provider of a view with a data directory), without the engine and H2 around it:
 * {@code n} {@code Integer} keys ({@code n % keys} of a BIGINT is an INTEGER), each with the row
 * {@code {null, count, sum}} that the aggregation keeps, in {@code p} partitions; the live heap after
 * full GCs before and after, over the keys. Prints the figure after the first batch (every key new,
 * count 1), after a second batch that updates every key, and the maps' slots.
 *
 * <p>Arguments: keys (default 1,000,000), partitions (default 2). Run with the executor's test
 * classpath, e.g. {@code java -Xmx3g -cp executor/target/classes:executor/target/test-classes:$CP
 * dev.freshet.executor.state.internals.StateRowBytesMain 1000000 2}.
 */
public final class StateRowBytesMain {
  private StateRowBytesMain() {
  }

  public static void main(String[] args) throws Exception {
    int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    Path dir = Files.createTempDirectory("state-row-bytes");
    List<DeltaFileStateStoreProvider> providers = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      providers.add(new DeltaFileStateStoreProvider(new StateStoreSpec(
          new StateStoreId("w5", 0, p), dir.resolve("p" + p), 10, 2)));
    }
    long before = liveHeap();
    for (int batch = 0; batch < 2; batch++) {
      List<StateStore<Object, Object[]>> stores = new ArrayList<>();
      for (DeltaFileStateStoreProvider provider : providers) {
        stores.add(provider.getStore(batch));
      }
      for (int k = 0; k < keys; k++) {
        Integer key = k;
        StateStore<Object, Object[]> store = stores.get(Math.floorMod(k ^ (k >>> 16), partitions));
        Object[] old = store.get(key);
        long count = old == null ? 0 : (Long) old[1];
        long sum = old == null ? 0 : (Long) old[2];
        store.put(key, new Object[] {null, count + 1, sum + k + (long) batch * keys});
      }
      for (StateStore<Object, Object[]> store : stores) {
        store.commit();
      }
      long after = liveHeap();
      System.out.printf("batch %d: %.1f bytes per state row (%d keys, %d partitions, %.1f MB)%n",
          batch + 1, (after - before) / (double) keys, keys, partitions,
          (after - before) / 1048576.0);
      for (DeltaFileStateStoreProvider provider : providers) {
        describe(provider);
      }
    }
    for (DeltaFileStateStoreProvider provider : providers) {
      provider.close();
    }
  }

  private static void describe(DeltaFileStateStoreProvider provider) throws Exception {
    Field loadedField = DeltaFileStateStoreProvider.class.getDeclaredField("loaded");
    loadedField.setAccessible(true);
    java.util.TreeMap<?, ?> loaded = (java.util.TreeMap<?, ?>) loadedField.get(provider);
    for (java.util.Map.Entry<?, ?> e : loaded.entrySet()) {
      StringBuilder line = new StringBuilder("  version " + e.getKey() + ":");
      for (String name : new String[] {"base", "delta"}) {
        Field f = CommittedMap.class.getDeclaredField(name);
        f.setAccessible(true);
        ProbingMap map = (ProbingMap) f.get(e.getValue());
        line.append(String.format(" %s %d entries in %d slots (load %.2f, %d bytes a slot)",
            name, map.size(), map.capacity(), map.size() / (double) map.capacity(),
            map.bytesPerSlot()));
      }
      System.out.println(line);
    }
  }

  static long liveHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
