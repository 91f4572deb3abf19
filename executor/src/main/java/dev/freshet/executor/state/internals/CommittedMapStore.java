package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import java.util.Map;

/**
 * A writable store of the providers that keep versions as {@link CommittedMap}s: edits over the
 * immutable version it was opened at; after {@code commit} it reads the new version, after
 * {@code abort} the one it was opened at. Subclasses make changes durable (or not) and publish the
 * new version.
 *
 * <pre>{@code
 * // in commit(): checkUpdating(); ... CommittedMap next = edits.commit(); committed(next);
 * }</pre>
 */
abstract class CommittedMapStore implements StateStore<Object, Object[]> {
  private final StateStoreId id;
  final long version;
  private CommittedMap map;
  /** The changes, until committed or aborted; null afterwards. */
  CommittedMap.Edits edits;
  private boolean committedFlag;

  CommittedMapStore(StateStoreId id, long version, CommittedMap map) {
    this.id = id;
    this.version = version;
    this.map = map;
    this.edits = new CommittedMap.Edits(map);
  }

  @Override public final StateStoreId id() {
    return id;
  }

  @Override public final long version() {
    return version;
  }

  @Override public final Object[] get(Object key) {
    return edits != null ? edits.get(key) : map.get(key);
  }

  @Override public final Iterable<Map.Entry<Object, Object[]>> entries() {
    return () -> edits != null ? edits.iterator() : map.iterator();
  }

  @Override public final long numKeys() {
    return edits != null ? edits.size() : map.size();
  }

  @Override public final boolean hasCommitted() {
    return committedFlag;
  }

  /** Whether neither committed nor aborted yet. */
  final boolean isUpdating() {
    return edits != null;
  }

  /** Records that {@code next} is the committed version this store reads from now on. */
  final void committed(CommittedMap next) {
    map = next;
    edits = null;
    committedFlag = true;
  }

  /** Ends the store without committing; whether it was still updating. */
  final boolean aborted() {
    boolean was = edits != null;
    edits = null;
    return was;
  }

  final void checkUpdating() {
    if (edits == null) {
      throw new StateStoreException("Version " + version + " of " + id + " was already "
          + (committedFlag ? "committed" : "aborted"));
    }
  }
}
