package dev.freshet.executor.state.internals;

import static dev.freshet.executor.state.internals.MVStoreFile.REMOVED;
import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.storage.UnsignedBytesType;
import java.util.Map;
import java.util.TreeMap;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStoreException;

/**
 * The writable version of an {@link MVStoreStateStoreProvider}: reads and writes the head of the
 * data map, which holds {@link #version} once {@link MVStoreFile#openForUpdate} applied the
 * committed undo if needed. Before it changes a key in the data map it records the key's value in
 * the rollback map (in the latest committed version) and in the next undo map (in
 * {@link #version}); the two are one map unless the store re-runs the batch before the latest.
 * After commit or abort it reads the version it produced (or kept) through that version's
 * snapshot.
 *
 * <p>Writes are collected, encoded, in a buffer sorted by key and applied in that order when the
 * buffer is full ({@link MVStoreStateStoreProvider.Options#writeBufferKb()}), when the store is
 * iterated or counted, and on commit.
 *
 * <pre>{@code
 * StateStore<Object, Object[]> store = provider.getStore(version);
 * store.put(key, row);
 * store.commit();
 * }</pre>
 *
 * @param <K> key type
 * @param <V> value type
 */
final class MVStoreWriteStore<K, V> implements StateStore<K, V> {
  /** Heap a pending write takes besides its bytes: a tree entry and two array headers. */
  private static final int PENDING_ENTRY_BYTES = 72;

  private final MVStoreFile file;
  private final MVStoreCodec codec;
  private final long version;
  /** Number of the undo map that restores the latest committed version: what abort applies. */
  private final int rollback;
  /** Number of the undo map that restores {@link #version}: the committed one after commit. */
  private final int next;
  /** How many keys {@link #version} has: what the commit records for the next undo map. */
  private final long baseKeys;
  /**
   * Writes not yet applied to the data map, by encoded key; {@link MVStoreFile#REMOVED} marks a
   * removal. Reads look here first.
   */
  private final TreeMap<byte[], byte[]> pending = new TreeMap<>(UnsignedBytesType.INSTANCE);
  /** Estimated heap taken by {@link #pending}. */
  private long pendingBytes;
  private boolean done;
  private boolean committedFlag;
  /** After commit or abort, the version this store reads. */
  private MVStoreSnapshot after;

  MVStoreWriteStore(MVStoreFile file, MVStoreCodec codec, MVStoreFile.OpenVersion open) {
    this.file = file;
    this.codec = codec;
    this.version = open.version();
    this.rollback = open.rollback();
    this.next = open.next();
    this.baseKeys = open.baseKeys();
  }

  /** Whether the store was committed or aborted. */
  boolean isDone() {
    return done;
  }

  @Override public StateStoreId id() {
    return file.id;
  }

  @Override public long version() {
    return version;
  }

  @SuppressWarnings("unchecked")
  @Override public V get(K key) {
    if (done) {
      return MVStoreReadStore.get(file, after, key, codec);
    }
    file.checkNotClosed();
    byte[] encoded = codec.encode(key);
    byte[] value = pending.get(encoded);
    if (value == null) {
      try {
        value = file.data.get(encoded);
      } catch (MVStoreException e) {
        throw file.failure("read", version, e);
      }
    } else if (value == REMOVED) {
      return null;
    }
    return value == null ? null : (V) codec.decode(value, version);
  }

  @Override public void put(K key, V value) {
    requireNonNull(value, "value");
    checkOpen();
    write(codec.encode(key), codec.encode(value));
  }

  @Override public void remove(K key) {
    checkOpen();
    write(codec.encode(key), REMOVED);
  }

  private void write(byte[] key, byte[] value) {
    byte[] previous = pending.put(key, value);
    pendingBytes += previous == null
        ? PENDING_ENTRY_BYTES + key.length + value.length
        : value.length - previous.length;
    if (pendingBytes > file.options.writeBufferKb() * 1024L) {
      flush();
    }
  }

  /**
   * Applies the pending writes to the data map in key order, each after recording the value it
   * replaces in the undo maps, unless they have a value for the key already: the first value
   * recorded is the key's value in the version the map restores.
   */
  private void flush() {
    if (pending.isEmpty()) {
      return;
    }
    MVMap<byte[], byte[]> data = file.data;
    MVMap<byte[], byte[]> rollbackMap = file.undo(rollback);
    MVMap<byte[], byte[]> nextMap = file.undo(next);
    try {
      for (Map.Entry<byte[], byte[]> e : pending.entrySet()) {
        byte[] key = e.getKey();
        byte[] value = e.getValue();
        byte[] old = data.get(key);
        if (old == null && value == REMOVED) {
          // Removing an absent key changes nothing, so there is nothing to undo.
          continue;
        }
        byte[] undoValue = old == null ? REMOVED : old;
        rollbackMap.putIfAbsent(key, undoValue);
        if (nextMap != rollbackMap) {
          nextMap.putIfAbsent(key, undoValue);
        }
        if (value == REMOVED) {
          data.remove(key);
        } else {
          data.put(key, value);
        }
      }
    } catch (MVStoreException e) {
      throw file.failure("update", version, e);
    }
    pending.clear();
    pendingBytes = 0;
  }

  @Override public Iterable<Map.Entry<K, V>> entries() {
    if (done) {
      MVStoreSnapshot s = after;
      return () -> MVStoreReadStore.iterator(file, s, codec);
    }
    file.checkNotClosed();
    return () -> {
      if (done) {
        return MVStoreReadStore.iterator(file, after, codec);
      }
      file.checkNotClosed();
      flush();
      // A cursor reads the root it starts from: later writes do not disturb the iteration.
      return new MVStoreEntryIterator<>(file, file.data.cursor(null), null, null, version, codec);
    };
  }

  @Override public long numKeys() {
    if (done) {
      file.checkSnapshot(after);
      return after.numKeys();
    }
    file.checkNotClosed();
    flush();
    return file.data.sizeAsLong();
  }

  @Override public long commit() {
    checkOpen();
    long nextVersion = version + 1;
    try {
      flush();
      file.commitRecord(nextVersion, new MVStoreVersionRecord(next,
          MVStoreVersionRecord.NO_ROLLBACK, version, baseKeys));
    } catch (MVStoreException e) {
      throw new StateStoreException("Cannot commit version " + nextVersion + " of " + file.id
          + " to " + file.file, e);
    }
    after = file.snapshot(nextVersion);
    done = true;
    committedFlag = true;
    return nextVersion;
  }

  @Override public void abort() {
    if (done) {
      return;
    }
    done = true;
    pending.clear();
    pendingBytes = 0;
    if (file.isClosed()) {
      return;
    }
    // The committed roots are untouched by the store's writes, so this reads its version.
    after = file.snapshot(version);
    try {
      file.rollBack(rollback, next);
    } catch (MVStoreException e) {
      throw new StateStoreException("Cannot abort version " + version + " of " + file.id
          + ": undoing its changes to " + file.file, e);
    }
  }

  @Override public boolean hasCommitted() {
    return committedFlag;
  }

  private void checkOpen() {
    if (done) {
      throw new StateStoreException("Version " + version + " of " + file.id
          + " was already " + (committedFlag ? "committed" : "aborted"));
    }
    file.checkNotClosed();
  }
}
