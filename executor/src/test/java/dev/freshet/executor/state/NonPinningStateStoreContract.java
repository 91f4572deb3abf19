package dev.freshet.executor.state;

import static dev.freshet.executor.state.StateStoreContractChecks.ID;
import static dev.freshet.executor.state.StateStoreContractChecks.commitV1AndV2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Contract of a provider that cannot pin a version (it mutates its one version in place): it says
 * so with an {@link UnsupportedOperationException}.
 */
public interface NonPinningStateStoreContract extends StateStoreContract {
  @Test default void shouldSayWhenItCannotPinAVersion() {
    StateStoreProvider<String, Integer> provider = provider();
    commitV1AndV2(provider);
    UnsupportedOperationException e =
        assertThrows(UnsupportedOperationException.class, () -> provider.pin(2));
    assertEquals(provider.getClass().getSimpleName() + " of " + ID + " cannot pin a version;"
        + " use the memory (DeltaFile) state store provider", e.getMessage());
    assertThrows(UnsupportedOperationException.class,
        () -> provider.readChanges(1, 2, (v, k, o, n) -> { }));
  }
}
