package dev.freshet.executor.state.internals;

import org.h2.mvstore.RootReference;

/**
 * One committed version of an {@link MVStoreStateStoreProvider} file as MVStore holds it: the data
 * map's committed root and, for the version before the latest, the undo map's committed root read
 * over it. MVStore's pages are copy-on-write, so the roots never change; the snapshot is readable
 * until {@linkplain #discard discarded} (by a commit, a closed pin or a closed provider).
 *
 * <pre>{@code
 * MVStoreSnapshot latest = MVStoreSnapshot.latest(version, data.getRoot());
 * latest.discard("a later version was committed");
 * }</pre>
 */
final class MVStoreSnapshot {
  final long version;
  final RootReference<byte[], byte[]> data;
  /** Null for the latest version; for the one before, where its values differ from the latest. */
  final RootReference<byte[], byte[]> undo;
  private final long numKeys;
  /** Why the version can no longer be read, or null while it can; set by any thread. */
  volatile String discarded;

  MVStoreSnapshot(long version, RootReference<byte[], byte[]> data,
      RootReference<byte[], byte[]> undo, long numKeys) {
    this.version = version;
    this.data = data;
    this.undo = undo;
    this.numKeys = numKeys;
  }

  static MVStoreSnapshot latest(long version, RootReference<byte[], byte[]> data) {
    return new MVStoreSnapshot(version, data, null, data.getTotalCount());
  }

  /** A snapshot of the same roots of its own, which can be discarded apart from this one. */
  MVStoreSnapshot copy() {
    return new MVStoreSnapshot(version, data, undo, numKeys);
  }

  long numKeys() {
    return numKeys;
  }

  void discard(String why) {
    discarded = why;
  }
}
