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

  /**
   * Pins committed version {@code version} for reads from any thread until the pin is closed; it
   * survives later commits, re-runs of that version and maintenance. Reading through the pin
   * locks nothing that the batch thread's stores use.
   *
   * @throws StateStoreException if {@code version} is not committed yet or no longer retained
   * @throws UnsupportedOperationException if this provider cannot keep a version readable while
   *     later ones are committed
   */
  default PinnedStateStore<K, V> pin(long version) {
    throw unsupported("pin a version");
  }

  /**
   * The latest committed version: what a restarted provider would show; 0 before any commit.
   * Providers that can {@link #pin(long)} answer on any thread, others on the batch thread.
   *
   * @throws UnsupportedOperationException if this provider does not know it
   */
  default long latestCommittedVersion() {
    throw unsupported("report its latest committed version");
  }

  /**
   * Hands {@code visitor} the changes of versions {@code from + 1} to {@code to}, in version
   * order: each key that a version changed, once, with its old and new value. Both versions must
   * be committed and the changes after {@code from} retained ({@link #oldestChangesVersion()}).
   *
   * @throws StateStoreException if {@code to} is not committed or the changes after {@code from}
   *     are no longer retained
   * @throws UnsupportedOperationException if this provider does not keep its changes
   */
  default void readChanges(long from, long to, VersionChangeVisitor<K, V> visitor) {
    throw unsupported("read the changes of its versions");
  }

  /**
   * The oldest version {@code from} for which {@link #readChanges} can read up to the latest
   * committed version.
   *
   * @throws UnsupportedOperationException if this provider does not keep its changes
   */
  default long oldestChangesVersion() {
    throw unsupported("read the changes of its versions");
  }

  private UnsupportedOperationException unsupported(String what) {
    return new UnsupportedOperationException(getClass().getSimpleName() + " of " + id()
        + " cannot " + what + "; use the memory (DeltaFile) state store provider");
  }

  /**
   * Whether the committed state lives on the heap, so that its operator counts it against its
   * query's memory budget ({@link dev.freshet.executor.limits.QueryResources}); false for a
   * provider that keeps it on disk and only caches it, whose state may be larger than the heap.
   */
  default boolean keepsStateOnHeap() {
    return true;
  }

  /** Runs housekeeping (snapshots, deleting files no longer needed); never throws. */
  default void doMaintenance() {
  }

  /** Releases memory and files; idempotent. */
  @Override void close();
}
