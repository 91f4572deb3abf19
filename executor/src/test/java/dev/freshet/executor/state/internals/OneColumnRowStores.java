package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.PinnedStateStore;
import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.VersionChangeVisitor;
import java.util.AbstractMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Providers of rows ({@code Object[]}), which is all an aggregation saves, seen as providers of
 * single values, as the contract suite saves them: each value travels as a one-column row.
 */
final class OneColumnRowStores {
  private OneColumnRowStores() {
  }

  /** Values as one-column rows. */
  static final class OneColumnRows<K, V> implements StateStoreProvider<K, V> {
    private final StateStoreProvider<Object, Object[]> rows;

    OneColumnRows(StateStoreProvider<Object, Object[]> rows) {
      this.rows = rows;
    }

    @Override public StateStoreId id() {
      return rows.id();
    }

    @Override public StateStore<K, V> getStore(long version) {
      return new Store<>(rows.getStore(version));
    }

    @Override public ReadStateStore<K, V> getReadStore(long version) {
      return new Store<>(rows.getReadStore(version));
    }

    @Override public PinnedStateStore<K, V> pin(long version) {
      return new Pinned<>(rows.pin(version));
    }

    @Override public long latestCommittedVersion() {
      return rows.latestCommittedVersion();
    }

    @SuppressWarnings("unchecked")
    @Override public void readChanges(long from, long to, VersionChangeVisitor<K, V> visitor) {
      rows.readChanges(from, to, (version, key, oldValue, newValue) -> visitor.change(version,
          (K) key, oldValue == null ? null : (V) oldValue[0],
          newValue == null ? null : (V) newValue[0]));
    }

    @Override public long oldestChangesVersion() {
      return rows.oldestChangesVersion();
    }

    @Override public void doMaintenance() {
      rows.doMaintenance();
    }

    @Override public void close() {
      rows.close();
    }
  }

  /** A pinned version of rows seen as one of values. */
  private static final class Pinned<K, V> extends Store<K, V> implements PinnedStateStore<K, V> {
    Pinned(PinnedStateStore<Object, Object[]> rows) {
      super(rows);
    }

    @Override public void close() {
      ((PinnedStateStore<?, ?>) read).close();
    }

    @Override public void abort() {
      close();
    }
  }

  /** A store of rows seen as a store of values; its entries are read lazily. */
  @SuppressWarnings("unchecked")
  private static class Store<K, V> implements StateStore<K, V> {
    final ReadStateStore<Object, Object[]> read;

    Store(ReadStateStore<Object, Object[]> read) {
      this.read = read;
    }

    private StateStore<Object, Object[]> write() {
      return (StateStore<Object, Object[]>) read;
    }

    @Override public StateStoreId id() {
      return read.id();
    }

    @Override public long version() {
      return read.version();
    }

    @Override public V get(K key) {
      Object[] row = read.get(key);
      return row == null ? null : (V) row[0];
    }

    @Override public Iterable<Map.Entry<K, V>> entries() {
      Iterable<Map.Entry<Object, Object[]>> entries = read.entries();
      return () -> new Iterator<>() {
        private final Iterator<Map.Entry<Object, Object[]>> it = entries.iterator();

        @Override public boolean hasNext() {
          return it.hasNext();
        }

        @Override public Map.Entry<K, V> next() {
          Map.Entry<Object, Object[]> e = it.next();
          return new AbstractMap.SimpleImmutableEntry<>((K) e.getKey(), (V) e.getValue()[0]);
        }
      };
    }

    @Override public long numKeys() {
      return read.numKeys();
    }

    @Override public void abort() {
      read.abort();
    }

    @Override public void put(K key, V value) {
      write().put(key, value == null ? null : new Object[] {value});
    }

    @Override public void remove(K key) {
      write().remove(key);
    }

    @Override public long commit() {
      return write().commit();
    }

    @Override public boolean hasCommitted() {
      return write().hasCommitted();
    }
  }
}
