package dev.freshet.executor.state;

import static dev.freshet.executor.state.StateStoreContractChecks.ID;
import static dev.freshet.executor.state.StateStoreContractChecks.assertState;
import static dev.freshet.executor.state.StateStoreContractChecks.toMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Contract of a provider that persists: one re-created on the same {@link StateStoreSpec} by
 * {@link #reopen} sees the last committed version and nothing uncommitted.
 */
public interface PersistentStateStoreContract extends StateStoreContract {
  @Test default void shouldSeeLastCommittedVersionWhenReopened() {
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<String, Integer> provider = provider(spec);
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.put("b", 2);
    v0.commit();
    StateStore<String, Integer> v1 = provider.getStore(1);
    v1.remove("a");
    v1.put("c", 3);
    v1.commit();

    StateStoreProvider<String, Integer> reopened = reopen(provider, spec);

    StateStore<String, Integer> v2 = reopened.getStore(2);
    assertState(v2, Map.of("b", 2, "c", 3));
    assertEquals(Map.of("b", 2, "c", 3), toMap(reopened.getReadStore(2).entries()));
    StateStoreException ahead =
        assertThrows(StateStoreException.class, () -> reopened.getReadStore(3));
    assertTrue(ahead.getMessage().startsWith("Cannot load version 3 of " + ID), ahead.getMessage());
    v2.put("d", 4);
    assertEquals(3, v2.commit());
    assertState(reopen(reopened, spec).getStore(3), Map.of("b", 2, "c", 3, "d", 4));
  }

  @Test default void shouldDropUncommittedChangesWhenClosedWithStoreOpen() {
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<String, Integer> provider = provider(spec);
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.commit();
    StateStore<String, Integer> v1 = provider.getStore(1);
    for (int i = 0; i < 2_000; i++) {
      v1.put("k" + i, i);
    }
    v1.remove("a");

    provider = reopen(provider, spec);

    assertState(provider.getStore(1), Map.of("a", 1));
    assertThrows(StateStoreException.class, () -> v1.put("x", 1));
  }
}
