package dev.freshet.executor.state.internals;

import dev.freshet.executor.storage.UnsignedBytesType;
import java.util.AbstractMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVStoreException;

/**
 * Streams entries of an {@link MVStoreStateStoreProvider} from a cursor over the data map,
 * decoding each as it is reached; for the version before the latest, merges in a cursor over the
 * undo map, whose entries replace the data map's (and whose empty values remove them). Checks
 * before each step that the snapshot it reads (if any) is still valid.
 *
 * <pre>{@code
 * Iterator<Map.Entry<K, V>> it = new MVStoreEntryIterator<>(file, data.cursor(null), null, null,
 *     version, codec);
 * }</pre>
 *
 * @param <K> key type
 * @param <V> value type
 */
final class MVStoreEntryIterator<K, V> implements Iterator<Map.Entry<K, V>> {
  private final MVStoreFile file;
  private final Cursor<byte[], byte[]> cursor;
  private final Cursor<byte[], byte[]> undoCursor;
  private final MVStoreSnapshot snapshot;
  private final long version;
  private final MVStoreCodec codec;
  /** The data cursor's entry not yet merged, or null. */
  private byte[] dataKey;
  private byte[] dataValue;
  /** The undo cursor's entry not yet merged, or null. */
  private byte[] undoKey;
  private byte[] undoValue;
  /** The next entry to return, or null when not found yet (or there is none). */
  private byte[] nextKey;
  private byte[] nextValue;

  MVStoreEntryIterator(MVStoreFile file, Cursor<byte[], byte[]> cursor,
      Cursor<byte[], byte[]> undoCursor, MVStoreSnapshot snapshot, long version,
      MVStoreCodec codec) {
    this.file = file;
    this.cursor = cursor;
    this.undoCursor = undoCursor;
    this.snapshot = snapshot;
    this.version = version;
    this.codec = codec;
  }

  @Override public boolean hasNext() {
    check();
    return advance();
  }

  @SuppressWarnings("unchecked")
  @Override public Map.Entry<K, V> next() {
    check();
    if (!advance()) {
      throw new NoSuchElementException();
    }
    byte[] key = nextKey;
    byte[] value = nextValue;
    nextKey = null;
    nextValue = null;
    return new AbstractMap.SimpleImmutableEntry<>((K) codec.decode(key, version),
        (V) codec.decode(value, version));
  }

  /** Finds the next entry to return, if it is not found yet; whether there is one. */
  private boolean advance() {
    try {
      while (nextKey == null) {
        if (dataKey == null && cursor.hasNext()) {
          dataKey = cursor.next();
          dataValue = cursor.getValue();
        }
        if (undoKey == null && undoCursor != null && undoCursor.hasNext()) {
          undoKey = undoCursor.next();
          undoValue = undoCursor.getValue();
        }
        if (dataKey == null && undoKey == null) {
          return false;
        }
        int order = dataKey == null ? 1
            : undoKey == null ? -1 : UnsignedBytesType.INSTANCE.compare(dataKey, undoKey);
        if (order < 0) {
          nextKey = dataKey;
          nextValue = dataValue;
          dataKey = null;
        } else {
          if (order == 0) {
            dataKey = null;
          }
          if (undoValue.length > 0) {
            nextKey = undoKey;
            nextValue = undoValue;
          }
          undoKey = null;
        }
      }
    } catch (MVStoreException e) {
      throw file.failure("read", version, e);
    }
    return true;
  }

  private void check() {
    if (snapshot != null) {
      file.checkSnapshot(snapshot);
    } else {
      file.checkNotClosed();
    }
  }
}
