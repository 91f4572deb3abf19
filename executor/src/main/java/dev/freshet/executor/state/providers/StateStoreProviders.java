package dev.freshet.executor.state.providers;

import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreProviderFactory;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.CommittedMapStateStoreProvider;
import dev.freshet.executor.state.internals.DeltaFileStateStoreProvider;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import dev.freshet.executor.state.internals.MVStoreStateStoreProvider;
import java.nio.file.Path;

/**
 * The state store providers the executor offers, as factories and providers of the public state
 * API ({@link StateStoreProviderFactory}, {@link StateStoreProvider}): the engine and the planner
 * choose one here and never name a class of {@code executor.state.internals}, so that the
 * providers may change inside without them. In a package of its own because
 * {@code executor.state} is what the internals implement: naming them there would make a cycle.
 *
 * <pre>{@code
 * StateStoreProviderFactory stores = checkpoint == null
 *     ? StateStoreProviders.inMemory()
 *     : id -> StateStoreProviders.mvStore(spec(checkpoint, id));
 * }</pre>
 */
public final class StateStoreProviders {
  private StateStoreProviders() {
  }

  /**
   * State in the heap, nothing on disk, only the latest committed version loadable: a push
   * query's, or a plan's in a test.
   */
  public static StateStoreProviderFactory inMemory() {
    return InMemoryStateStoreProvider::new;
  }

  /**
   * State in the heap with {@code minVersionsToRetain} committed versions readable and their
   * changes kept, for readers and subscribers who resume; nothing on disk.
   */
  public static StateStoreProviderFactory committedMap(int minVersionsToRetain) {
    return id -> new CommittedMapStateStoreProvider(new StateStoreSpec(id, Path.of("memory"),
        StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, minVersionsToRetain));
  }

  /**
   * State in one H2 MVStore file under {@code spec.directory()}, larger than the heap; it keeps
   * the latest version and the one before.
   */
  public static StateStoreProvider<Object, Object[]> mvStore(StateStoreSpec spec) {
    return new MVStoreStateStoreProvider<>(spec);
  }

  /**
   * State in the heap, checkpointed as delta and snapshot files under {@code spec.directory()}
   * (Spark's HDFS-backed provider); register it for maintenance, which writes the snapshots and
   * deletes old files.
   */
  public static StateStoreProvider<Object, Object[]> deltaFile(StateStoreSpec spec) {
    return new DeltaFileStateStoreProvider(spec);
  }
}
