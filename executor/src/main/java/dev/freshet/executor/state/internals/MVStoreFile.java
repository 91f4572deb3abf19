package dev.freshet.executor.state.internals;

import static dev.freshet.executor.state.internals.MVStoreVersionRecord.NO_PREVIOUS;
import static dev.freshet.executor.state.internals.MVStoreVersionRecord.NO_ROLLBACK;

import dev.freshet.executor.state.StateCodec;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.storage.DurableFiles;
import dev.freshet.executor.storage.UnsignedBytesType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.RootReference;
import org.h2.mvstore.type.LongDataType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file of an {@link MVStoreStateStoreProvider} and the versions in it: the MVStore with its
 * data, undo, versions and info maps (the layout, the undo maps and the recovery are described in
 * the provider's class comment), the latest committed version and the snapshots of it and of the
 * one before, and the writes that move between versions: applying an undo map, rolling back an
 * open store, committing a version record. The stores read and write its maps; it knows nothing of
 * keys and values but their encodings.
 *
 * <pre>{@code
 * MVStoreFile file = new MVStoreFile(spec, options);
 * MVStoreFile.OpenVersion open = file.openForUpdate(file.latestVersion());
 * file.commitRecord(open.version() + 1, record);
 * }</pre>
 */
final class MVStoreFile {
  private static final Logger LOG = LoggerFactory.getLogger(MVStoreStateStoreProvider.class);
  private static final String DATA_MAP = "data";
  private static final String VERSIONS_MAP = "versions";
  private static final String INFO_MAP = "info";
  /** The undo maps are this followed by their number. */
  private static final String UNDO_MAP = "undo";
  static final int UNDO_MAPS = 3;
  /**
   * Marks a removal among a store's pending writes, and a key absent from the version an undo map
   * restores; no encoded value is empty.
   */
  static final byte[] REMOVED = new byte[0];

  /**
   * The undo maps of a store opened for update at {@code version}: {@code rollback} restores the
   * latest committed version, {@code next} restores {@code version} (the same map unless the
   * store re-runs the batch before the latest); {@code baseKeys} is {@code version}'s key count.
   */
  record OpenVersion(long version, int rollback, int next, long baseKeys) {}

  final StateStoreId id;
  final Path file;
  final MVStoreStateStoreProvider.Options options;
  private final MVStore mvStore;
  /** The state: encoded key to encoded value. */
  final MVMap<byte[], byte[]> data;
  /** The undo maps, by number; the record says which is which (see the provider's comment). */
  private final MVMap<byte[], byte[]>[] undo;
  /**
   * State version to {@link MVStoreVersionRecord}: the latest committed version; another, older,
   * key only if MVStore wrote in the middle of a commit.
   */
  private final MVMap<Long, byte[]> versions;
  /**
   * Snapshots of committed versions that read stores may still use: of the latest and of the one
   * before. All are discarded when a version is committed.
   */
  private final TreeMap<Long, MVStoreSnapshot> snapshots = new TreeMap<>();
  /** The latest committed state version, the key of {@link #versions}. */
  private long latestVersion;
  /** The record of {@link #latestVersion} as committed: with no rollback map. */
  private MVStoreVersionRecord committed;
  /** The committed undo map's root when it was committed: what snapshots of the previous read. */
  private RootReference<byte[], byte[]> committedUndoRoot;
  /**
   * The latest committed version as other threads see it: what pins, change reads and
   * {@link MVStoreStateStoreProvider#latestCommittedVersion()} read.
   */
  private volatile MVStoreCommitted current;
  /**
   * Every {@link MVStoreCommitted} whose usage is registered with MVStore; closing the file
   * deregisters them, as MVStore requires before it closes.
   */
  private final Set<MVStoreCommitted> registered = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * Opens the store's file, creating it (with version 0, empty) if it does not exist, and brings
   * it back to its latest committed version if a process left it with a store open.
   *
   * @throws StateStoreException if the file cannot be opened (for example because another
   *     provider has it open), or was written with another layout or codec version
   */
  @SuppressWarnings("unchecked")
  MVStoreFile(StateStoreSpec spec, MVStoreStateStoreProvider.Options options) {
    this.options = options;
    this.id = spec.id();
    this.file = spec.directory().resolve(MVStoreStateStoreProvider.FILE_NAME);
    DurableFiles.createDirectories(spec.directory());
    boolean existed = Files.exists(file);
    MVStore opened;
    try {
      opened = new MVStore.Builder()
          .fileName(DurableFiles.h2FileName(file))
          // Commits happen only when a state version is committed; no background thread writes.
          .autoCommitDisabled()
          .autoCommitBufferSize(options.pageBufferKb())
          .cacheSize(options.cacheSizeMb())
          .open();
    } catch (MVStoreException e) {
      throw new StateStoreException("Cannot open " + file + " of " + id, e);
    }
    this.mvStore = opened;
    try {
      if (!existed) {
        // MVStore forces the file's bytes, never its name: without this a power loss could take
        // the new file, and every version committed in it, away.
        DurableFiles.forceDirectory(spec.directory());
      }
      // Snapshots read the committed roots while a store writes: nothing may be freed until a
      // commit discards them.
      mvStore.setVersionsToKeep(Integer.MAX_VALUE);
      if (options.syncOnCommit()) {
        // MVStore's retention time (45 s) keeps dead chunks in case unsynced writes are lost.
        // Commits are synced, and chunks are freed only by commits; reusing their space at once
        // keeps the file near its live size.
        mvStore.setRetentionTime(0);
      }
      MVMap<String, String> info = mvStore.openMap(INFO_MAP);
      this.data = mvStore.openMap(DATA_MAP, bytesMap());
      this.versions = mvStore.openMap(VERSIONS_MAP,
          new MVMap.Builder<Long, byte[]>().keyType(LongDataType.INSTANCE)
              .valueType(UnsignedBytesType.INSTANCE));
      boolean created = versions.isEmpty();
      if (created && !data.isEmpty()) {
        // Every commit writes the data with its version record: state without one is damage.
        throw new StateStoreException(file + " of " + id + " holds state but no committed version:"
            + " the file is damaged; the state cannot be recovered, re-create the query");
      }
      if (!created) {
        checkFormat(info);
      }
      this.undo = new MVMap[UNDO_MAPS];
      for (int i = 0; i < UNDO_MAPS; i++) {
        undo[i] = mvStore.openMap(UNDO_MAP + i, bytesMap());
      }
      if (created) {
        info.put("layout", Integer.toString(MVStoreStateStoreProvider.LAYOUT_VERSION));
        info.put("codec", Integer.toString(StateCodec.FORMAT_VERSION));
        info.put("store", id.toString());
        commitRecord(0, new MVStoreVersionRecord(0, NO_ROLLBACK, NO_PREVIOUS, 0));
      } else {
        recover();
      }
    } catch (RuntimeException e) {
      mvStore.closeImmediately();
      if (e instanceof StateStoreException) {
        throw e;
      }
      throw new StateStoreException("Cannot open " + file + " of " + id, e);
    }
  }

  private static MVMap.Builder<byte[], byte[]> bytesMap() {
    return new MVMap.Builder<byte[], byte[]>().keyType(UnsignedBytesType.INSTANCE)
        .valueType(UnsignedBytesType.INSTANCE);
  }

  /** Throws unless the file has the layout and codec version this provider reads. */
  private void checkFormat(MVMap<String, String> info) {
    String layout = info.get("layout");
    String codecVersion = info.get("codec");
    if (!Integer.toString(MVStoreStateStoreProvider.LAYOUT_VERSION).equals(layout)
        || !Integer.toString(StateCodec.FORMAT_VERSION).equals(codecVersion)) {
      throw new StateStoreException(file + " of " + id + " has layout version " + layout
          + " and codec version " + codecVersion + "; this Freshet reads layout version "
          + MVStoreStateStoreProvider.LAYOUT_VERSION + " with codec version "
          + StateCodec.FORMAT_VERSION);
    }
  }

  /**
   * Brings the file back to its latest committed version if a store was open when it was last
   * written: applies the rollback map, empties the maps other than the committed undo map, and
   * commits that.
   */
  private void recover() {
    long latest = versions.lastKey();
    MVStoreVersionRecord record = MVStoreVersionRecord.decode(versions.get(latest));
    if (record.undo() < 0 || record.undo() >= UNDO_MAPS || record.rollback() < NO_ROLLBACK
        || record.rollback() >= UNDO_MAPS || record.rollback() == record.undo()
        || record.previous() != NO_PREVIOUS && record.previous() != latest - 1) {
      throw new StateStoreException(file + " of " + id + " has an invalid record of version "
          + latest + ": " + record);
    }
    boolean changed = false;
    if (record.rollback() != NO_ROLLBACK) {
      long keys = undo[record.rollback()].sizeAsLong();
      applyUndo(undo[record.rollback()], null);
      changed = true;
      LOG.info("{}: {} was left with version {} open for update; undid its changes to {} keys",
          id, file, latest, keys);
    }
    for (int i = 0; i < UNDO_MAPS; i++) {
      if (i != record.undo() && !undo[i].isEmpty()) {
        undo[i].clear();
        changed = true;
      }
    }
    MVStoreVersionRecord rest = record.withRollback(NO_ROLLBACK);
    if (changed) {
      commitRecord(latest, rest);
    } else {
      setCommitted(latest, rest);
    }
  }

  /** The latest committed version. */
  long latestVersion() {
    return latestVersion;
  }

  /** The latest committed version as other threads see it. */
  MVStoreCommitted current() {
    return current;
  }

  /** Undo map number {@code i}. */
  MVMap<byte[], byte[]> undo(int i) {
    return undo[i];
  }

  /**
   * Prepares the maps for a store open for update at {@code version}, the latest committed
   * version or the one before (see the provider's class comment): names the rollback map in the
   * record and, for the one before, applies the committed undo map to the data map.
   */
  OpenVersion openForUpdate(long version) {
    checkLoadable(version);
    boolean rerun = version != latestVersion;
    int rollback = (committed.undo() + 1) % UNDO_MAPS;
    // A batch of the latest version restores it with the map that rolls it back; a re-run needs
    // its own, relative to the version before.
    int next = rerun ? (committed.undo() + 2) % UNDO_MAPS : rollback;
    try {
      // Left over from an unfinished batch if not empty; the record names no rollback map yet.
      clearIfNotEmpty(undo[rollback]);
      clearIfNotEmpty(undo[next]);
      versions.put(latestVersion, committed.withRollback(rollback).encode());
      if (rerun) {
        applyUndo(undo[committed.undo()], undo[rollback]);
      }
    } catch (MVStoreException e) {
      StateStoreException failure = StateStoreException.cannotLoad(id, version,
          "reading or writing " + file + " failed", e);
      try {
        rollBack(rollback, next);
      } catch (MVStoreException again) {
        failure.addSuppressed(again);
      }
      throw failure;
    }
    long baseKeys = rerun ? committed.previousKeys() : snapshots.get(latestVersion).numKeys();
    return new OpenVersion(version, rollback, next, baseKeys);
  }

  private static void clearIfNotEmpty(MVMap<byte[], byte[]> map) {
    if (!map.isEmpty()) {
      map.clear();
    }
  }

  /**
   * Sets every key of {@code from} in the data map to its value there (removes it if empty), in
   * key order. With {@code rollback}, first records there the value each key had, if it has none
   * for it yet, so that a crash or an abort in the middle can undo what was applied.
   */
  private void applyUndo(MVMap<byte[], byte[]> from, MVMap<byte[], byte[]> rollback) {
    Cursor<byte[], byte[]> cursor = from.cursor(null);
    while (cursor.hasNext()) {
      byte[] key = cursor.next();
      byte[] value = cursor.getValue();
      if (rollback != null) {
        byte[] old = data.get(key);
        rollback.putIfAbsent(key, old == null ? REMOVED : old);
      }
      if (value.length == 0) {
        data.remove(key);
      } else {
        data.put(key, value);
      }
    }
  }

  /**
   * Turns the data map back into the latest committed version: applies the rollback map, then
   * empties the maps of the aborted store and says in the record that none is open.
   */
  void rollBack(int rollback, int next) {
    applyUndo(undo[rollback], null);
    clearIfNotEmpty(undo[next]);
    versions.put(latestVersion, committed.encode());
    // After the record: until it no longer names the rollback map, a crash may need it again.
    clearIfNotEmpty(undo[rollback]);
  }

  /** Throws unless {@code version} is the latest committed version or the one before it. */
  void checkLoadable(long version) {
    if (version > latestVersion) {
      throw StateStoreException.cannotLoad(id, version, "the latest committed version in " + file
          + " is " + latestVersion);
    }
    long oldest = committed.previous() == NO_PREVIOUS ? latestVersion : committed.previous();
    if (version < oldest) {
      String why = committed.previous() != NO_PREVIOUS
          ? "this provider keeps only the latest committed version, " + latestVersion
              + ", and the one before it"
          : "versions start at 0";
      throw StateStoreException.cannotLoad(id, version, "the oldest version " + file + " holds is "
          + oldest + "; " + why);
    }
  }

  /** The snapshot of a loadable committed version, created for the one before the latest. */
  MVStoreSnapshot snapshot(long version) {
    MVStoreSnapshot snapshot = snapshots.get(version);
    if (snapshot == null) {
      MVStoreSnapshot latest = snapshots.get(latestVersion);
      snapshot = new MVStoreSnapshot(version, latest.data, committedUndoRoot,
          committed.previousKeys());
      snapshots.put(version, snapshot);
    }
    return snapshot;
  }

  /**
   * Records {@code version} as the latest committed version, empties the undo maps other than
   * {@code record}'s committed one and commits the MVStore; discards every snapshot.
   */
  void commitRecord(long version, MVStoreVersionRecord record) {
    // Put before the older record is removed: MVStore may write in between, and a file whose
    // versions map is empty would pass for a new one.
    versions.put(version, record.encode());
    Long older;
    while ((older = versions.firstKey()) != version) {
      versions.remove(older);
    }
    // After the record: from here on they hold nothing a crash would need.
    for (int i = 0; i < UNDO_MAPS; i++) {
      if (i != record.undo()) {
        clearIfNotEmpty(undo[i]);
      }
    }
    // Only the new version is read from now on: the commit may free what older ones read.
    mvStore.setVersionsToKeep(1);
    try {
      mvStore.commit();
    } finally {
      mvStore.setVersionsToKeep(Integer.MAX_VALUE);
    }
    if (options.syncOnCommit()) {
      mvStore.sync();
    }
    for (MVStoreSnapshot s : snapshots.values()) {
      s.discard(s.version < version ? "a later version was committed"
          : "batch " + (version - 1) + " was re-run and committed it again");
    }
    snapshots.clear();
    setCommitted(version, record);
  }

  /**
   * Takes {@code record} of {@code version} as committed, and the snapshot of the version;
   * publishes it to other threads, registered with MVStore as in use (see
   * {@link MVStoreCommitted}), and releases the previous one.
   */
  private void setCommitted(long version, MVStoreVersionRecord record) {
    latestVersion = version;
    committed = record;
    committedUndoRoot = undo[record.undo()].getRoot();
    RootReference<byte[], byte[]> dataRoot = data.getRoot();
    snapshots.put(version, MVStoreSnapshot.latest(version, dataRoot));
    MVStoreCommitted previous = current;
    current = new MVStoreCommitted(mvStore, registered, MVStoreSnapshot.latest(version, dataRoot),
        record.previous() == NO_PREVIOUS ? null
            : new MVStoreSnapshot(version - 1, dataRoot, committedUndoRoot,
                record.previousKeys()));
    if (previous != null) {
      previous.release();
    }
  }

  /**
   * Reads the encoded {@code key} in {@code snapshot}: its value, {@link #REMOVED} (empty) or
   * null if absent.
   */
  byte[] read(MVStoreSnapshot snapshot, byte[] key) {
    checkSnapshot(snapshot);
    byte[] value = null;
    try {
      if (snapshot.undo != null) {
        // Any undo map reads any root: the map lends only its key order.
        value = undo[0].get(snapshot.undo.root, key);
      }
      if (value == null) {
        value = data.get(snapshot.data.root, key);
      }
    } catch (MVStoreException e) {
      throw failure("read", snapshot.version, e);
    }
    return value;
  }

  void checkSnapshot(MVStoreSnapshot snapshot) {
    // Only a closed provider leaves a finished store without the snapshot it reads.
    checkNotClosed();
    if (snapshot.discarded != null) {
      throw new StateStoreException("Version " + snapshot.version + " of " + id
          + " can no longer be read: " + snapshot.discarded);
    }
  }

  boolean isClosed() {
    return closed;
  }

  void checkNotClosed() {
    if (closed) {
      throw new StateStoreException(id + " is closed");
    }
  }

  StateStoreException failure(String what, long version, RuntimeException e) {
    return new StateStoreException("Cannot " + what + " version " + version + " of " + id
        + " in " + file, e);
  }

  /** Discards every snapshot and registered usage and closes the MVStore. */
  void close() {
    closed = true;
    discardSnapshots();
    // Pins still open can no longer read (checkNotClosed), so their usage can go too.
    for (MVStoreCommitted c : registered) {
      c.deregister();
    }
    try {
      mvStore.close();
    } catch (MVStoreException e) {
      throw new StateStoreException("Cannot close " + file + " of " + id, e);
    }
  }

  /** Closes the file without writing anything, as if the process died. */
  void closeAbruptly() {
    closed = true;
    discardSnapshots();
    mvStore.closeImmediately();
  }

  private void discardSnapshots() {
    for (MVStoreSnapshot s : snapshots.values()) {
      s.discard("the provider is closed");
    }
    snapshots.clear();
  }

  /** MVStore's current version: it advances each time MVStore writes, also in a batch. */
  long mvStoreVersion() {
    return mvStore.getCurrentVersion();
  }
}
