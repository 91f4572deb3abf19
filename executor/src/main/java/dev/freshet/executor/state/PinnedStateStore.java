package dev.freshet.executor.state;

/**
 * A committed version of a state store held for reading from any thread, until closed: later
 * commits, a re-run of the same version and maintenance do not change what it reads.
 *
 * <pre>{@code
 * try (PinnedStateStore<Object, Object[]> pinned = provider.pin(provider.latestCommittedVersion())) {
 *   Object[] row = pinned.get(key);               // on any thread
 *   for (Map.Entry<Object, Object[]> e : pinned.entries()) { ... }
 * }
 * }</pre>
 *
 * <p>{@link #get}, {@link #entries()} and {@link #numKeys()} may be called by several threads at
 * once; the pin must be handed to another thread safely (a volatile field, a concurrent
 * collection, a thread start). {@link #abort()} is {@link #close()}.
 *
 * @param <K> key type
 * @param <V> value type; values read must not be modified
 */
public interface PinnedStateStore<K, V> extends ReadStateStore<K, V>, AutoCloseable {
  /** Releases the version; idempotent. Reading afterwards throws {@link StateStoreException}. */
  @Override void close();

  @Override default void abort() {
    close();
  }
}
