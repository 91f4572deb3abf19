package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import java.nio.file.Path;

/**
 * Commits versions 1 and 2 of a store, then re-runs batch 1 without end, so that
 * {@link MVStoreStateStoreProviderTest} can kill it while the provider applies the undo of version
 * 2 or while the re-run writes after it. Prints {@code APPLYING} just before it opens version 1
 * (which applies the undo: one write per key version 2 changed), {@code APPLIED} once that
 * returned, and {@code WRITING} once MVStore has written part of the re-run to the file; exits with
 * status 3 if it was not killed after a bounded number of writes.
 *
 * <p>Argument: the store directory. Versions 1 and 2 are {@link #version1} and {@link #version2}
 * of {@link #KEYS} keys, and the provider has {@link #OPTIONS}, so that MVStore writes to the file
 * early in applying the undo and many times before it ends.
 */
public final class MVStoreRerunCrashMain {
  static final StateStoreId ID = new StateStoreId("rerun-crash", 0, 0);
  static final int KEYS = 50_000;
  /** The default options, but MVStore writes every 64 KB of changed pages. */
  static final MVStoreStateStoreProvider.Options OPTIONS =
      new MVStoreStateStoreProvider.Options(4, 8 * 1024, 64, true);

  private MVStoreRerunCrashMain() {
  }

  /** Value of {@code "k" + i} in version 1: every key is there. */
  static Long version1(int i) {
    return (long) i;
  }

  /**
   * Value of {@code "k" + i} in version 2, or null if absent: every third key is removed, every
   * other changed, and keys {@code KEYS..KEYS * 3 / 2 - 1} are new.
   */
  static Long version2(int i) {
    if (i >= KEYS) {
      return i < KEYS * 3 / 2 ? -1L : null;
    }
    return i % 3 == 0 ? null : i * 2L;
  }

  public static void main(String[] args) {
    StateStoreSpec spec = StateStoreSpec.of(ID, Path.of(args[0]));
    MVStoreStateStoreProvider<String, Long> provider =
        new MVStoreStateStoreProvider<>(spec, OPTIONS);
    StateStore<String, Long> v0 = provider.getStore(0);
    for (int i = 0; i < KEYS; i++) {
      v0.put("k" + i, version1(i));
    }
    v0.commit();
    StateStore<String, Long> v1 = provider.getStore(1);
    for (int i = 0; i < KEYS * 3 / 2; i++) {
      Long value = version2(i);
      if (value == null) {
        v1.remove("k" + i);
      } else {
        v1.put("k" + i, value);
      }
    }
    v1.commit();
    System.out.println("APPLYING");
    System.out.flush();
    StateStore<String, Long> rerun = provider.getStore(1);
    System.out.println("APPLIED");
    System.out.flush();
    long applied = provider.mvStoreVersion();
    boolean announced = false;
    for (long i = 0; i < 50_000_000L; i++) {
      rerun.put("k" + (i % 2_000_000), -i);
      if (!announced && provider.mvStoreVersion() > applied + 2) {
        System.out.println("WRITING");
        System.out.flush();
        announced = true;
      }
    }
    System.exit(3);
  }
}
