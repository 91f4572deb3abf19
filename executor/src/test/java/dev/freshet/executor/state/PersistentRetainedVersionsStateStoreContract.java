package dev.freshet.executor.state;

import static dev.freshet.executor.state.StateStoreContractChecks.assertState;
import static dev.freshet.executor.state.StateStoreContractChecks.commitVersions;
import static dev.freshet.executor.state.StateStoreContractChecks.toMap;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Contract of a provider that persists and keeps the versions {@code minVersionsToRetain} says
 * across a restart.
 */
public interface PersistentRetainedVersionsStateStoreContract
    extends PersistentRerunStateStoreContract, RetainedVersionsStateStoreContract {
  @Test default void shouldOpenRetainedVersionsWhenReopenedAfterRerunAndAbort() {
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<String, Integer> provider = provider(spec);
    List<Map<String, Integer>> states = commitVersions(provider, 5);

    provider = reopen(provider, spec);
    StateStore<String, Integer> v3 = provider.getStore(3);
    assertState(v3, states.get(3));
    v3.put("gone", 1);
    v3.abort();
    StateStore<String, Integer> v1 = provider.getStore(1);
    assertState(v1, states.get(1));
    v1.put("rerun", 1);
    assertEquals(2, v1.commit());

    provider = reopen(provider, spec);
    Map<String, Integer> expected = new HashMap<>(states.get(1));
    expected.put("rerun", 1);
    assertState(provider.getStore(2), expected);
    assertEquals(expected, toMap(provider.getReadStore(2).entries()));
  }
}
