package dev.freshet.executor.state.internals;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.PinnedStateStore;
import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateCodec;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.VersionChangeVisitor;
import dev.freshet.executor.storage.DurableFiles;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.RootReference;
import org.h2.mvstore.type.LongDataType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * State store provider that keeps the state in an H2 MVStore file, so that the state may be far
 * larger than the heap: only MVStore's page cache, a bounded buffer of the batch's writes and the
 * pages changed since MVStore last wrote are in memory ({@link Options}).
 *
 * <p><b>Versions.</b> Version {@code v} of the state store is the state after batch {@code v - 1}
 * (SEMANTICS.md §1); version 0 is empty. {@link StateStore#commit()} of a store opened at
 * {@code v} records {@code v + 1} as the latest version in the {@code versions} map and commits the
 * MVStore once. MVStore may also write a batch's changes before that commit, whenever more than
 * {@link Options#pageBufferKb()} of changed pages are in memory; that is what bounds memory. So the
 * file may hold an unfinished batch: MVStore reopens a file at the last state it wrote completely,
 * which may be one in the middle of a batch. Undo maps bring such a state back to a committed
 * version.
 *
 * <p><b>Undo maps.</b> Three maps, {@code undo0} to {@code undo2}, with the data map's keys; a
 * value is the key's value in some version, or empty (a tombstone; no encoded value is empty) if
 * the key is absent there. The {@code versions} map's record of the latest version {@code L} names
 * one of them, and a second while a store is open:
 * <ul>
 *   <li>the <em>committed</em> undo map restores {@code L - 1} from {@code L}: for every key that
 *       batch {@code L - 1} changed, its value in {@code L - 1}. It is written with the batch and
 *       becomes committed in the same MVStore commit as {@code L}.
 *   <li>the <em>rollback</em> undo map: for every key whose value in the data map the open store
 *       changed, its value in {@code L}. Each key's entry is written
 *       before the key's first change, so that whenever MVStore writes, the rollback map covers
 *       every change already made, and applying it (setting each key to its value, or removing it
 *       if the value is empty) turns the data map back into {@code L}. Applying it twice is
 *       harmless.
 * </ul>
 * The third map, and the rollback map when no store is open, are empty, or left over from an
 * unfinished batch and ignored. MVStore's {@link MVStore#rollbackTo} is not used: it leaves the
 * chunks MVStore wrote after the version it goes back to in
 * the file, with newer MVStore versions than what it writes next, and reuses their chunk ids and
 * often their places; after a crash, MVStore then reopened such a chunk instead of a later commit
 * (the crash model test of {@code MVStoreStateStoreProviderTest} found this). Going back by
 * writing keeps MVStore's versions increasing, which is the case its crash recovery is built for.
 * <ul>
 *   <li>{@link #getStore(long) getStore(L)} names a rollback map; the store writes each key's
 *       value in {@code L} to it before the key's first change and, as the same map will restore
 *       {@code L} from {@code L + 1}, commits it as the committed undo map of {@code L + 1}.
 *   <li>{@link StateStore#abort()} applies the rollback map and empties it, and opening the file
 *       does the same if the file was left with a store open (then commits, so that the file
 *       is at rest again). Where a crash falls, in a batch, in applying an undo or in aborting, the
 *       file reopens at the latest committed version, with the one before it still loadable.
 *   <li>Committing writes the record of the new version, naming the store's undo map as the
 *       committed one and no rollback map, then empties the two other maps, and commits the
 *       MVStore. Whenever MVStore writes in between, the file holds one record or the other, each
 *       consistent with the maps.
 * </ul>
 *
 * <p><b>The latest version and the one before.</b> This provider opens the latest committed version
 * {@code L} and the one before it, {@code L - 1}, and no older one; it ignores
 * {@code spec.minVersionsToRetain()} and {@code spec.minDeltasForSnapshot()}. One version back is
 * what exactly-once restart needs: a batch {@code N} killed after its state committed
 * {@code N + 1} but before the checkpoint's {@code commits/N} was written re-runs from version
 * {@code N} (SEMANTICS.md §7.2), and a checkpoint never goes further back than that.
 * <ul>
 *   <li>{@link #getStore(long) getStore(L - 1)} applies the committed undo map to the data map,
 *       recording each change in the rollback map like a batch's own, so the data map holds
 *       {@code L - 1} exactly; the store then writes its undo, relative to {@code L - 1}, to the
 *       third map, which its commit makes the committed one. Until that commit, {@code L} stays
 *       the latest committed version, and an abort or a crash goes back to it. Applying the undo
 *       takes one write per key batch {@code L - 1} changed, and happens only when that batch is
 *       re-run.
 *   <li>{@link #getReadStore(long) getReadStore(L - 1)} writes nothing: it reads the committed data
 *       map through the committed undo map (a key in the undo map has the undo's value, every other
 *       key its value in {@code L}), and its number of keys is in the record. So it may be read
 *       beside a store re-running {@code L - 1}, as Spark's restore and save operators do.
 *   <li>{@link #getReadStore(long)} reads a snapshot: the roots of the data and committed undo maps
 *       taken when the version was committed (or the file opened). MVStore's pages are
 *       copy-on-write, so the snapshot is immutable; MVStore frees no chunk between two commits
 *       ({@code versionsToKeep} is unbounded then), and every snapshot is discarded at a commit.
 *       {@link MVMap#openVersion} is not used: it finds a version through the chain of in-memory
 *       roots, which has no entry for a version in which the map did not change (a batch without
 *       data) and none for versions written before the file was opened, and in both cases it
 *       answers with a newer root instead of failing.
 * </ul>
 * The undo maps are MVStore maps like the data map, written in the same key order: a batch that
 * changes millions of keys takes disk, not heap. The price is two more B-tree operations per
 * changed key (reading the old value, writing it to the rollback map) and, for a re-run, one more.
 *
 * <p><b>File layout.</b> One file, {@code <spec.directory()>/state.mv.db}, an MVStore with six
 * maps: {@code data} (key and value each a {@link StateCodec} encoding; keys are ordered by their
 * encodings' unsigned bytes), {@code undo0}, {@code undo1} and {@code undo2} (see above),
 * {@code versions} (one entry: the latest state version to four big-endian longs, the committed
 * undo map's number, the rollback undo map's number or -1, the version the committed undo map
 * restores or -1, and that version's number of keys) and {@code info} ({@code layout} =
 * {@value #LAYOUT_VERSION}, {@code codec} = the {@link StateCodec#FORMAT_VERSION}, {@code store} =
 * the store id it was created for). A file with another layout or codec version is rejected,
 * naming the file and both versions: no layout before this one was released, so none is
 * converted. Commits are fsynced
 * unless {@link Options#syncOnCommit()} is off, so a committed version survives a crash of the
 * machine, not only of the process.
 *
 * <p><b>Writes.</b> A store collects its writes, encoded, in a buffer sorted by key and applies
 * them to the data map in that order when the buffer is full ({@link Options#writeBufferKb()}),
 * when it is iterated or counted, and on commit. An aggregation writes its keys in hash order, so
 * applying each write at once would rewrite a whole B-tree page (48 entries) per write once the
 * state is larger than the page cache; in key order, consecutive writes share pages, in the data
 * map and in the undo maps alike.
 *
 * <p><b>Keys and values.</b> Both are encoded with {@link StateCodec} when they are handed to the
 * store, so a caller may reuse them afterwards, and decoded on every read, so values read are fresh
 * copies. Two keys are the same key when their encodings are equal, which agrees with
 * {@link Object#equals} for every key {@link StateCodec} can encode except sets, which are not keys.
 * Null is a key like any other.
 *
 * <p><b>Lifecycle and threads.</b> The constructor opens (or creates) the file; {@link #close()}
 * aborts a store still open for update and closes the file; it is idempotent. At most one
 * store is open for update at a time; read stores may be open beside it. The provider and its
 * stores are used by one thread at a time (the query's batch thread): they share encoding buffers,
 * and MVStore's background writer is off, so nothing of the provider runs between calls. A read
 * store stays valid until a version is committed (a later one, or the same one again by a re-run)
 * or the provider is closed; then it throws.
 *
 * <p><b>Pins and changes, on any thread.</b> {@link #pin(long)} (of {@code L} or {@code L - 1}),
 * {@link #latestCommittedVersion()}, {@link #readChanges} (from {@code L - 1} to {@code L}) and
 * {@link #oldestChangesVersion()} may be called on any thread, and a pin read on any number of
 * threads while the batch thread writes and commits: they read the roots of the data and committed
 * undo maps taken right after a commit, which MVStore's copy-on-write pages never change, through
 * codecs of their own. Each committed version registers its MVStore version as in use
 * ({@link MVStore#registerVersionUsage()}) until the next commit and its last pin are done with it,
 * so MVStore frees none of the chunks those roots read meanwhile: the file grows by what the
 * batches rewrite while a pin is held, and shrinks back (its space is reused) at the first commit
 * after the pin is closed. Only the latest version's changes are kept (its committed undo map):
 * older {@code since} versions are refused as no longer retained.
 *
 * <pre>{@code
 * try (MVStoreStateStoreProvider<Object, Object[]> provider = new MVStoreStateStoreProvider<>(spec)) {
 *   StateStore<Object, Object[]> store = provider.getStore(batchId);
 *   store.put(key, row);
 *   long next = store.commit();   // == batchId + 1
 * }
 * }</pre>
 *
 * @param <K> key type: a value or a {@link dev.freshet.executor.state.GroupKey} that
 *     {@link StateCodec} encodes
 * @param <V> value type: anything {@link StateCodec} encodes, typically a row
 */
public final class MVStoreStateStoreProvider<K, V> implements StateStoreProvider<K, V> {
  /** Name of the store's file in {@link StateStoreSpec#directory()}. */
  public static final String FILE_NAME = "state.mv.db";
  /** Version of the file layout described in the class comment. */
  public static final int LAYOUT_VERSION = 1;

  private static final Logger LOG = LoggerFactory.getLogger(MVStoreStateStoreProvider.class);
  private static final String DATA_MAP = "data";
  private static final String VERSIONS_MAP = "versions";
  private static final String INFO_MAP = "info";
  /** The undo maps are this followed by their number. */
  private static final String UNDO_MAP = "undo";
  private static final int UNDO_MAPS = 3;
  /**
   * Marks a removal among a store's pending writes, and a key absent from the version an undo map
   * restores; no encoded value is empty.
   */
  private static final byte[] REMOVED = new byte[0];
  /** {@link VersionRecord#previous} when the committed undo map restores no version. */
  private static final long NO_PREVIOUS = -1;
  /** {@link VersionRecord#rollback} when no store is open. */
  private static final int NO_ROLLBACK = -1;
  /** Heap a pending write takes besides its bytes: a tree entry and two array headers. */
  private static final int PENDING_ENTRY_BYTES = 72;

  /**
   * Memory and durability settings.
   *
   * <p>A provider holds about {@code cacheSizeMb + (writeBufferKb + pageBufferKb) / 1024} MB
   * (estimates of the objects' sizes), so a query with {@code p} state partitions per operator
   * needs {@code p} times that.
   *
   * @param cacheSizeMb MVStore's page cache, in MB; read pages beyond it are evicted
   * @param writeBufferKb how many KB of a batch's encoded writes a store collects, sorted by key,
   *     before it applies them to the data map: applied in key order, the writes to one page follow
   *     each other, so MVStore rewrites that page once rather than once per write
   * @param pageBufferKb how many KB of changed pages MVStore keeps in memory before it writes them
   *     to the file, also in the middle of a batch (MVStore's {@code autoCommitBufferSize})
   * @param syncOnCommit whether a commit forces the file to disk
   */
  public record Options(int cacheSizeMb, int writeBufferKb, int pageBufferKb,
      boolean syncOnCommit) {
    /** 4 MB of cache, 8 MB of sorted writes, 1 MB of changed pages, fsync on commit. */
    public static final Options DEFAULT = new Options(4, 8 * 1024, 1024, true);

    public Options {
      if (cacheSizeMb < 1 || writeBufferKb < 1 || pageBufferKb < 1) {
        throw new IllegalArgumentException(
            "cacheSizeMb, writeBufferKb and pageBufferKb must be positive");
      }
    }
  }

  private final StateStoreId id;
  private final Options options;
  private final Path file;
  private final MVStore mvStore;
  /** The state: encoded key to encoded value. */
  private final MVMap<byte[], byte[]> data;
  /** The undo maps, by number; the record says which is which (see the class comment). */
  private final MVMap<byte[], byte[]>[] undo;
  /**
   * State version to {@link VersionRecord}: the latest committed version; another, older, key
   * only if MVStore wrote in the middle of a commit.
   */
  private final MVMap<Long, byte[]> versions;
  /**
   * Snapshots of committed versions that read stores may still use: of the latest and of the one
   * before. All are discarded when a version is committed.
   */
  private final TreeMap<Long, Snapshot> snapshots = new TreeMap<>();
  private final Codec codec = new Codec();
  /** The latest committed state version, the key of {@link #versions}. */
  private long latestVersion;
  /** The record of {@link #latestVersion} as committed: with no rollback map. */
  private VersionRecord committed;
  /** The committed undo map's root when it was committed: what snapshots of the previous read. */
  private RootReference<byte[], byte[]> committedUndoRoot;
  /**
   * The latest committed version as other threads see it: what {@link #pin}, {@link #readChanges}
   * and {@link #latestCommittedVersion()} read.
   */
  private volatile Committed current;
  /**
   * Every {@link Committed} whose usage is registered with MVStore; closing the provider
   * deregisters them, as MVStore requires before it closes.
   */
  private final Set<Committed> registered = ConcurrentHashMap.newKeySet();
  /** The store open for update, or null; at most one at a time. */
  private WriteStore openStore;
  private volatile boolean closed;

  /** Opens or creates the store's file with {@link Options#DEFAULT}. */
  public MVStoreStateStoreProvider(StateStoreSpec spec) {
    this(spec, Options.DEFAULT);
  }

  /**
   * Opens the store's file, creating it (with version 0, empty) if it does not exist, and brings
   * it back to its latest committed version if a process left it with a store open.
   *
   * @throws StateStoreException if the file cannot be opened (for example because another
   *     provider has it open), or was written with another layout or codec version
   */
  @SuppressWarnings("unchecked")
  public MVStoreStateStoreProvider(StateStoreSpec spec, Options options) {
    requireNonNull(spec, "spec");
    this.options = requireNonNull(options, "options");
    this.id = spec.id();
    this.file = spec.directory().resolve(FILE_NAME);
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
        info.put("layout", Integer.toString(LAYOUT_VERSION));
        info.put("codec", Integer.toString(StateCodec.FORMAT_VERSION));
        info.put("store", id.toString());
        commitRecord(0, new VersionRecord(0, NO_ROLLBACK, NO_PREVIOUS, 0));
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
    if (!Integer.toString(LAYOUT_VERSION).equals(layout)
        || !Integer.toString(StateCodec.FORMAT_VERSION).equals(codecVersion)) {
      throw new StateStoreException(file + " of " + id + " has layout version " + layout
          + " and codec version " + codecVersion + "; this Freshet reads layout version "
          + LAYOUT_VERSION + " with codec version " + StateCodec.FORMAT_VERSION);
    }
  }

  /**
   * Brings the file back to its latest committed version if a store was open when it was last
   * written: applies the rollback map, empties the maps other than the committed undo map, and
   * commits that.
   */
  private void recover() {
    long latest = versions.lastKey();
    VersionRecord record = VersionRecord.decode(versions.get(latest));
    if (record.undo < 0 || record.undo >= UNDO_MAPS || record.rollback < NO_ROLLBACK
        || record.rollback >= UNDO_MAPS || record.rollback == record.undo
        || record.previous != NO_PREVIOUS && record.previous != latest - 1) {
      throw new StateStoreException(file + " of " + id + " has an invalid record of version "
          + latest + ": " + record);
    }
    boolean changed = false;
    if (record.rollback != NO_ROLLBACK) {
      long keys = undo[record.rollback].sizeAsLong();
      applyUndo(undo[record.rollback], null);
      changed = true;
      LOG.info("{}: {} was left with version {} open for update; undid its changes to {} keys",
          id, file, latest, keys);
    }
    for (int i = 0; i < UNDO_MAPS; i++) {
      if (i != record.undo && !undo[i].isEmpty()) {
        undo[i].clear();
        changed = true;
      }
    }
    VersionRecord rest = record.withRollback(NO_ROLLBACK);
    if (changed) {
      commitRecord(latest, rest);
    } else {
      setCommitted(latest, rest);
    }
  }

  /** The state is in the file, read through a bounded cache: not the heap's to budget. */
  @Override public boolean keepsStateOnHeap() {
    return false;
  }

  @Override public StateStoreId id() {
    return id;
  }

  /** The options this provider was created with. */
  public Options options() {
    return options;
  }

  /** The store's file. */
  public Path file() {
    return file;
  }

  /** The latest committed version. */
  public long latestVersion() {
    checkNotClosed();
    return latestVersion;
  }

  /** {@inheritDoc} On any thread. */
  @Override public long latestCommittedVersion() {
    checkNotClosed();
    return current.version;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The latest committed version {@code L} and the one before it can be pinned (and version 0
   * while it is one of them), on any thread; a pin keeps the MVStore chunks its version reads
   * until it is closed, so the file grows by what later batches rewrite meanwhile. A pin reads
   * through a codec of its own, so any number of threads may read it while the batch thread writes
   * and commits.
   */
  @Override public PinnedStateStore<K, V> pin(long version) {
    Committed c = retainCurrent();
    try {
      if (version < 0 || version > c.version) {
        throw StateStoreException.notCommitted(id, version, c.version);
      }
      if (version < c.oldest()) {
        throw StateStoreException.notRetained(id, version, c.oldest());
      }
      Pin pin = new Pin(c, c.snapshot(version));
      c = null;
      return pin;
    } finally {
      if (c != null) {
        c.release();
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Only the changes of the latest committed version are kept (its committed undo map): from
   * {@code L - 1} to {@code L}, on any thread. A key that the batch put again with its old value is
   * a change whose old and new value are equal; one it put and removed again is none.
   */
  @Override public void readChanges(long from, long to, VersionChangeVisitor<K, V> visitor) {
    requireNonNull(visitor, "visitor");
    if (from < 0 || from > to) {
      throw new IllegalArgumentException("Cannot read the changes of " + id + " from version "
          + from + " to " + to + ": need 0 <= from <= to");
    }
    Committed c = retainCurrent();
    try {
      if (to > c.version) {
        throw StateStoreException.notCommitted(id, to, c.version);
      }
      if (from < c.oldest()) {
        throw StateStoreException.changesNotRetained(id, from, c.oldest());
      }
      if (from == to) {
        return;
      }
      Codec reader = new Codec();
      Cursor<byte[], byte[]> changed = new Cursor<>(c.previous.undo, null, null);
      while (changed.hasNext()) {
        byte[] key = changed.next();
        byte[] oldValue = changed.getValue();
        byte[] newValue = data.get(c.latest.data.root, key);
        if (oldValue.length == 0 && newValue == null) {
          continue;
        }
        checkNotClosed();
        @SuppressWarnings("unchecked") K k = (K) reader.decode(key, to);
        @SuppressWarnings("unchecked") V o =
            oldValue.length == 0 ? null : (V) reader.decode(oldValue, from);
        @SuppressWarnings("unchecked") V n = newValue == null ? null : (V) reader.decode(newValue, to);
        visitor.change(to, k, o, n);
      }
    } catch (MVStoreException e) {
      throw failure("read the changes of", to, e);
    } finally {
      c.release();
    }
  }

  /** {@inheritDoc} {@code L - 1}, or 0 before the first commit; on any thread. */
  @Override public long oldestChangesVersion() {
    checkNotClosed();
    return current.oldest();
  }

  /** The latest committed version, retained for reading; the caller releases it. */
  private Committed retainCurrent() {
    while (true) {
      checkNotClosed();
      Committed c = current;
      if (c.retain()) {
        return c;
      }
      // Released by a commit since it was read: the next read sees the new version.
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The latest committed version and the one before it can be opened (see the class comment).
   * Opening the one before applies the committed undo map to the data map, which takes one write
   * per key the latest version's batch changed; the latest version stays committed, and loadable,
   * until the store commits.
   */
  @Override public StateStore<K, V> getStore(long version) {
    checkNotClosed();
    if (openStore != null && !openStore.done) {
      throw new StateStoreException("Version " + openStore.version + " of " + id
          + " is already open for update; commit or abort it first");
    }
    checkLoadable(version);
    boolean rerun = version != latestVersion;
    int rollback = (committed.undo + 1) % UNDO_MAPS;
    // A batch of the latest version restores it with the map that rolls it back; a re-run needs
    // its own, relative to the version before.
    int next = rerun ? (committed.undo + 2) % UNDO_MAPS : rollback;
    try {
      // Left over from an unfinished batch if not empty; the record names no rollback map yet.
      clearIfNotEmpty(undo[rollback]);
      clearIfNotEmpty(undo[next]);
      versions.put(latestVersion, committed.withRollback(rollback).encode());
      if (rerun) {
        applyUndo(undo[committed.undo], undo[rollback]);
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
    long baseKeys = rerun ? committed.previousKeys : snapshots.get(latestVersion).numKeys();
    openStore = new WriteStore(version, rollback, next, baseKeys);
    return openStore;
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
  private void rollBack(int rollback, int next) {
    applyUndo(undo[rollback], null);
    clearIfNotEmpty(undo[next]);
    versions.put(latestVersion, committed.encode());
    // After the record: until it no longer names the rollback map, a crash may need it again.
    clearIfNotEmpty(undo[rollback]);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The latest committed version and the one before it can be read (see the class comment);
   * reading the one before writes nothing.
   */
  @Override public ReadStateStore<K, V> getReadStore(long version) {
    checkNotClosed();
    checkLoadable(version);
    return new ReadStore(snapshot(version));
  }

  /** Throws unless {@code version} is the latest committed version or the one before it. */
  private void checkLoadable(long version) {
    if (version > latestVersion) {
      throw StateStoreException.cannotLoad(id, version, "the latest committed version in " + file
          + " is " + latestVersion);
    }
    long oldest = committed.previous == NO_PREVIOUS ? latestVersion : committed.previous;
    if (version < oldest) {
      String why = committed.previous != NO_PREVIOUS
          ? "this provider keeps only the latest committed version, " + latestVersion
              + ", and the one before it"
          : "versions start at 0";
      throw StateStoreException.cannotLoad(id, version, "the oldest version " + file + " holds is "
          + oldest + "; " + why);
    }
  }

  /** The snapshot of a loadable committed version, created for the one before the latest. */
  private Snapshot snapshot(long version) {
    Snapshot snapshot = snapshots.get(version);
    if (snapshot == null) {
      Snapshot latest = snapshots.get(latestVersion);
      snapshot = new Snapshot(version, latest.data, committedUndoRoot, committed.previousKeys);
      snapshots.put(version, snapshot);
    }
    return snapshot;
  }

  /**
   * Records {@code version} as the latest committed version, empties the undo maps other than
   * {@code record}'s committed one and commits the MVStore; discards every snapshot.
   */
  private void commitRecord(long version, VersionRecord record) {
    // Put before the older record is removed: MVStore may write in between, and a file whose
    // versions map is empty would pass for a new one.
    versions.put(version, record.encode());
    Long older;
    while ((older = versions.firstKey()) != version) {
      versions.remove(older);
    }
    // After the record: from here on they hold nothing a crash would need.
    for (int i = 0; i < UNDO_MAPS; i++) {
      if (i != record.undo) {
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
    for (Snapshot s : snapshots.values()) {
      s.discard(s.version < version ? "a later version was committed"
          : "batch " + (version - 1) + " was re-run and committed it again");
    }
    snapshots.clear();
    setCommitted(version, record);
  }

  /**
   * Takes {@code record} of {@code version} as committed, and the snapshot of the version; publishes
   * it to other threads, registered with MVStore as in use (see {@link Committed}), and releases
   * the previous one.
   */
  private void setCommitted(long version, VersionRecord record) {
    latestVersion = version;
    committed = record;
    committedUndoRoot = undo[record.undo].getRoot();
    RootReference<byte[], byte[]> dataRoot = data.getRoot();
    snapshots.put(version, Snapshot.latest(version, dataRoot));
    Committed previous = current;
    current = new Committed(Snapshot.latest(version, dataRoot), record.previous == NO_PREVIOUS
        ? null : new Snapshot(version - 1, dataRoot, committedUndoRoot, record.previousKeys));
    if (previous != null) {
      previous.release();
    }
  }

  /** Aborts a store still open for update, then closes the file; idempotent. */
  @Override public void close() {
    if (closed) {
      return;
    }
    try {
      if (openStore != null && !openStore.done) {
        openStore.abort();
      }
    } finally {
      closed = true;
      for (Snapshot s : snapshots.values()) {
        s.discard("the provider is closed");
      }
      snapshots.clear();
      // Pins still open can no longer read (checkNotClosed), so their usage can go too.
      for (Committed c : registered) {
        c.deregister();
      }
      try {
        mvStore.close();
      } catch (MVStoreException e) {
        throw new StateStoreException("Cannot close " + file + " of " + id, e);
      }
    }
  }

  /**
   * Closes the file without writing anything, as if the process died; for tests of recovery.
   * A store open for update is left as MVStore last wrote it.
   */
  void closeAbruptly() {
    closed = true;
    for (Snapshot s : snapshots.values()) {
      s.discard("the provider is closed");
    }
    snapshots.clear();
    mvStore.closeImmediately();
  }

  /** MVStore's current version: it advances each time MVStore writes, also in a batch. */
  long mvStoreVersion() {
    return mvStore.getCurrentVersion();
  }

  private void checkNotClosed() {
    if (closed) {
      throw new StateStoreException(id + " is closed");
    }
  }

  private StateStoreException failure(String what, long version, RuntimeException e) {
    return new StateStoreException("Cannot " + what + " version " + version + " of " + id
        + " in " + file, e);
  }

  /**
   * Value of the versions map: the committed undo map's number, the rollback undo map's number
   * ({@link #NO_ROLLBACK} when no store is open), the version the committed undo map restores
   * ({@link #NO_PREVIOUS} if none) and that version's number of keys; 8 bytes each, big-endian.
   */
  record VersionRecord(int undo, int rollback, long previous, long previousKeys) {
    static VersionRecord decode(byte[] value) {
      ByteBuffer b = ByteBuffer.wrap(value);
      return new VersionRecord((int) b.getLong(0), (int) b.getLong(8), b.getLong(16),
          b.getLong(24));
    }

    byte[] encode() {
      return ByteBuffer.allocate(32).putLong(undo).putLong(rollback).putLong(previous)
          .putLong(previousKeys).array();
    }

    VersionRecord withRollback(int map) {
      return new VersionRecord(undo, map, previous, previousKeys);
    }
  }

  /**
   * One committed version as MVStore holds it: the data map's committed root and, for the version
   * before the latest, the undo map's committed root read over it.
   */
  private static final class Snapshot {
    final long version;
    final RootReference<byte[], byte[]> data;
    /** Null for the latest version; for the one before, where its values differ from the latest. */
    final RootReference<byte[], byte[]> undo;
    private final long numKeys;
    /** Why the version can no longer be read, or null while it can; set by any thread. */
    volatile String discarded;

    Snapshot(long version, RootReference<byte[], byte[]> data, RootReference<byte[], byte[]> undo,
        long numKeys) {
      this.version = version;
      this.data = data;
      this.undo = undo;
      this.numKeys = numKeys;
    }

    static Snapshot latest(long version, RootReference<byte[], byte[]> data) {
      return new Snapshot(version, data, null, data.getTotalCount());
    }

    long numKeys() {
      return numKeys;
    }

    void discard(String why) {
      discarded = why;
    }
  }

  /**
   * The latest committed version {@code L} as MVStore held it right after its commit: the roots of
   * the data map and, if {@code L > 0}, of the committed undo map. Pins of {@code L} and
   * {@code L - 1} read them on other threads.
   *
   * <p>MVStore frees a chunk once every page in it was replaced in a version older than its oldest
   * version in use ({@link MVStore#registerVersionUsage()}). The usage registered here, right after
   * the commit, is of the MVStore version in which every later change to those roots' pages is
   * made, so none of their chunks is freed while it is registered: until the provider's reference
   * (released when the next version is committed, or the provider closed) and every pin's are
   * released. The provider's own {@code versionsToKeep} setting keeps chunks only for the batch
   * thread's read stores, which die at the next commit; this one is what pins rely on.
   */
  private final class Committed {
    final long version;
    /** The version's roots; what pins of it copy. */
    private final Snapshot latest;
    /** The roots of {@code version - 1}; null for version 0. */
    private final Snapshot previous;
    private final MVStore.TxCounter usage;
    /** The provider's reference and one per pin or change read; at 0 the usage is deregistered. */
    private final AtomicInteger references = new AtomicInteger(1);
    private final AtomicBoolean deregistered = new AtomicBoolean();

    /** Registers the usage of MVStore's current version: call right after the commit. */
    Committed(Snapshot latest, Snapshot previous) {
      this.version = latest.version;
      this.latest = latest;
      this.previous = previous;
      this.usage = mvStore.registerVersionUsage();
      registered.add(this);
    }

    /** The oldest version these roots can read, and the oldest whose changes they hold. */
    long oldest() {
      return previous == null ? version : version - 1;
    }

    /** A snapshot of {@code version} or {@code version - 1} of its own, for a pin. */
    Snapshot snapshot(long at) {
      Snapshot roots = at == version ? latest : previous;
      return new Snapshot(roots.version, roots.data, roots.undo, roots.numKeys());
    }

    /** Adds a reference unless the last was released; whether it did. */
    boolean retain() {
      int n;
      do {
        n = references.get();
        if (n == 0) {
          return false;
        }
      } while (!references.compareAndSet(n, n + 1));
      return true;
    }

    void release() {
      if (references.decrementAndGet() == 0) {
        deregister();
      }
    }

    /** Lets MVStore free the chunks only these roots read; once. */
    void deregister() {
      if (deregistered.compareAndSet(false, true)) {
        registered.remove(this);
        if (!mvStore.isClosed()) {
          mvStore.deregisterVersionUsage(usage);
        }
      }
    }
  }

  /**
   * A pinned version: a snapshot of its own, over roots kept by a {@link Committed}; each read
   * makes its own codec, so that any number of threads may read at once.
   */
  private final class Pin extends ReadStore implements PinnedStateStore<K, V> {
    private final Committed committedVersion;
    private final AtomicBoolean open = new AtomicBoolean(true);

    Pin(Committed committedVersion, Snapshot snapshot) {
      super(snapshot);
      this.committedVersion = committedVersion;
    }

    @Override Codec codec() {
      return new Codec();
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

  /** Reads one committed version through its snapshot. */
  private class ReadStore implements ReadStateStore<K, V> {
    final Snapshot snapshot;

    ReadStore(Snapshot snapshot) {
      this.snapshot = snapshot;
    }

    /** The codec a read uses: the provider's, on the batch thread. */
    Codec codec() {
      return codec;
    }

    @Override public StateStoreId id() {
      return id;
    }

    @Override public long version() {
      return snapshot.version;
    }

    @Override public V get(K key) {
      return snapshotGet(snapshot, key, codec());
    }

    @Override public Iterable<Map.Entry<K, V>> entries() {
      return () -> snapshotIterator(snapshot, codec());
    }

    @Override public long numKeys() {
      checkSnapshot(snapshot);
      return snapshot.numKeys();
    }

    @Override public void abort() {
    }
  }

  /** Reads {@code key} in {@code snapshot}, encoding and decoding with {@code codec}. */
  @SuppressWarnings("unchecked")
  private V snapshotGet(Snapshot snapshot, K key, Codec codec) {
    checkSnapshot(snapshot);
    byte[] encoded = codec.encode(key);
    byte[] value = null;
    try {
      if (snapshot.undo != null) {
        // Any undo map reads any root: the map lends only its key order.
        value = undo[0].get(snapshot.undo.root, encoded);
      }
      if (value == null) {
        value = data.get(snapshot.data.root, encoded);
      }
    } catch (MVStoreException e) {
      throw failure("read", snapshot.version, e);
    }
    return value == null || value.length == 0 ? null
        : (V) codec.decode(value, snapshot.version);
  }

  private Iterator<Map.Entry<K, V>> snapshotIterator(Snapshot snapshot, Codec codec) {
    checkSnapshot(snapshot);
    return new EntryIterator(new Cursor<>(snapshot.data, null, null),
        snapshot.undo == null ? null : new Cursor<>(snapshot.undo, null, null),
        snapshot, snapshot.version, codec);
  }

  private void checkSnapshot(Snapshot snapshot) {
    // Only a closed provider leaves a finished store without the snapshot it reads.
    checkNotClosed();
    if (snapshot.discarded != null) {
      throw new StateStoreException("Version " + snapshot.version + " of " + id
          + " can no longer be read: " + snapshot.discarded);
    }
  }

  @SuppressWarnings("unchecked")
  private V decode(byte[] value, long version) {
    return (V) codec.decode(value, version);
  }

  /**
   * Streams entries from a cursor over the data map, decoding each as it is reached; for the
   * version before the latest, merges in a cursor over the undo map, whose entries replace the
   * data map's (and whose empty values remove them). Checks before each step that the snapshot it
   * reads (if any) is still valid.
   */
  private final class EntryIterator implements Iterator<Map.Entry<K, V>> {
    private final Cursor<byte[], byte[]> cursor;
    private final Cursor<byte[], byte[]> undoCursor;
    private final Snapshot snapshot;
    private final long version;
    private final Codec codec;
    /** The data cursor's entry not yet merged, or null. */
    private byte[] dataKey;
    private byte[] dataValue;
    /** The undo cursor's entry not yet merged, or null. */
    private byte[] undoKey;
    private byte[] undoValue;
    /** The next entry to return, or null when not found yet (or there is none). */
    private byte[] nextKey;
    private byte[] nextValue;

    EntryIterator(Cursor<byte[], byte[]> cursor, Cursor<byte[], byte[]> undoCursor,
        Snapshot snapshot, long version, Codec codec) {
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
        throw failure("read", version, e);
      }
      return true;
    }

    private void check() {
      if (snapshot != null) {
        checkSnapshot(snapshot);
      } else {
        checkNotClosed();
      }
    }
  }

  /**
   * Writable version: reads and writes the head of the data map, which holds {@link #version}
   * once {@link #getStore} applied the committed undo if needed. Before it changes a key in the
   * data map it records the key's value in the rollback map (in the latest committed version) and
   * in the next undo map (in {@link #version}); the two are one map unless the store re-runs the
   * batch before the latest. After commit or abort it reads the version it produced (or kept)
   * through that version's snapshot.
   */
  private final class WriteStore implements StateStore<K, V> {
    private final long version;
    /** Number of the undo map that restores the latest committed version: what abort applies. */
    private final int rollback;
    /** Number of the undo map that restores {@link #version}: the committed one after commit. */
    private final int next;
    /** How many keys {@link #version} has: what the commit records for the next undo map. */
    private final long baseKeys;
    /**
     * Writes not yet applied to {@link #data}, by encoded key; {@link #REMOVED} marks a removal.
     * Reads look here first.
     */
    private final TreeMap<byte[], byte[]> pending = new TreeMap<>(UnsignedBytesType.INSTANCE);
    /** Estimated heap taken by {@link #pending}. */
    private long pendingBytes;
    private boolean done;
    private boolean committedFlag;
    /** After commit or abort, the version this store reads. */
    private Snapshot after;

    WriteStore(long version, int rollback, int next, long baseKeys) {
      this.version = version;
      this.rollback = rollback;
      this.next = next;
      this.baseKeys = baseKeys;
    }

    @Override public StateStoreId id() {
      return id;
    }

    @Override public long version() {
      return version;
    }

    @Override public V get(K key) {
      if (done) {
        return snapshotGet(after, key, codec);
      }
      checkNotClosed();
      byte[] encoded = codec.encode(key);
      byte[] value = pending.get(encoded);
      if (value == null) {
        try {
          value = data.get(encoded);
        } catch (MVStoreException e) {
          throw failure("read", version, e);
        }
      } else if (value == REMOVED) {
        return null;
      }
      return value == null ? null : decode(value, version);
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
      if (pendingBytes > options.writeBufferKb() * 1024L) {
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
      MVMap<byte[], byte[]> rollbackMap = undo[rollback];
      MVMap<byte[], byte[]> nextMap = undo[next];
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
        throw failure("update", version, e);
      }
      pending.clear();
      pendingBytes = 0;
    }

    @Override public Iterable<Map.Entry<K, V>> entries() {
      if (done) {
        Snapshot s = after;
        return () -> snapshotIterator(s, codec);
      }
      checkNotClosed();
      return () -> {
        if (done) {
          return snapshotIterator(after, codec);
        }
        checkNotClosed();
        flush();
        // A cursor reads the root it starts from: later writes do not disturb the iteration.
        return new EntryIterator(data.cursor(null), null, null, version, codec);
      };
    }

    @Override public long numKeys() {
      if (done) {
        checkSnapshot(after);
        return after.numKeys();
      }
      checkNotClosed();
      flush();
      return data.sizeAsLong();
    }

    @Override public long commit() {
      checkOpen();
      long nextVersion = version + 1;
      try {
        flush();
        commitRecord(nextVersion, new VersionRecord(next, NO_ROLLBACK, version, baseKeys));
      } catch (MVStoreException e) {
        throw new StateStoreException("Cannot commit version " + nextVersion + " of " + id
            + " to " + file, e);
      }
      after = snapshots.get(nextVersion);
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
      if (closed) {
        return;
      }
      // The committed roots are untouched by the store's writes, so this reads its version.
      after = snapshot(version);
      try {
        rollBack(rollback, next);
      } catch (MVStoreException e) {
        throw new StateStoreException("Cannot abort version " + version + " of " + id
            + ": undoing its changes to " + file + " failed", e);
      }
    }

    @Override public boolean hasCommitted() {
      return committedFlag;
    }

    private void checkOpen() {
      if (done) {
        throw new StateStoreException("Version " + version + " of " + id
            + " was already " + (committedFlag ? "committed" : "aborted"));
      }
      checkNotClosed();
    }
  }

  /**
   * Encodes to and decodes from byte arrays with {@link StateCodec}, reusing its streams; confined
   * to one thread: the provider's to the batch thread, pins and change reads make their own.
   */
  private final class Codec {
    private final Bytes bytes = new Bytes();
    private final DataOutputStream out = new DataOutputStream(bytes);
    private final Input input = new Input();
    private final DataInputStream in = new DataInputStream(input);

    byte[] encode(Object value) {
      bytes.reset();
      try {
        StateCodec.write(out, value);
      } catch (IOException e) {
        // A ByteArrayOutputStream does not fail; StateCodec rejects what it cannot encode with an
        // IllegalArgumentException.
        throw new IllegalStateException(e);
      }
      return bytes.toByteArray();
    }

    Object decode(byte[] encoded, long version) {
      input.reset(encoded);
      try {
        return StateCodec.read(in);
      } catch (IOException e) {
        throw new StateStoreException("Corrupt entry in version " + version + " of " + id
            + " in " + file, e);
      }
    }
  }

  /** Output buffer whose contents are copied out once per value. */
  private static final class Bytes extends ByteArrayOutputStream {
    Bytes() {
      super(64);
    }
  }

  /** Input over one byte array at a time, so that one {@link DataInputStream} serves all reads. */
  private static final class Input extends ByteArrayInputStream {
    Input() {
      super(new byte[0]);
    }

    void reset(byte[] b) {
      buf = b;
      pos = 0;
      count = b.length;
      mark = 0;
    }
  }
}
