package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.PinnedStateStore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A pinned version of an {@link MVStoreStateStoreProvider}: a snapshot of its own, over roots
 * kept by an {@link MVStoreCommitted}; each read makes its own codec, so that any number of
 * threads may read at once.
 *
 * <pre>{@code
 * try (PinnedStateStore<Object, Object[]> pin = provider.pin(provider.latestCommittedVersion())) {
 *   pin.entries().forEach(e -> show(e.getKey(), e.getValue()));
 * }
 * }</pre>
 *
 * @param <K> key type
 * @param <V> value type
 */
final class MVStorePin<K, V> extends MVStoreReadStore<K, V> implements PinnedStateStore<K, V> {
  private final MVStoreCommitted committedVersion;
  private final AtomicBoolean open = new AtomicBoolean(true);

  MVStorePin(MVStoreFile file, MVStoreCommitted committedVersion, MVStoreSnapshot snapshot) {
    super(file, snapshot, null);
    this.committedVersion = committedVersion;
  }

  @Override MVStoreCodec codec() {
    return new MVStoreCodec(file.id, file.file);
  }

  @Override public void close() {
    if (open.compareAndSet(true, false)) {
      snapshot.discard("its pin is closed");
      committedVersion.release();
    }
  }

  @Override public void abort() {
    close();
  }
}
