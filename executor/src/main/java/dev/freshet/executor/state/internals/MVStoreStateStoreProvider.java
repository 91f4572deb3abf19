package dev.freshet.executor.state.internals;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateCodec;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
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
import java.util.PriorityQueue;
import java.util.TreeMap;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.RootReference;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.LongDataType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * State store provider that keeps the state in an H2 MVStore file, so that the state may be far
 * larger than the heap: only MVStore's page cache, a bounded buffer of the batch's writes and the
 * pages changed since MVStore last wrote are in memory ({@link Options}).
 *
 * <p><b>Versions.</b> Version {@code v} of the state store is the state after batch {@code v - 1}
 * (SEMANTICS.md §1); version 0 is empty. Each state version is one MVStore commit: {@link
 * StateStore#commit()} of a store opened at {@code v} commits the MVStore once and records, in the
 * same commit, {@code v + 1 -> m} in the {@code versions} map, where {@code m} is the MVStore version
 * that commit returned: the state at the beginning of MVStore version {@code m} is state version
 * {@code v + 1}. MVStore may write a batch's changes before the commit (whenever more than
 * {@link Options#pageBufferKb()} of changed pages are in memory; that is what bounds memory), so
 * several MVStore versions may lie between two state versions; none of them is ever named by the
 * {@code versions} map:
 * <ul>
 *   <li>{@link StateStore#abort()} rolls back to {@code m(v)} ({@link MVStore#rollbackTo}), undoing
 *       what the batch wrote, also what MVStore already wrote to the file;
 *   <li>opening the file rolls back to {@code m(latest)}: a process that died in the middle of a
 *       batch may have left that batch's first changes in the file, after the last commit;
 *   <li>{@link #getReadStore(long)} reads a snapshot: the root of the data map taken when the
 *       version was committed (or the file opened). MVStore's pages are copy-on-write, so the
 *       snapshot is immutable. {@link MVMap#openVersion} is not used: it finds a version through the
 *       chain of in-memory roots, which has no entry for a version in which the map did not change
 *       (a batch without data) and none for versions written before the file was opened, and in both
 *       cases it answers with a newer root instead of failing.
 * </ul>
 *
 * <p><b>Only the latest version.</b> Like {@link InMemoryStateStoreProvider}, this provider opens
 * only the latest committed version, so it cannot re-run an older batch, and it ignores
 * {@code spec.minVersionsToRetain()} and {@code spec.minDeltasForSnapshot()}. Rolling MVStore
 * (2.3.232) back to a commit older than the last is not reliable once the file's space has been
 * reused: {@code rollbackTo} re-reads the store header, which verifies the newest chunks that the
 * old version's layout lists and, when one of them has been overwritten since, silently falls back
 * to an older complete version (the model test of {@code AbstractStateStoreProviderTest} found such
 * cases). Rolling back to the latest commit is safe, because chunks are freed only by a commit,
 * never between commits: each commit sets MVStore's {@code versionsToKeep} so that no chunk the new
 * version reads, or that rolling back to it verifies, is reused, and sets it back to unbounded
 * until the next commit, since MVStore's own writes in the middle of a batch would otherwise count
 * against it.
 *
 * <p><b>File layout.</b> One file, {@code <spec.directory()>/state.mv.db}, an MVStore with three maps:
 * {@code data} (key and value each a {@link StateCodec} encoding; keys are ordered by their
 * encodings' unsigned bytes), {@code versions} (one entry: the latest state version to its
 * MVStore version and the version from which chunks are kept, two big-endian longs) and
 * {@code info} ({@code layout} = {@value #LAYOUT_VERSION}, {@code codec} = the
 * {@link StateCodec#FORMAT_VERSION}, {@code store} = the store id it was created for). A file with
 * another layout or codec version is rejected by name. Commits are fsynced unless
 * {@link Options#syncOnCommit()} is off, so a committed version survives a crash of the machine,
 * not only of the process.
 *
 * <p><b>Writes.</b> A store collects its writes, encoded, in a buffer sorted by key and applies
 * them to the data map in that order when the buffer is full ({@link Options#writeBufferKb()}),
 * when it is iterated or counted, and on commit. An aggregation writes its keys in hash order, so
 * applying each write at once would rewrite a whole B-tree page (48 entries) per write once the
 * state is larger than the page cache; in key order, consecutive writes share pages.
 *
 * <p><b>Keys and values.</b> Both are encoded with {@link StateCodec} when they are handed to the
 * store, so a caller may reuse them afterwards, and decoded on every read, so values read are fresh
 * copies. Two keys are the same key when their encodings are equal, which agrees with
 * {@link Object#equals} for every key {@link StateCodec} can encode except sets, which are not keys.
 * Null is a key like any other.
 *
 * <p><b>Lifecycle and threads.</b> The constructor opens (or creates) the file; {@link #close()}
 * rolls back a store still open for update and closes the file; it is idempotent. At most one
 * store is open for update at a time; read stores may be open beside it. Like every provider, this
 * one and its stores are used by one thread at a time (the query's batch thread): they share
 * encoding buffers, and MVStore's background writer is off, so nothing of the provider runs between
 * calls. A read store stays valid until a later version is committed or the provider is closed;
 * then it throws.
 *
 * <pre>{@code
 * try (MVStoreStateStoreProvider<Object, Object[]> provider = new MVStoreStateStoreProvider<>(spec)) {
 *   StateStore<Object, Object[]> store = provider.getStore(batchId);
 *   store.put(key, row);
 *   long next = store.commit();   // == batchId + 1
 * }
 * }</pre>
 *
 * @param <K> key type: a value or a {@link dev.freshet.executor.operators.GroupKey} that
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
  /** Marks a removal among a store's pending writes; no encoded value is empty. */
  private static final byte[] REMOVED = new byte[0];
  /** Heap a pending write takes besides its bytes: a tree entry and two array headers. */
  private static final int PENDING_ENTRY_BYTES = 72;
  /** How many of the newest chunks MVStore verifies when it reads its header (rollbackTo does). */
  private static final int VERIFIED_CHUNKS = 20;

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
  /** State version to {@link MVVersion}; the last key is the latest committed version. */
  private final MVMap<Long, byte[]> versions;
  /**
   * Snapshots of committed versions that read stores may still use; only the latest can be
   * opened, the others are discarded as soon as a later version is committed.
   */
  private final TreeMap<Long, Snapshot> snapshots = new TreeMap<>();
  private final Codec codec = new Codec();
  /** The latest committed state version, the last key of {@link #versions}. */
  private long latestVersion;
  /** The store open for update, or null; at most one at a time. */
  private WriteStore openStore;
  private boolean closed;

  /** Opens or creates the store's file with {@link Options#DEFAULT}. */
  public MVStoreStateStoreProvider(StateStoreSpec spec) {
    this(spec, Options.DEFAULT);
  }

  /**
   * Opens the store's file, creating it (with version 0, empty) if it does not exist.
   *
   * @throws StateStoreException if the file cannot be opened (for example because another
   *     provider has it open), or was written with another layout or codec version
   */
  public MVStoreStateStoreProvider(StateStoreSpec spec, Options options) {
    requireNonNull(spec, "spec");
    this.options = requireNonNull(options, "options");
    this.id = spec.id();
    this.file = spec.directory().resolve(FILE_NAME);
    try {
      Files.createDirectories(spec.directory());
    } catch (IOException e) {
      throw new StateStoreException("Cannot create directory " + spec.directory() + " of " + id, e);
    }
    MVStore opened;
    try {
      opened = new MVStore.Builder()
          .fileName(file.toString())
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
      // Nothing may be dropped until a commit says what the latest version needs.
      mvStore.setVersionsToKeep(Integer.MAX_VALUE);
      if (options.syncOnCommit()) {
        // MVStore's retention time (45 s) keeps dead chunks in case unsynced writes are lost.
        // Commits are synced, chunks are freed only by commits, and never while the latest
        // version needs them; reusing their space at once keeps the file near its live size.
        mvStore.setRetentionTime(0);
      }
      MVMap<String, String> info = mvStore.openMap(INFO_MAP);
      this.data = mvStore.openMap(DATA_MAP,
          new MVMap.Builder<byte[], byte[]>().keyType(BytesType.INSTANCE)
              .valueType(BytesType.INSTANCE));
      this.versions = mvStore.openMap(VERSIONS_MAP,
          new MVMap.Builder<Long, byte[]>().keyType(LongDataType.INSTANCE)
              .valueType(BytesType.INSTANCE));
      if (versions.isEmpty()) {
        create(info);
      } else {
        checkFormat(info);
        recover();
      }
      snapshots.put(latestVersion, new Snapshot(latestVersion, data.getRoot()));
    } catch (RuntimeException e) {
      mvStore.closeImmediately();
      if (e instanceof StateStoreException) {
        throw e;
      }
      throw new StateStoreException("Cannot open " + file + " of " + id, e);
    }
  }

  /** Writes the info map and commits version 0. */
  private void create(MVMap<String, String> info) {
    info.put("layout", Integer.toString(LAYOUT_VERSION));
    info.put("codec", Integer.toString(StateCodec.FORMAT_VERSION));
    info.put("store", id.toString());
    commitVersion(0);
    latestVersion = 0;
  }

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

  /** Goes back to the latest committed version, dropping what an unfinished batch wrote. */
  private void recover() {
    latestVersion = versions.lastKey();
    long committed = MVVersion.committed(versions.get(latestVersion));
    long head = mvStore.getCurrentVersion();
    if (head != committed) {
      mvStore.rollbackTo(committed);
      LOG.info("{}: rolled {} back from MVStore version {} to {}, the commit of state version {}",
          id, file, head, committed, latestVersion);
    }
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

  /**
   * {@inheritDoc}
   *
   * <p>Only the latest committed version can be opened (see the class comment).
   */
  @Override public StateStore<K, V> getStore(long version) {
    checkNotClosed();
    if (openStore != null && !openStore.done) {
      throw new StateStoreException("Version " + openStore.version + " of " + id
          + " is already open for update; commit or abort it first");
    }
    try {
      openStore = new WriteStore(version, mvVersionOf(version));
      return openStore;
    } catch (MVStoreException e) {
      throw new StateStoreException("Cannot load version " + version + " of " + id + " from "
          + file, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Only the latest committed version can be read.
   */
  @Override public ReadStateStore<K, V> getReadStore(long version) {
    checkNotClosed();
    try {
      mvVersionOf(version);
    } catch (MVStoreException e) {
      throw new StateStoreException("Cannot load version " + version + " of " + id + " from "
          + file, e);
    }
    return new ReadStore(snapshots.get(version));
  }

  /** Returns the MVStore version that holds {@code version}, or throws unless it is the latest. */
  private long mvVersionOf(long version) {
    if (version != latestVersion) {
      throw StateStoreException.cannotLoad(id, version,
          "this provider opens only the latest committed version, " + latestVersion);
    }
    return MVVersion.committed(versions.get(version));
  }

  /**
   * Commits the MVStore as state version {@code newVersion} and returns the MVStore version that
   * holds it; forgets the previous version.
   */
  private long commitVersion(long newVersion) {
    while (!versions.isEmpty()) {
      versions.remove(versions.firstKey());
    }
    // The recorded MVStore version must be the one the commit below creates. A write lets MVStore
    // first write out the changes so far if its buffer is full, which advances its version; after
    // writing out everything here, there is nothing it could write before the put (one put: a
    // second could find the buffer full again).
    if (mvStore.hasUnsavedChanges()) {
      mvStore.commit();
    }
    long expected = mvStore.getCurrentVersion() + 1;
    long floor = Math.min(expected - 1, verifiedChunksFloor());
    versions.put(newVersion, MVVersion.encode(expected, floor));
    if (mvStore.getCurrentVersion() + 1 != expected) {
      throw new StateStoreException("Commit of version " + newVersion + " of " + id
          + ": MVStore wrote before its version was recorded");
    }
    // No chunk that the new version reads, or that rolling back to it verifies, may be reused.
    mvStore.setVersionsToKeep((int) Math.min(Integer.MAX_VALUE, expected - floor));
    long result;
    try {
      result = mvStore.commit();
    } finally {
      mvStore.setVersionsToKeep(Integer.MAX_VALUE);
    }
    if (result != expected) {
      throw new StateStoreException("Commit of version " + newVersion + " of " + id + " produced"
          + " MVStore version " + result + " instead of " + expected);
    }
    if (options.syncOnCommit()) {
      mvStore.sync();
    }
    while (!snapshots.isEmpty() && snapshots.firstKey() < newVersion) {
      snapshots.pollFirstEntry().getValue().discard("a later version was committed");
    }
    return expected;
  }

  /**
   * The oldest MVStore version among the chunks that rolling back to the version about to be
   * committed will verify: {@link MVStore#rollbackTo} re-reads the store header, which checks the
   * {@value #VERIFIED_CHUNKS} newest chunks the layout lists and, if one of them was reused,
   * silently goes back to an older version instead. Those chunks may be ones the version no longer
   * reads, so keeping what it reads does not keep them.
   */
  private long verifiedChunksFloor() {
    PriorityQueue<Long> newest = new PriorityQueue<>();
    for (Map.Entry<String, String> e : mvStore.getLayoutMap().entrySet()) {
      if (e.getKey().startsWith("chunk.")) {
        newest.add(DataUtils.readHexLong(DataUtils.parseMap(e.getValue()), "version", 0));
        if (newest.size() > VERIFIED_CHUNKS) {
          newest.poll();
        }
      }
    }
    return newest.isEmpty() ? 0 : newest.peek();
  }

  /** Rolls back a store still open for update, then closes the file; idempotent. */
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

  /** MVStore's current version: differs from the commit of the open version once MVStore wrote. */
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
   * Value of the versions map: the MVStore version whose beginning holds the state version, then
   * the floor from which MVStore must keep chunks so that rolling back to it works; 8 bytes each,
   * big-endian.
   */
  private static final class MVVersion {
    private MVVersion() {
    }

    static byte[] encode(long committed, long floor) {
      return ByteBuffer.allocate(16).putLong(committed).putLong(floor).array();
    }

    static long committed(byte[] value) {
      return ByteBuffer.wrap(value).getLong(0);
    }

    static long floor(byte[] value) {
      return ByteBuffer.wrap(value).getLong(8);
    }
  }

  /** The root of the data map at one committed version. */
  private static final class Snapshot {
    final long version;
    final RootReference<byte[], byte[]> root;
    /** Why the version can no longer be read, or null while it can. */
    String discarded;

    Snapshot(long version, RootReference<byte[], byte[]> root) {
      this.version = version;
      this.root = root;
    }

    void discard(String why) {
      discarded = why;
    }
  }

  /** Reads one committed version through its snapshot. */
  private final class ReadStore implements ReadStateStore<K, V> {
    private final Snapshot snapshot;

    ReadStore(Snapshot snapshot) {
      this.snapshot = snapshot;
    }

    @Override public StateStoreId id() {
      return id;
    }

    @Override public long version() {
      return snapshot.version;
    }

    @Override public V get(K key) {
      return snapshotGet(snapshot, key);
    }

    @Override public Iterable<Map.Entry<K, V>> entries() {
      return () -> snapshotIterator(snapshot);
    }

    @Override public long numKeys() {
      checkSnapshot(snapshot);
      return snapshot.root.getTotalCount();
    }

    @Override public void abort() {
    }
  }

  private V snapshotGet(Snapshot snapshot, K key) {
    checkSnapshot(snapshot);
    byte[] value;
    try {
      value = data.get(snapshot.root.root, codec.encode(key));
    } catch (MVStoreException e) {
      throw failure("read", snapshot.version, e);
    }
    return value == null ? null : decode(value, snapshot.version);
  }

  private Iterator<Map.Entry<K, V>> snapshotIterator(Snapshot snapshot) {
    checkSnapshot(snapshot);
    return new EntryIterator(new Cursor<>(snapshot.root, null, null), snapshot, snapshot.version);
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
   * Streams entries from a cursor, decoding each as it is reached; checks before each step that
   * the snapshot it reads (if any) is still valid.
   */
  private final class EntryIterator implements Iterator<Map.Entry<K, V>> {
    private final Cursor<byte[], byte[]> cursor;
    private final Snapshot snapshot;
    private final long version;

    EntryIterator(Cursor<byte[], byte[]> cursor, Snapshot snapshot, long version) {
      this.cursor = cursor;
      this.snapshot = snapshot;
      this.version = version;
    }

    @Override public boolean hasNext() {
      check();
      return cursor.hasNext();
    }

    @SuppressWarnings("unchecked")
    @Override public Map.Entry<K, V> next() {
      check();
      if (!cursor.hasNext()) {
        throw new NoSuchElementException();
      }
      byte[] key = cursor.next();
      return new AbstractMap.SimpleImmutableEntry<>((K) codec.decode(key, version),
          decode(cursor.getValue(), version));
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
   * Writable version: reads and writes the head of the data map. After commit or abort it reads
   * the version it produced (or kept) through that version's snapshot.
   */
  private final class WriteStore implements StateStore<K, V> {
    private final long version;
    /** MVStore version holding {@link #version}: what abort rolls back to. */
    private final long committedMvVersion;
    /**
     * Writes not yet applied to {@link #data}, by encoded key; {@link #REMOVED} marks a removal.
     * Reads look here first.
     */
    private final TreeMap<byte[], byte[]> pending = new TreeMap<>(BytesType.INSTANCE);
    /** Estimated heap taken by {@link #pending}. */
    private long pendingBytes;
    private boolean done;
    private boolean committedFlag;
    /** After commit or abort, the version this store reads. */
    private Snapshot after;

    WriteStore(long version, long committedMvVersion) {
      this.version = version;
      this.committedMvVersion = committedMvVersion;
    }

    @Override public StateStoreId id() {
      return id;
    }

    @Override public long version() {
      return version;
    }

    @Override public V get(K key) {
      if (done) {
        return snapshotGet(after, key);
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

    /** Applies the pending writes to the data map in key order. */
    private void flush() {
      if (pending.isEmpty()) {
        return;
      }
      try {
        for (Map.Entry<byte[], byte[]> e : pending.entrySet()) {
          if (e.getValue() == REMOVED) {
            data.remove(e.getKey());
          } else {
            data.put(e.getKey(), e.getValue());
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
        return () -> snapshotIterator(s);
      }
      checkNotClosed();
      return () -> {
        if (done) {
          return snapshotIterator(after);
        }
        checkNotClosed();
        flush();
        // A cursor reads the root it starts from: later writes do not disturb the iteration.
        return new EntryIterator(data.cursor(null), null, version);
      };
    }

    @Override public long numKeys() {
      if (done) {
        checkSnapshot(after);
        return after.root.getTotalCount();
      }
      checkNotClosed();
      flush();
      return data.sizeAsLong();
    }

    @Override public long commit() {
      checkOpen();
      long next = version + 1;
      try {
        flush();
        commitVersion(next);
      } catch (MVStoreException e) {
        throw new StateStoreException("Cannot commit version " + next + " of " + id + " to "
            + file, e);
      }
      latestVersion = next;
      after = new Snapshot(next, data.getRoot());
      snapshots.put(next, after);
      done = true;
      committedFlag = true;
      return next;
    }

    @Override public void abort() {
      if (done) {
        return;
      }
      done = true;
      after = snapshots.get(version);
      pending.clear();
      pendingBytes = 0;
      if (closed) {
        return;
      }
      try {
        mvStore.rollbackTo(committedMvVersion);
      } catch (MVStoreException e) {
        throw new StateStoreException("Cannot abort version " + version + " of " + id + ": rolling "
            + file + " back to MVStore version " + committedMvVersion + " failed", e);
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
   * to the batch thread like the provider.
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

  /**
   * MVStore type of the keys and values of the data map: a byte array stored as its length
   * (variable-size int) and its bytes, ordered by unsigned byte comparison.
   */
  static final class BytesType extends BasicDataType<byte[]> {
    static final BytesType INSTANCE = new BytesType();

    private BytesType() {
    }

    @Override public int compare(byte[] a, byte[] b) {
      return Arrays.compareUnsigned(a, b);
    }

    @Override public int getMemory(byte[] b) {
      // Array header and length word, as MVStore estimates a page's memory.
      return 24 + b.length;
    }

    @Override public void write(WriteBuffer buffer, byte[] b) {
      buffer.putVarInt(b.length).put(b);
    }

    @Override public byte[] read(ByteBuffer buffer) {
      byte[] b = new byte[DataUtils.readVarInt(buffer)];
      buffer.get(b);
      return b;
    }

    @Override public byte[][] createStorage(int size) {
      return new byte[size][];
    }
  }
}
