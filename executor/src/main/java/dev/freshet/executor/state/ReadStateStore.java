package dev.freshet.executor.state;

import java.util.Map;

/**
 * Read-only view of one version of a state store.
 *
 * <p>Batch {@code N} of a query reads version {@code N}; version 0 is empty.
 *
 * @param <K> key type
 * @param <V> value type; values read must not be modified
 */
public interface ReadStateStore<K, V> {
  /** The store's identity. */
  StateStoreId id();

  /** The version this store was opened at. */
  long version();

  /** Returns the value of {@code key}, or null. */
  V get(K key);

  /** Iterates over every entry, including changes not yet committed. */
  Iterable<Map.Entry<K, V>> entries();

  /** Number of keys, including changes not yet committed. */
  long numKeys();

  /** Releases the store without committing; harmless after commit or a previous abort. */
  void abort();
}
