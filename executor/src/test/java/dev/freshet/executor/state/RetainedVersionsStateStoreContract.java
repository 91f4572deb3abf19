package dev.freshet.executor.state;

import static dev.freshet.executor.state.StateStoreContractChecks.assertState;
import static dev.freshet.executor.state.StateStoreContractChecks.commitVersions;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Contract of a provider that keeps as many versions before the latest as
 * {@code minVersionsToRetain} says, so that a batch further back can re-run.
 */
public interface RetainedVersionsStateStoreContract extends RerunStateStoreContract {
  @Test default void shouldReplaceLaterVersionsWhenOlderBatchIsRerun() {
    StateStoreProvider<String, Integer> provider = provider();
    List<Map<String, Integer>> states = commitVersions(provider, 4);

    StateStore<String, Integer> rerun = provider.getStore(2);
    assertState(rerun, states.get(2));
    rerun.put("rerun", 1);
    assertEquals(3, rerun.commit());

    Map<String, Integer> expected = new HashMap<>(states.get(2));
    expected.put("rerun", 1);
    assertState(provider.getStore(3), expected);
  }

  @Test default void shouldKeepRetainedVersionsLoadableWhenMaintained() {
    int retain = 3;
    StateStoreProvider<String, Integer> provider = provider(spec(retain));
    List<Map<String, Integer>> states = commitVersions(provider, 12);

    provider.doMaintenance();

    // Newest first: opening an older version for update may discard the newer ones.
    for (int v = 12; v >= 12 - retain; v--) {
      StateStore<String, Integer> store = provider.getStore(v);
      assertState(store, states.get(v));
      store.abort();
    }
  }
}
