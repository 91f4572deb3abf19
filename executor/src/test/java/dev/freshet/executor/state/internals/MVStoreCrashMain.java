package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import java.nio.file.Path;

/**
 * Commits versions 1 and 2 of a store, then writes version 3 without end, so that
 * {@link MVStoreStateStoreProviderTest} can kill it in the middle of a batch. Prints
 * {@code WRITING} once MVStore has written part of the unfinished batch to the file, then goes on
 * writing; exits with status 3 if it was not killed after a bounded number of writes.
 *
 * <p>Argument: the store directory. Version 1 holds {@code k0..k999 -> 1}, version 2 the same with
 * {@code k0 -> 2} and without {@code k999}.
 */
public final class MVStoreCrashMain {
  static final StateStoreId ID = new StateStoreId("crash", 0, 0);

  private MVStoreCrashMain() {
  }

  public static void main(String[] args) {
    StateStoreSpec spec = StateStoreSpec.of(ID, Path.of(args[0]));
    MVStoreStateStoreProvider<String, Long> provider = new MVStoreStateStoreProvider<>(spec);
    StateStore<String, Long> v0 = provider.getStore(0);
    for (int i = 0; i < 1000; i++) {
      v0.put("k" + i, 1L);
    }
    v0.commit();
    StateStore<String, Long> v1 = provider.getStore(1);
    v1.put("k0", 2L);
    v1.remove("k999");
    v1.commit();
    StateStore<String, Long> v2 = provider.getStore(2);
    long committed = provider.mvStoreVersion();
    boolean announced = false;
    for (long i = 0; i < 50_000_000L; i++) {
      v2.put("k" + (i % 2_000_000), -i);
      if (!announced && provider.mvStoreVersion() > committed + 2) {
        System.out.println("WRITING");
        System.out.flush();
        announced = true;
      }
    }
    System.exit(3);
  }
}
