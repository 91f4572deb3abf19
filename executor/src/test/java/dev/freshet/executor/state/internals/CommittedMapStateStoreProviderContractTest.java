package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.state.AbstractStateStoreProviderTest;
import dev.freshet.executor.state.ChangeDroppingStateStoreContract;
import dev.freshet.executor.state.RetainedVersionsStateStoreContract;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the state store contract against {@link CommittedMapStateStoreProvider}, which keeps its
 * versions in memory only, and the last {@code minVersionsToRetain} of them.
 */
class CommittedMapStateStoreProviderContractTest extends AbstractStateStoreProviderTest
    implements ChangeDroppingStateStoreContract, RetainedVersionsStateStoreContract {
  @Override protected <K, V> StateStoreProvider<K, V> newProvider(StateStoreSpec spec) {
    return new OneColumnRowStores.OneColumnRows<>(new CommittedMapStateStoreProvider(spec));
  }

  /**
   * With 2 versions retained, version 5 keeps versions 3 to 5: version 2 can be neither opened nor
   * pinned, nor can the changes after it be read; a re-run of batch 3 keeps what it had.
   */
  @Test void shouldKeepTheLastVersionsMinVersionsToRetainSays() {
    StateStoreProvider<String, Integer> provider = provider(spec(2));
    for (long v = 0; v < 5; v++) {
      StateStore<String, Integer> store = provider.getStore(v);
      store.put("k", (int) v + 1);
      store.commit();
    }

    assertEquals("Cannot load version 2 of " + ID + ": this provider keeps the 2 versions before"
        + " the latest, 5; the oldest it holds is 3",
        assertThrows(StateStoreException.class, () -> provider.getStore(2)).getMessage());
    assertEquals("Version 2 of " + ID + " is no longer retained: the oldest version kept is 3",
        assertThrows(StateStoreException.class, () -> provider.pin(2)).getMessage());
    assertEquals(Integer.valueOf(3), provider.pin(3).get("k"));
    assertEquals(Integer.valueOf(3), provider.getReadStore(3).get("k"));

    StateStore<String, Integer> rerun = provider.getStore(3);
    rerun.put("k", 40);
    assertEquals(4, rerun.commit());
    assertEquals(3, provider.oldestChangesVersion());
    List<String> read = new ArrayList<>();
    provider.readChanges(3, 4, (v, k, o, n) -> read.add(v + " " + k + " " + o + "->" + n));
    assertEquals(List.of("4 k 3->40"), read);
    assertThrows(StateStoreException.class, () -> provider.pin(5));
  }
}
