package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.PinnedStateStore;
import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import java.util.Map;

/**
 * A committed version held as an immutable {@link CommittedMap}: the read stores and pins of the
 * providers that keep versions so. Later commits build new maps beside it, so any number of
 * threads may read it while they happen. A pin reads until closed (or aborted); a read store's
 * abort releases nothing.
 *
 * <pre>{@code
 * ReadStateStore<Object, Object[]> read = CommittedMapVersion.readStore(id, 4, map);
 * PinnedStateStore<Object, Object[]> pinned = CommittedMapVersion.pin(id, 4, map);
 * }</pre>
 */
final class CommittedMapVersion implements PinnedStateStore<Object, Object[]> {
  private final StateStoreId id;
  private final long version;
  private final boolean pinned;
  /** Null once closed. */
  private volatile CommittedMap map;

  private CommittedMapVersion(StateStoreId id, long version, CommittedMap map, boolean pinned) {
    this.id = id;
    this.version = version;
    this.map = map;
    this.pinned = pinned;
  }

  /** A read store of {@code map}, version {@code version} of {@code id}. */
  static ReadStateStore<Object, Object[]> readStore(StateStoreId id, long version,
      CommittedMap map) {
    return new CommittedMapVersion(id, version, map, false);
  }

  /** A pin of {@code map}, version {@code version} of {@code id}. */
  static PinnedStateStore<Object, Object[]> pin(StateStoreId id, long version, CommittedMap map) {
    return new CommittedMapVersion(id, version, map, true);
  }

  private CommittedMap map() {
    CommittedMap m = map;
    if (m == null) {
      throw new StateStoreException("The pin of version " + version + " of " + id
          + " is closed");
    }
    return m;
  }

  @Override public StateStoreId id() {
    return id;
  }

  @Override public long version() {
    return version;
  }

  @Override public Object[] get(Object key) {
    return map().get(key);
  }

  @Override public Iterable<Map.Entry<Object, Object[]>> entries() {
    CommittedMap m = map();
    return m::iterator;
  }

  @Override public long numKeys() {
    return map().size();
  }

  @Override public void close() {
    map = null;
  }

  @Override public void abort() {
    if (pinned) {
      close();
    }
  }
}
