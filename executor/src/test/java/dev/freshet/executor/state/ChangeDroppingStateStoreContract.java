package dev.freshet.executor.state;

import static dev.freshet.executor.state.StateStoreContractChecks.ID;
import static dev.freshet.executor.state.StateStoreContractChecks.changes;
import static dev.freshet.executor.state.StateStoreContractChecks.commit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Contract of a pinning provider that drops, at maintenance, the changes of the versions
 * {@code minVersionsToRetain} no longer needs, and says so when they are read.
 */
public interface ChangeDroppingStateStoreContract extends PinningStateStoreContract {
  @Test default void shouldSayWhichChangesItNoLongerRetains() {
    StateStoreProvider<String, Integer> provider = provider(spec(2));
    for (long v = 0; v < 5; v++) {
      commit(provider, v, "k", (int) v + 1, "k" + v, (int) v);
    }
    provider.doMaintenance();
    long oldest = provider.oldestChangesVersion();

    assertEquals(Math.max(3, 5 - changesRetained()), oldest);
    StateStoreException e = assertThrows(StateStoreException.class,
        () -> provider.readChanges(oldest - 1, 5, (v, k, o, n) -> { }));
    assertEquals("The changes after version " + (oldest - 1) + " of " + ID + " are no longer"
        + " retained: the oldest version whose later changes are kept is " + oldest,
        e.getMessage());
    List<String> expected = new ArrayList<>();
    for (long v = oldest + 1; v <= 5; v++) {
      expected.add(v + " k " + (v - 1) + "->" + v);
      expected.add(v + " k" + (v - 1) + " null->" + (v - 1));
    }
    assertEquals(expected, changes(provider, oldest, 5));
  }
}
