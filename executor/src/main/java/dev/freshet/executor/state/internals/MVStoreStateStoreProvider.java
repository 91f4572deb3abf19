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
import java.nio.file.Path;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;

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
 * <p><b>Classes.</b> This class is the provider's API; {@link MVStoreFile} holds the file, its
 * maps and versions, {@link MVStoreWriteStore} is the store open for update,
 * {@link MVStoreReadStore} and {@link MVStorePin} read a committed version's
 * {@link MVStoreSnapshot}, and {@link MVStoreCommitted} keeps the roots pins read.
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
  /** The file, its maps and its committed versions. */
  private final MVStoreFile store;
  private final MVStoreCodec codec;
  /** The store open for update, or null; at most one at a time. */
  private MVStoreWriteStore<K, V> openStore;

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
  public MVStoreStateStoreProvider(StateStoreSpec spec, Options options) {
    requireNonNull(spec, "spec");
    this.options = requireNonNull(options, "options");
    this.id = spec.id();
    this.store = new MVStoreFile(spec, options);
    this.codec = new MVStoreCodec(id, store.file);
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
    return store.file;
  }

  /** The latest committed version. */
  public long latestVersion() {
    store.checkNotClosed();
    return store.latestVersion();
  }

  /** {@inheritDoc} On any thread. */
  @Override public long latestCommittedVersion() {
    store.checkNotClosed();
    return store.current().version;
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
    MVStoreCommitted c = retainCurrent();
    try {
      if (version < 0 || version > c.version) {
        throw StateStoreException.notCommitted(id, version, c.version);
      }
      if (version < c.oldest()) {
        throw StateStoreException.notRetained(id, version, c.oldest());
      }
      MVStorePin<K, V> pin = new MVStorePin<>(store, c, c.snapshot(version));
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
    MVStoreCommitted c = retainCurrent();
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
      MVStoreCodec reader = new MVStoreCodec(id, store.file);
      MVMap<byte[], byte[]> data = store.data;
      Cursor<byte[], byte[]> changed = new Cursor<>(c.previous().undo, null, null);
      while (changed.hasNext()) {
        byte[] key = changed.next();
        byte[] oldValue = changed.getValue();
        byte[] newValue = data.get(c.latest().data.root, key);
        if (oldValue.length == 0 && newValue == null) {
          continue;
        }
        store.checkNotClosed();
        @SuppressWarnings("unchecked") K k = (K) reader.decode(key, to);
        @SuppressWarnings("unchecked") V o =
            oldValue.length == 0 ? null : (V) reader.decode(oldValue, from);
        @SuppressWarnings("unchecked") V n = newValue == null ? null : (V) reader.decode(newValue, to);
        visitor.change(to, k, o, n);
      }
    } catch (MVStoreException e) {
      throw store.failure("read the changes of", to, e);
    } finally {
      c.release();
    }
  }

  /** {@inheritDoc} {@code L - 1}, or 0 before the first commit; on any thread. */
  @Override public long oldestChangesVersion() {
    store.checkNotClosed();
    return store.current().oldest();
  }

  /** The latest committed version, retained for reading; the caller releases it. */
  private MVStoreCommitted retainCurrent() {
    while (true) {
      store.checkNotClosed();
      MVStoreCommitted c = store.current();
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
    store.checkNotClosed();
    if (openStore != null && !openStore.isDone()) {
      throw new StateStoreException("Version " + openStore.version() + " of " + id
          + " is already open for update; commit or abort it first");
    }
    openStore = new MVStoreWriteStore<>(store, codec, store.openForUpdate(version));
    return openStore;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The latest committed version and the one before it can be read (see the class comment);
   * reading the one before writes nothing.
   */
  @Override public ReadStateStore<K, V> getReadStore(long version) {
    store.checkNotClosed();
    store.checkLoadable(version);
    return new MVStoreReadStore<>(store, store.snapshot(version), codec);
  }

  /** Aborts a store still open for update, then closes the file; idempotent. */
  @Override public void close() {
    if (store.isClosed()) {
      return;
    }
    try {
      if (openStore != null && !openStore.isDone()) {
        openStore.abort();
      }
    } finally {
      store.close();
    }
  }

  /**
   * Closes the file without writing anything, as if the process died; for tests of recovery.
   * A store open for update is left as MVStore last wrote it.
   */
  void closeAbruptly() {
    store.closeAbruptly();
  }

  /** MVStore's current version: it advances each time MVStore writes, also in a batch. */
  long mvStoreVersion() {
    return store.mvStoreVersion();
  }
}
