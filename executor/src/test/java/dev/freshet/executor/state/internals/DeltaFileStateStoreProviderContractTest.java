package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.AbstractStateStoreProviderTest;
import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the state store contract against {@link DeltaFileStateStoreProvider}.
 *
 * <p>The provider stores rows ({@code Object[]}), which is all an aggregation saves; the suite
 * saves single values, so each value travels as a one-column row.
 */
class DeltaFileStateStoreProviderContractTest extends AbstractStateStoreProviderTest {
  @Override protected <K, V> StateStoreProvider<K, V> newProvider(StateStoreSpec spec) {
    return new OneColumnRows<>(new DeltaFileStateStoreProvider(spec));
  }

  /** Values as one-column rows. */
  private static final class OneColumnRows<K, V> implements StateStoreProvider<K, V> {
    private final DeltaFileStateStoreProvider rows;

    OneColumnRows(DeltaFileStateStoreProvider rows) {
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

    @Override public void doMaintenance() {
      rows.doMaintenance();
    }

    @Override public void close() {
      rows.close();
    }
  }

  /** A store of rows seen as a store of values. */
  @SuppressWarnings("unchecked")
  private static final class Store<K, V> implements StateStore<K, V> {
    private final ReadStateStore<Object, Object[]> read;

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
      List<Map.Entry<K, V>> entries = new ArrayList<>();
      for (Map.Entry<Object, Object[]> e : read.entries()) {
        entries.add(new AbstractMap.SimpleImmutableEntry<>((K) e.getKey(), (V) e.getValue()[0]));
      }
      return entries;
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
