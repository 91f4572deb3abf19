package dev.freshet.executor.state.internals;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * State store provider that keeps the latest committed version in a hash map and nothing on disk.
 *
 * <p>A writable store collects its changes in an overlay; {@code commit} folds the overlay into the
 * committed map, so memory holds one copy of the state whatever the number of batches, and
 * {@code abort} drops the overlay, leaving the committed version untouched. Only the latest version
 * can be opened: a query that must re-run an older batch needs a provider with a change log.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class InMemoryStateStoreProvider<K, V>
    implements dev.freshet.executor.state.StateStoreProvider<K, V> {
  /** Marks a key removed in an overlay. */
  private static final Object TOMBSTONE = new Object();

  private final StateStoreId id;
  private final HashMap<K, V> committed = new HashMap<>();
  /** Version of {@link #committed}; 0 is the empty state. */
  private long committedVersion;
  /** The store currently open for update, or null; at most one at a time. */
  private Store openStore;
  private boolean closed;

  public InMemoryStateStoreProvider(StateStoreId id) {
    this.id = requireNonNull(id, "id");
  }

  @Override public StateStoreId id() {
    return id;
  }

  @Override public StateStore<K, V> getStore(long version) {
    checkVersion(version);
    if (openStore != null && !openStore.closed) {
      throw new StateStoreException("Version " + version + " of " + id
          + " is already open for update; commit or abort it first");
    }
    openStore = new Store(version);
    return openStore;
  }

  @Override public ReadStateStore<K, V> getReadStore(long version) {
    checkVersion(version);
    return new ReadStore(version);
  }

  /** {@inheritDoc} On the batch thread only: the version is not published to other threads. */
  @Override public long latestCommittedVersion() {
    return committedVersion;
  }

  private void checkVersion(long version) {
    if (closed) {
      throw new StateStoreException(id + " is closed");
    }
    if (version != committedVersion) {
      throw StateStoreException.cannotLoad(id, version,
          "this in-memory provider holds only the latest version, " + committedVersion);
    }
  }

  @Override public void close() {
    closed = true;
    committed.clear();
  }

  /**
   * Read-only view of the committed version; valid until the next commit, which is how the batch
   * that opened it uses it.
   */
  private final class ReadStore implements ReadStateStore<K, V> {
    private final long version;

    ReadStore(long version) {
      this.version = version;
    }

    @Override public StateStoreId id() {
      return id;
    }

    @Override public long version() {
      return version;
    }

    @Override public V get(K key) {
      return committed.get(key);
    }

    @Override public Iterable<Map.Entry<K, V>> entries() {
      List<Map.Entry<K, V>> result = new ArrayList<>(committed.size());
      for (Map.Entry<K, V> e : committed.entrySet()) {
        result.add(new AbstractMap.SimpleImmutableEntry<>(e));
      }
      return result;
    }

    @Override public long numKeys() {
      return committed.size();
    }

    @Override public void abort() {
    }
  }

  /** Writable view: the committed map plus an overlay of this batch's changes. */
  private final class Store implements StateStore<K, V> {
    private final long version;
    private final HashMap<K, Object> overlay = new HashMap<>();
    private long numKeys = committed.size();
    private boolean closed;
    private boolean committedFlag;

    Store(long version) {
      this.version = version;
    }

    @Override public StateStoreId id() {
      return id;
    }

    @Override public long version() {
      return version;
    }

    @SuppressWarnings("unchecked")
    @Override public V get(K key) {
      Object v = overlay.get(key);
      if (v == null) {
        return committed.get(key);
      }
      return v == TOMBSTONE ? null : (V) v;
    }

    @Override public void put(K key, V value) {
      requireNonNull(value, "value");
      checkOpen();
      if (get(key) == null) {
        numKeys++;
      }
      overlay.put(key, value);
    }

    @Override public void remove(K key) {
      checkOpen();
      if (get(key) != null) {
        numKeys--;
        overlay.put(key, TOMBSTONE);
      }
    }

    @Override public long numKeys() {
      return numKeys;
    }

    @SuppressWarnings("unchecked")
    @Override public Iterable<Map.Entry<K, V>> entries() {
      List<Map.Entry<K, V>> result = new ArrayList<>((int) Math.min(numKeys, Integer.MAX_VALUE));
      for (Map.Entry<K, V> e : committed.entrySet()) {
        if (!overlay.containsKey(e.getKey())) {
          result.add(new AbstractMap.SimpleImmutableEntry<>(e));
        }
      }
      for (Map.Entry<K, Object> e : overlay.entrySet()) {
        if (e.getValue() != TOMBSTONE) {
          result.add(new AbstractMap.SimpleImmutableEntry<>(e.getKey(), (V) e.getValue()));
        }
      }
      return result;
    }

    @SuppressWarnings("unchecked")
    @Override public long commit() {
      checkOpen();
      for (Iterator<Map.Entry<K, Object>> it = overlay.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<K, Object> e = it.next();
        if (e.getValue() == TOMBSTONE) {
          committed.remove(e.getKey());
        } else {
          committed.put(e.getKey(), (V) e.getValue());
        }
      }
      committedVersion = version + 1;
      closed = true;
      committedFlag = true;
      return committedVersion;
    }

    @Override public void abort() {
      closed = true;
      overlay.clear();
    }

    @Override public boolean hasCommitted() {
      return committedFlag;
    }

    private void checkOpen() {
      if (closed) {
        throw new StateStoreException("Version " + version + " of " + id
            + " was already " + (committedFlag ? "committed" : "aborted"));
      }
    }
  }
}
