package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.state.AbstractStateStoreProviderTest;
import dev.freshet.executor.state.NonPinningStateStoreContract;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import org.junit.jupiter.api.Test;

/**
 * Runs the state store contract against {@link InMemoryStateStoreProvider}, which neither persists
 * nor keeps versions older than the latest, and checks how it says so. It cannot pin a version:
 * it mutates its one version in place (docs/design/views-from-state.md §2.3).
 */
class InMemoryStateStoreProviderContractTest extends AbstractStateStoreProviderTest
    implements NonPinningStateStoreContract {
  @Override protected <K, V> StateStoreProvider<K, V> newProvider(StateStoreSpec spec) {
    return new InMemoryStateStoreProvider<>(spec.id());
  }

  @Test void shouldThrowNamingLatestVersionWhenOpeningOtherThanLatest() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStoreException ahead = assertThrows(StateStoreException.class, () -> provider.getStore(1));
    assertEquals("Cannot load version 1 of " + ID
        + ": this in-memory provider holds only the latest version, 0", ahead.getMessage());

    provider.getStore(0).commit();
    provider.getStore(1).commit();
    StateStoreException behind = assertThrows(StateStoreException.class, () -> provider.getStore(1));
    assertEquals("Cannot load version 1 of " + ID
        + ": this in-memory provider holds only the latest version, 2", behind.getMessage());
    StateStoreException read = assertThrows(StateStoreException.class,
        () -> provider.getReadStore(1));
    assertEquals(behind.getMessage(), read.getMessage());
    assertEquals(2, provider.getStore(2).version());
  }
}
