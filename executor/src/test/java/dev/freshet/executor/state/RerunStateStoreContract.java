package dev.freshet.executor.state;

import static dev.freshet.executor.state.StateStoreContractChecks.V1;
import static dev.freshet.executor.state.StateStoreContractChecks.V2;
import static dev.freshet.executor.state.StateStoreContractChecks.assertState;
import static dev.freshet.executor.state.StateStoreContractChecks.assertStateAndAbort;
import static dev.freshet.executor.state.StateStoreContractChecks.commitV1AndV2;
import static dev.freshet.executor.state.StateStoreContractChecks.toMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Contract of a provider that can open the version before the latest committed one, so that the
 * batch that committed the latest version can re-run after a crash (SEMANTICS.md §1).
 */
public interface RerunStateStoreContract extends StateStoreContract {
  /**
   * Exactly-once restart: batch 1 committed state version 2, then died before the checkpoint
   * recorded the batch, so the batch re-runs from version 1 and commits version 2 again.
   */
  @Test default void shouldReplaceLatestVersionWhenPreviousBatchIsRerun() {
    StateStoreProvider<String, Integer> provider = provider();
    commitV1AndV2(provider);

    StateStore<String, Integer> rerun = provider.getStore(1);
    assertEquals(1, rerun.version());
    assertState(rerun, V1);
    assertEquals(V1, toMap(provider.getReadStore(1).entries()));
    rerun.put("a", 11);
    rerun.remove("c");
    rerun.put("f", 6);
    assertEquals(2, rerun.commit());

    Map<String, Integer> rerunV2 = Map.of("a", 11, "b", 2, "d", 4, "f", 6);
    assertState(provider.getReadStore(2), rerunV2);
    assertStateAndAbort(provider.getStore(1), V1);
    StateStore<String, Integer> v2 = provider.getStore(2);
    assertState(v2, rerunV2);
    v2.put("g", 7);
    assertEquals(3, v2.commit());
    assertStateAndAbort(provider.getStore(2), rerunV2);
  }

  @Test default void shouldKeepLatestVersionWhenRerunOfPreviousBatchIsAborted() {
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<String, Integer> provider = provider(spec);
    commitV1AndV2(provider);

    StateStore<String, Integer> rerun = provider.getStore(1);
    rerun.put("a", 100);
    rerun.remove("d");
    rerun.abort();
    assertFalse(rerun.hasCommitted());

    assertState(provider.getReadStore(2), V2);
    StateStore<String, Integer> again = provider.getStore(1);
    assertState(again, V1);
    again.put("z", 26);
    again.abort();
    assertStateAndAbort(provider.getStore(2), V2);
    if (persistsAcrossInstances()) {
      provider = reopen(provider, spec);
      assertStateAndAbort(provider.getStore(2), V2);
    }
    assertStateAndAbort(provider.getStore(1), V1);
  }

  /** Spark's Restore reads version N while Save re-runs it, whichever opens first. */
  @Test default void shouldReadPreviousVersionWhenStoreRerunningItIsOpen() {
    StateStoreProvider<String, Integer> provider = provider();
    commitV1AndV2(provider);

    ReadStateStore<String, Integer> readFirst = provider.getReadStore(1);
    StateStore<String, Integer> writer = provider.getStore(1);
    ReadStateStore<String, Integer> readAfter = provider.getReadStore(1);
    writer.put("b", 200);
    writer.remove("a");
    writer.put("x", 9);
    assertState(readFirst, V1);
    assertState(readAfter, V1);
    assertState(provider.getReadStore(2), V2);
    assertState(writer, Map.of("b", 200, "c", 3, "d", 4, "x", 9));
    assertEquals(2, writer.commit());
    assertState(provider.getReadStore(2), Map.of("b", 200, "c", 3, "d", 4, "x", 9));
  }
}
