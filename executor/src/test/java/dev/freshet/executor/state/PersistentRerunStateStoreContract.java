package dev.freshet.executor.state;

import static dev.freshet.executor.state.StateStoreContractChecks.V1;
import static dev.freshet.executor.state.StateStoreContractChecks.V2;
import static dev.freshet.executor.state.StateStoreContractChecks.assertState;
import static dev.freshet.executor.state.StateStoreContractChecks.assertStateAndAbort;
import static dev.freshet.executor.state.StateStoreContractChecks.commitV1AndV2;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Contract of a provider that persists and can re-run the previous batch after a restart. */
public interface PersistentRerunStateStoreContract
    extends PersistentStateStoreContract, RerunStateStoreContract {
  @Test default void shouldReplaceLatestVersionWhenPreviousBatchIsRerunAfterReopen() {
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<String, Integer> provider = provider(spec);
    commitV1AndV2(provider);

    provider = reopen(provider, spec);
    assertState(provider.getReadStore(1), V1);
    assertState(provider.getReadStore(2), V2);
    StateStore<String, Integer> rerun = provider.getStore(1);
    assertState(rerun, V1);
    rerun.remove("a");
    rerun.put("b", 20);
    assertEquals(2, rerun.commit());

    provider = reopen(provider, spec);
    Map<String, Integer> rerunV2 = Map.of("b", 20, "c", 3, "d", 4);
    assertStateAndAbort(provider.getStore(2), rerunV2);
    assertState(provider.getReadStore(1), V1);
    assertStateAndAbort(provider.getStore(1), V1);
  }
}
