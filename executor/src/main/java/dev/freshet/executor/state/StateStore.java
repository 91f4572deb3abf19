package dev.freshet.executor.state;

/**
 * Writable version of a state store, opened at version {@code N} to produce version {@code N + 1}.
 *
 * <p>Lifecycle: {@code put}/{@code remove} any number of times, then exactly one of
 * {@link #commit()} or {@link #abort()}. No write is allowed after either. Keys and values handed to
 * {@code put} become owned by the store: callers must not modify them afterwards.
 *
 * <pre>{@code
 * StateStore<Object, Object[]> store = provider.getStore(batchId);
 * store.put(key, merged);
 * long next = store.commit();   // == batchId + 1
 * }</pre>
 *
 * @param <K> key type
 * @param <V> value type
 */
public interface StateStore<K, V> extends ReadStateStore<K, V> {
  /** Sets the value of {@code key}; {@code value} must not be null. */
  void put(K key, V value);

  /** Removes {@code key} if present. */
  void remove(K key);

  /** Makes the changes durable as version {@code version() + 1} and returns that version. */
  long commit();

  /** Whether {@link #commit()} succeeded. */
  boolean hasCommitted();
}
