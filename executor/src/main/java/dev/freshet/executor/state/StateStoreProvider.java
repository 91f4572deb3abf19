package dev.freshet.executor.state;

/**
 * Source of the versions of one state store ({@link StateStoreId}).
 *
 * <p>A provider is used by one thread at a time: the query's batch thread.
 *
 * @param <K> key type
 * @param <V> value type
 */
public interface StateStoreProvider<K, V> extends AutoCloseable {
  /** The store this provider serves. */
  StateStoreId id();

  /**
   * Opens version {@code version} for update.
   *
   * @throws StateStoreException if that version cannot be loaded
   */
  StateStore<K, V> getStore(long version);

  /**
   * Opens version {@code version} for reading; any number of read stores may be open beside one
   * writable store.
   *
   * @throws StateStoreException if that version cannot be loaded
   */
  ReadStateStore<K, V> getReadStore(long version);

  /** Runs housekeeping (snapshots, deleting files no longer needed); never throws. */
  default void doMaintenance() {
  }

  /** Releases memory and files; idempotent. */
  @Override void close();
}
