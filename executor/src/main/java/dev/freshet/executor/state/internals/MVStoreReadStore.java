package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStoreId;
import java.util.Iterator;
import java.util.Map;
import org.h2.mvstore.Cursor;

/**
 * Reads one committed version of an {@link MVStoreStateStoreProvider} through its snapshot: the
 * latest version from the data map's committed root, the one before through the committed undo
 * map over it. Valid until the snapshot is discarded.
 *
 * <pre>{@code
 * ReadStateStore<Object, Object[]> store = new MVStoreReadStore<>(file, file.snapshot(v), codec);
 * Object[] row = store.get(key);
 * }</pre>
 *
 * @param <K> key type
 * @param <V> value type
 */
class MVStoreReadStore<K, V> implements ReadStateStore<K, V> {
  final MVStoreFile file;
  final MVStoreSnapshot snapshot;
  private final MVStoreCodec codec;

  /**
   * @param codec what reads encode and decode with: the provider's, on the batch thread; null for
   *     a new one per read ({@link #codec()})
   */
  MVStoreReadStore(MVStoreFile file, MVStoreSnapshot snapshot, MVStoreCodec codec) {
    this.file = file;
    this.snapshot = snapshot;
    this.codec = codec;
  }

  /** The codec a read uses: the provider's, on the batch thread. */
  MVStoreCodec codec() {
    return codec;
  }

  @Override public StateStoreId id() {
    return file.id;
  }

  @Override public long version() {
    return snapshot.version;
  }

  @Override public V get(K key) {
    return get(file, snapshot, key, codec());
  }

  @Override public Iterable<Map.Entry<K, V>> entries() {
    return () -> iterator(file, snapshot, codec());
  }

  @Override public long numKeys() {
    file.checkSnapshot(snapshot);
    return snapshot.numKeys();
  }

  @Override public void abort() {
  }

  /** Reads {@code key} in {@code snapshot}, encoding and decoding with {@code codec}. */
  @SuppressWarnings("unchecked")
  static <K, V> V get(MVStoreFile file, MVStoreSnapshot snapshot, K key, MVStoreCodec codec) {
    file.checkSnapshot(snapshot);
    byte[] value = file.read(snapshot, codec.encode(key));
    return value == null || value.length == 0 ? null
        : (V) codec.decode(value, snapshot.version);
  }

  /** Every entry of {@code snapshot}, in key order, decoded with {@code codec}. */
  static <K, V> Iterator<Map.Entry<K, V>> iterator(MVStoreFile file, MVStoreSnapshot snapshot,
      MVStoreCodec codec) {
    file.checkSnapshot(snapshot);
    return new MVStoreEntryIterator<>(file, new Cursor<>(snapshot.data, null, null),
        snapshot.undo == null ? null : new Cursor<>(snapshot.undo, null, null),
        snapshot, snapshot.version, codec);
  }
}
