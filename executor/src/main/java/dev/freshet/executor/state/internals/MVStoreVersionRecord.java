package dev.freshet.executor.state.internals;

import java.nio.ByteBuffer;

/**
 * Value of an {@link MVStoreStateStoreProvider} file's {@code versions} map: the committed undo
 * map's number, the rollback undo map's number ({@link #NO_ROLLBACK} when no store is open), the
 * version the committed undo map restores ({@link #NO_PREVIOUS} if none) and that version's
 * number of keys; 8 bytes each, big-endian.
 *
 * <pre>{@code
 * MVStoreVersionRecord record = MVStoreVersionRecord.decode(versions.get(latest));
 * versions.put(latest, record.withRollback(1).encode());
 * }</pre>
 */
record MVStoreVersionRecord(int undo, int rollback, long previous, long previousKeys) {
  /** {@link #previous} when the committed undo map restores no version. */
  static final long NO_PREVIOUS = -1;
  /** {@link #rollback} when no store is open. */
  static final int NO_ROLLBACK = -1;

  static MVStoreVersionRecord decode(byte[] value) {
    ByteBuffer b = ByteBuffer.wrap(value);
    return new MVStoreVersionRecord((int) b.getLong(0), (int) b.getLong(8), b.getLong(16),
        b.getLong(24));
  }

  byte[] encode() {
    return ByteBuffer.allocate(32).putLong(undo).putLong(rollback).putLong(previous)
        .putLong(previousKeys).array();
  }

  MVStoreVersionRecord withRollback(int map) {
    return new MVStoreVersionRecord(undo, map, previous, previousKeys);
  }
}
