package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.AbstractStateStoreProviderTest;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;

/**
 * Runs the state store contract against {@link MVStoreStateStoreProvider} with buffers of 1 KB: a
 * store applies its sorted writes to the data map every dozen writes, so reads find some writes
 * pending and some applied, and MVStore writes changed pages to the file every few writes, so
 * commit, abort and reopening all have to undo or skip such writes.
 */
class MVStoreStateStoreProviderContractTest extends AbstractStateStoreProviderTest {
  /**
   * 1 MB of cache and 1 KB buffers. With fsync on commit, MVStore reuses a chunk as soon as the
   * latest version no longer needs it, so aborts and reopening meet reused chunks.
   */
  static final MVStoreStateStoreProvider.Options SMALL =
      new MVStoreStateStoreProvider.Options(1, 1, 1, true);

  @Override protected <K, V> StateStoreProvider<K, V> newProvider(StateStoreSpec spec) {
    return new MVStoreStateStoreProvider<>(spec, SMALL);
  }

  /**
   * The latest version and, through the undo map, the one before it: MVStore cannot reliably roll
   * back past the last commit once it reused file space.
   */
  @Override protected int olderVersionsRetained() {
    return 1;
  }

  /** Not yet: MVStore read handles die at the next commit (views-from-state.md §2.3, §4.1). */
  @Override protected boolean pinsVersions() {
    return false;
  }
}
