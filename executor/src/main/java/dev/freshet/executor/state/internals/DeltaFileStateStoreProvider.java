package dev.freshet.executor.state.internals;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.PinnedStateStore;
import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateCodec;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreMaintenance;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.VersionChangeVisitor;
import dev.freshet.executor.state.internals.StateFiles.CorruptStateFileException;
import dev.freshet.executor.storage.DurableFiles;
import dev.freshet.executor.storage.StorageException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Freshet's default state store provider: Spark's {@code HDFSBackedStateStoreProvider} design
 * (SEMANTICS.md §10). Versions live in memory; each commit writes one delta file, and maintenance
 * writes a snapshot now and then and deletes the files no retained version needs.
 *
 * <p>Keys are null, a single value or a {@link GroupKey}; values are rows ({@code Object[]});
 * both are encoded with {@link StateCodec}. The provider is not generic because the files hold
 * exactly what {@code StateCodec} encodes.
 *
 * <p><b>Files</b>, in {@link StateStoreSpec#directory()}:
 * <ul>
 *   <li>{@code <v>.delta}: the changes from version {@code v - 1} to {@code v}.
 *   <li>{@code <v>.snapshot}: every key of version {@code v}; when both exist it wins over the
 *       delta.
 *   <li>{@code .<name>.<random>.tmp}: a file being written, renamed to {@code <name>} once
 *       complete and synced; maintenance deletes those left by a crash.
 * </ul>
 * Both kinds start with a header, {@code int 0x46525354} ("FRST") and
 * {@code int StateCodec.FORMAT_VERSION}, followed by records and an end marker:
 * <pre>
 *   record   = int keySize, key bytes, int valueSize, value bytes   (a put)
 *            | int keySize, key bytes, int -1                       (a deletion; deltas only)
 *   end      = int -1
 * </pre>
 * Ints are big-endian; key and value bytes are one {@code StateCodec} value each. A delta holds
 * the puts and deletions in the order the store received them (a key put twice appears twice),
 * and a deletion only of a key that existed. Files are not compressed (Spark uses lz4): with
 * {@code java.util.zip} at its fastest level, a delta of 1M keys shrinks from 38 MB to 7 MB but
 * takes about 200 ms more to write, a third more than encoding it, while a local disk writes the
 * 38 MB in about 30 ms. A reader rejects,
 * naming the file, a bad magic number, another format version, a negative size, a size larger
 * than the rest of the file, an undecodable key or value, a missing end marker and bytes after it.
 *
 * <p><b>Update protocol.</b> {@link #getStore(long) getStore(v)} opens version {@code v} (0 is
 * empty) for update. Each {@code put} and effective {@code remove} is appended to the temporary
 * file of {@code (v+1).delta} at once; {@code commit()} writes the end marker, syncs, renames the
 * file (overwriting an existing {@code (v+1).delta}: a re-run batch replaces the version it
 * committed before a crash), caches the new version and returns {@code v + 1}. {@code abort()}
 * deletes the temporary file and changes nothing else. One store at a time may be open for update;
 * any number of read stores ({@link #getReadStore(long)}) beside it.
 *
 * <p><b>Loading</b> version {@code v}: from the version cache, else from the newest snapshot or
 * cached version at or before {@code v} plus the deltas after it, in order. The cache holds the
 * {@value #MAX_VERSIONS_IN_MEMORY} newest versions loaded or committed (the one the next batch
 * opens and the one a retried batch reopens); a version older than all of them is not added.
 *
 * <p><b>Memory.</b> Opening a version copies nothing: a store keeps its changes in a map of its
 * own beside the immutable version below. Committed versions share one base map and each keep a
 * delta of recent changes, folded into a new base once the merging has cost as much as a copy
 * (see {@code CommittedMap}). With {@code n} keys and {@code w} changes per batch, the two cached
 * versions hold at most {@code n + 2 sqrt(2 n w)} map entries, except in the batch after a fold,
 * when the older one still holds the previous base ({@code 2 n}, as Spark's two map copies
 * always do); committing costs {@code O(w + sqrt(n w))} amortized instead of Spark's
 * {@code O(n)} copy per batch. Values are shared between versions, which is why they must never
 * be modified. The maps are open-addressing tables ({@code ProbingMap}, about 17 bytes an entry)
 * and hold rows of longs, doubles and nulls packed into a {@code byte[]} ({@code PackedRow}), or
 * into a {@code long} of the table where that takes 8 bytes or less; an {@code Integer} key, or
 * a {@code Long} one within the int range, is kept as its hash. So a count-and-sum state row
 * with such a key takes about 30 bytes of heap (20 bytes a slot, no object) instead of about 60
 * (slot, {@code Integer}, {@code byte[]}) or 110 (a {@code HashMap}); {@code get} and iteration
 * return a new array each time.
 *
 * <p><b>Maintenance</b> ({@link #doMaintenance()}, see {@link StateStoreMaintenance}): if the
 * newest version on disk is cached and more than {@code minDeltasForSnapshot} deltas follow the
 * newest snapshot, writes its snapshot; then keeps the files that versions from
 * {@code latest - minVersionsToRetain} on need (the newest snapshot at or before that version and
 * later files) and deletes older ones, and deletes temporary files no writer holds.
 *
 * <p><b>Threads.</b> One thread (the query's batch thread) uses the provider and its stores;
 * {@link #doMaintenance()} and {@link #metrics()} may run on other threads at the same time.
 *
 * <pre>{@code
 * StateStoreId id = new StateStoreId(queryId, 0, partition);
 * DeltaFileStateStoreProvider provider = new DeltaFileStateStoreProvider(
 *     StateStoreSpec.of(id, checkpoint.resolve("state/0/" + partition)));
 * StateStore<Object, Object[]> store = provider.getStore(batchId);
 * store.put(key, row);
 * store.commit();   // writes <batchId + 1>.delta
 * }</pre>
 */
public final class DeltaFileStateStoreProvider implements StateStoreProvider<Object, Object[]> {
  /** Versions kept in memory: Spark's {@code maxBatchesToRetainInMemory} default. */
  public static final int MAX_VERSIONS_IN_MEMORY = 2;

  private static final Logger LOG = LoggerFactory.getLogger(DeltaFileStateStoreProvider.class);

  private final StateStoreSpec spec;
  private final StateStoreId id;
  private final Path directory;

  /**
   * Guards {@link #loaded}, the counters, {@link #writing}, {@link #closed}, and the renames of
   * finished files, so that maintenance never publishes a snapshot of a version that a commit has
   * just replaced.
   */
  private final Object lock = new Object();
  /** Cached versions by number; at most {@link #MAX_VERSIONS_IN_MEMORY}. */
  private final TreeMap<Long, CommittedMap> loaded = new TreeMap<>();
  private long cacheHits;
  private long cacheMisses;
  /** Commits that replaced an existing version; a snapshot begun before one is dropped. */
  private long overwrites;
  /** Temporary files being written, which maintenance must not delete. */
  private final Set<Path> writing = new HashSet<>();
  private boolean closed;
  /** Serializes {@link #doMaintenance()} between a maintenance thread and direct callers. */
  private final Object maintenanceLock = new Object();
  /** The store open for update, or null; used by the batch thread only. */
  private Store openStore;

  /** Creates the provider of {@code spec.id()}, whose files are in {@code spec.directory()}. */
  public DeltaFileStateStoreProvider(StateStoreSpec spec) {
    this.spec = requireNonNull(spec, "spec");
    this.id = spec.id();
    this.directory = spec.directory();
  }

  @Override public StateStoreId id() {
    return id;
  }

  /** The spec this provider was built from. */
  public StateStoreSpec spec() {
    return spec;
  }

  @Override public StateStore<Object, Object[]> getStore(long version) {
    checkNotClosed();
    if (openStore != null && openStore.isUpdating()) {
      throw new StateStoreException("Version " + openStore.version + " of " + id
          + " is already open for update; commit or abort it first");
    }
    openStore = new Store(version, load(version));
    return openStore;
  }

  @Override public ReadStateStore<Object, Object[]> getReadStore(long version) {
    checkNotClosed();
    return CommittedMapVersion.readStore(id, version, load(version));
  }

  /**
   * {@inheritDoc}
   *
   * <p>A pin is the version's immutable map: later commits build new maps beside it, so neither
   * side locks or copies anything; a pin held across a fold keeps the old base map reachable
   * until it is closed. Version 0 (empty) can always be pinned. A version the pin reads from files
   * is not cached (see {@link #load(long, boolean)}).
   */
  @Override public PinnedStateStore<Object, Object[]> pin(long version) {
    checkNotClosed();
    StateFiles.Listing files = listing(version);
    long latest = latest(files);
    if (version < 0 || version > latest) {
      throw StateStoreException.notCommitted(id, version, latest);
    }
    if (!loadable(version, files)) {
      throw StateStoreException.notRetained(id, version, oldestLoadable(files, latest));
    }
    return CommittedMapVersion.pin(id, version, load(version, false));
  }

  /** {@inheritDoc} The newest version with a file (every commit writes its delta), or 0. */
  @Override public long latestCommittedVersion() {
    checkNotClosed();
    return latest(listing(-1));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Reads version {@code from} and the delta files after it; the versions in between are built
   * in memory and not cached, so a reader on another thread does not disturb the batch thread's
   * cache. Changes are those the deltas record: a key put twice in one batch is one change, and
   * a key put and removed again in the batch that created it is none.
   */
  @Override public void readChanges(long from, long to,
      VersionChangeVisitor<Object, Object[]> visitor) {
    requireNonNull(visitor, "visitor");
    checkNotClosed();
    if (from < 0 || from > to) {
      throw new IllegalArgumentException("Cannot read the changes of " + id + " from version "
          + from + " to " + to + ": need 0 <= from <= to");
    }
    StateFiles.Listing files = listing(to);
    long latest = latest(files);
    if (to > latest) {
      throw StateStoreException.notCommitted(id, to, latest);
    }
    long oldest = oldestChangesVersion(files, latest);
    if (from < oldest) {
      throw StateStoreException.changesNotRetained(id, from, oldest);
    }
    CommittedMap current = load(from, false);
    for (long v = from + 1; v <= to; v++) {
      // The delta in the order of its records; the last record of a key wins. Null: removed.
      Map<Object, Object[]> changes = new LinkedHashMap<>();
      readFile(v, StateFiles.deltaFile(directory, v), false, new StateFiles.RecordSink() {
        @Override public void put(Object key, Object[] value) {
          changes.put(key, value);
        }

        @Override public void remove(Object key) {
          changes.put(key, null);
        }
      });
      CommittedMap.Edits edits = new CommittedMap.Edits(current);
      for (Map.Entry<Object, Object[]> change : changes.entrySet()) {
        Object key = change.getKey();
        Object[] oldValue = current.get(key);
        Object[] newValue = change.getValue();
        if (newValue == null) {
          if (oldValue == null) {
            continue;
          }
          edits.remove(key);
        } else {
          edits.put(key, newValue);
        }
        visitor.change(v, key, oldValue, newValue);
      }
      current = edits.commit();
    }
  }

  @Override public long oldestChangesVersion() {
    checkNotClosed();
    StateFiles.Listing files = listing(-1);
    return oldestChangesVersion(files, latest(files));
  }

  private StateFiles.Listing listing(long version) {
    try {
      return StateFiles.list(directory);
    } catch (IOException e) {
      throw StateStoreException.cannotLoad(id, version, "cannot list " + directory, e);
    }
  }

  private long latest(StateFiles.Listing files) {
    long latest = Math.max(0, files.latest());
    synchronized (lock) {
      return loaded.isEmpty() ? latest : Math.max(latest, loaded.lastKey());
    }
  }

  /**
   * Whether {@link #load} can produce {@code version}: it is cached, or a snapshot or cached
   * version at or before it has every delta up to it.
   */
  private boolean loadable(long version, StateFiles.Listing files) {
    if (version == 0) {
      return true;
    }
    long base = files.snapshotAtOrBefore(version);
    synchronized (lock) {
      if (loaded.containsKey(version)) {
        return true;
      }
      Long below = loaded.lowerKey(version);
      if (below != null && below > base) {
        base = below;
      }
    }
    for (long v = base + 1; v <= version; v++) {
      if (!files.deltas.contains(v)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The oldest version after 0 that can be loaded: one loaded from a base (the empty version 0, a
   * snapshot or a cached version) is no older than its base, which is loadable itself.
   */
  private long oldestLoadable(StateFiles.Listing files, long latest) {
    long oldest = latest;
    if (files.deltas.contains(1L)) {
      return 1;
    }
    if (!files.snapshots.isEmpty()) {
      oldest = Math.min(oldest, files.snapshots.first());
    }
    synchronized (lock) {
      if (!loaded.isEmpty()) {
        oldest = Math.min(oldest, loaded.firstKey());
      }
    }
    return oldest;
  }

  /**
   * The oldest loadable version {@code from} with every delta from {@code from + 1} to
   * {@code latest}: deltas {@code c..latest} are the unbroken run ending at the latest, so
   * {@code from >= c - 1}, and a version from then on is loadable only from a base no older
   * than {@code c - 1} (0, a snapshot or a cached version), which is loadable itself.
   */
  private long oldestChangesVersion(StateFiles.Listing files, long latest) {
    long c = latest + 1;
    while (c > 1 && files.deltas.contains(c - 1)) {
      c--;
    }
    if (c == 1) {
      return 0;
    }
    long oldest = latest;
    Long snapshot = files.snapshots.ceiling(c - 1);
    if (snapshot != null) {
      oldest = Math.min(oldest, snapshot);
    }
    synchronized (lock) {
      Long cached = loaded.ceilingKey(c - 1);
      if (cached != null) {
        oldest = Math.min(oldest, cached);
      }
    }
    return oldest;
  }

  /**
   * Hash table probes of the latest cached version's maps ({@link CommittedMap#probes()}), 0 if
   * none is cached: for tests, which cannot time how the maps degrade.
   */
  long probesOfLatestVersion() {
    synchronized (lock) {
      return loaded.isEmpty() ? 0 : loaded.lastEntry().getValue().probes();
    }
  }

  /**
   * {@link CommittedMap#footprint()} of the latest cached version (entries, bytes of arrays,
   * objects held), null if none is cached: for tests of how much a state row costs.
   */
  long[] footprintOfLatestVersion() {
    synchronized (lock) {
      return loaded.isEmpty() ? null : loaded.lastEntry().getValue().footprint();
    }
  }

  /** Metrics of the cached versions and of the cache, for progress reports. */
  public Metrics metrics() {
    synchronized (lock) {
      Set<Object> counted = Collections.newSetFromMap(new IdentityHashMap<>());
      long bytes = 0;
      for (CommittedMap map : loaded.descendingMap().values()) {
        bytes += map.estimateBytes(counted);
      }
      long numKeys = loaded.isEmpty() ? 0 : loaded.lastEntry().getValue().size();
      return new Metrics(numKeys, bytes, cacheHits, cacheMisses, loaded.size());
    }
  }

  /**
   * Metrics of a provider, named as in Spark's state operator progress.
   *
   * @param numKeys keys of the newest cached version
   * @param memoryUsedBytes estimated heap used by the cached versions, counting shared maps once
   *     and measuring a sample of 32 entries per map
   * @param loadedMapCacheHitCount loads of a version served from the cache
   * @param loadedMapCacheMissCount loads of a version that read files
   * @param loadedVersions versions in the cache
   */
  public record Metrics(long numKeys, long memoryUsedBytes, long loadedMapCacheHitCount,
      long loadedMapCacheMissCount, int loadedVersions) {
  }

  @Override public void close() {
    Store store;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      loaded.clear();
      store = openStore;
    }
    if (store != null) {
      store.abort();
    }
  }

  private void checkNotClosed() {
    synchronized (lock) {
      if (closed) {
        throw new StateStoreException(id + " is closed");
      }
    }
  }

  // ---- Loading -----------------------------------------------------------------------------

  /** Returns version {@code version}, from the cache or from files (SEMANTICS.md §10.4). */
  private CommittedMap load(long version) {
    return load(version, true);
  }

  /**
   * Returns version {@code version}, from the cache or from files; a version read from files is
   * cached only if {@code cache}. Readers on other threads pass false: a version they read from
   * files while the batch thread re-runs and replaces it must not be cached over the new one.
   */
  private CommittedMap load(long version, boolean cache) {
    if (version < 0) {
      throw StateStoreException.cannotLoad(id, version, "versions start at 0");
    }
    if (version == 0) {
      return CommittedMap.EMPTY;
    }
    Map.Entry<Long, CommittedMap> below;
    synchronized (lock) {
      CommittedMap cached = loaded.get(version);
      if (cached != null) {
        cacheHits++;
        return cached;
      }
      cacheMisses++;
      below = loaded.lowerEntry(version);
    }
    long started = System.nanoTime();
    StateFiles.Listing files;
    try {
      files = StateFiles.list(directory);
    } catch (IOException e) {
      throw StateStoreException.cannotLoad(id, version, "cannot list " + directory, e);
    }
    long snapshot = files.snapshotAtOrBefore(version);
    boolean fromCache = below != null && below.getKey() >= snapshot;
    long start = fromCache ? below.getKey() : snapshot;
    for (long v = start + 1; v <= version; v++) {
      if (!files.deltas.contains(v)) {
        throw missingFile(version, StateFiles.deltaFile(directory, v));
      }
    }
    CommittedMap map;
    if (!fromCache) {
      // A map of our own: files are replayed into it directly.
      ProbingMap rows = new ProbingMap();
      StateFiles.RecordSink sink = new StateFiles.RecordSink() {
        @Override public void put(Object key, Object[] value) {
          CommittedMap.putRow(rows, key, value);
        }

        @Override public void remove(Object key) {
          rows.remove(key);
        }
      };
      if (snapshot > 0) {
        readFile(version, StateFiles.snapshotFile(directory, snapshot), true, sink);
      }
      for (long v = snapshot + 1; v <= version; v++) {
        readFile(version, StateFiles.deltaFile(directory, v), false, sink);
      }
      map = CommittedMap.of(rows);
    } else {
      // The cached version is shared: replay the deltas as edits on top of it.
      CommittedMap.Edits edits = new CommittedMap.Edits(below.getValue());
      StateFiles.RecordSink sink = new StateFiles.RecordSink() {
        @Override public void put(Object key, Object[] value) {
          edits.put(key, value);
        }

        @Override public void remove(Object key) {
          edits.remove(key);
        }
      };
      for (long v = start + 1; v <= version; v++) {
        readFile(version, StateFiles.deltaFile(directory, v), false, sink);
      }
      map = edits.commit();
    }
    if (cache) {
      synchronized (lock) {
        if (!closed) {
          cache(version, map);
        }
      }
    }
    LOG.debug("Loaded version {} of {} from {} of version {} and {} deltas in {} ms", version, id,
        fromCache ? "the cache" : "the snapshot", start, version - start,
        (System.nanoTime() - started) / 1_000_000);
    return map;
  }

  private void readFile(long version, Path file, boolean snapshot, StateFiles.RecordSink sink) {
    try {
      StateFiles.read(file, snapshot, sink);
    } catch (NoSuchFileException e) {
      // Listed a moment ago: maintenance deleted it, so the version is too old to keep.
      throw missingFile(version, file);
    } catch (CorruptStateFileException e) {
      throw StateStoreException.cannotLoad(id, version, "state file " + e.file + " " + e.problem,
          e);
    } catch (IOException e) {
      throw StateStoreException.cannotLoad(id, version, "cannot read state file " + file, e);
    }
  }

  private StateStoreException missingFile(long version, Path file) {
    String name = file.getFileName().toString();
    String kind = name.endsWith(StateFiles.SNAPSHOT) ? "snapshot" : "delta";
    return StateStoreException.cannotLoad(id, version, kind + " file " + file + " does not exist");
  }

  /** Adds a version to the cache (SEMANTICS.md §10.5). Must hold {@link #lock}. */
  private void cache(long version, CommittedMap map) {
    if (loaded.size() >= MAX_VERSIONS_IN_MEMORY && version < loaded.firstKey()) {
      return;
    }
    loaded.put(version, map);
    while (loaded.size() > MAX_VERSIONS_IN_MEMORY) {
      loaded.pollFirstEntry();
    }
  }

  // ---- Committing --------------------------------------------------------------------------

  /**
   * Creates a writer of {@code target}, whose temporary file is listed in {@link #writing} before
   * it exists, so that maintenance cannot take it for a crash's leftover.
   */
  private StateFiles.Writer createWriter(Path target) throws IOException {
    DurableFiles.createDirectories(target.getParent());
    for (int attempt = 1; ; attempt++) {
      Path temp = DurableFiles.tempFileOf(target);
      synchronized (lock) {
        writing.add(temp);
      }
      try {
        return StateFiles.Writer.create(target, temp);
      } catch (FileAlreadyExistsException e) {
        synchronized (lock) {
          writing.remove(temp);
        }
        // Random names do not collide; something else is wrong after a few tries.
        if (attempt == 3) {
          throw e;
        }
      } catch (IOException | RuntimeException e) {
        synchronized (lock) {
          writing.remove(temp);
        }
        throw e;
      }
    }
  }

  private void cancel(StateFiles.Writer writer) {
    writer.cancel();
    synchronized (lock) {
      writing.remove(writer.temp());
    }
  }

  /**
   * Makes a finished delta file and its map version {@code version}: renames the file and caches
   * the map. If maintenance wrote a snapshot of that version, it holds the contents being replaced
   * and would win over the new delta, so it is rewritten first. All under {@link #lock}, so that
   * maintenance cannot publish a snapshot of the replaced version afterwards.
   */
  private void publish(long version, StateFiles.Writer delta, CommittedMap map)
      throws IOException {
    synchronized (lock) {
      if (closed) {
        throw new IOException(id + " was closed before the commit");
      }
      Path snapshot = StateFiles.snapshotFile(directory, version);
      StateFiles.Writer rewrite = null;
      try {
        if (Files.exists(snapshot)) {
          rewrite = createWriter(snapshot);
          writeRows(rewrite, map);
          rewrite.finish();
        }
        // Cached later versions were built on the version being replaced.
        loaded.tailMap(version, true).clear();
        if (rewrite != null || Files.exists(delta.target())) {
          overwrites++;
          LOG.info("Replacing version {} of {}", version, id);
        }
        delta.publish();
        if (rewrite != null) {
          rewrite.publish();
        }
      } finally {
        writing.remove(delta.temp());
        if (rewrite != null) {
          rewrite.cancel();
          writing.remove(rewrite.temp());
        }
      }
      cache(version, map);
    }
  }

  private static void writeRows(StateFiles.Writer writer, CommittedMap map) throws IOException {
    for (Iterator<Map.Entry<Object, Object[]>> it = map.iterator(); it.hasNext(); ) {
      Map.Entry<Object, Object[]> e = it.next();
      writer.write(e.getKey(), e.getValue());
    }
  }

  // ---- Maintenance -------------------------------------------------------------------------

  /**
   * Writes a snapshot if one is due and deletes the files no retained version needs
   * (SEMANTICS.md §10.6); logs failures and never throws.
   */
  @Override public void doMaintenance() {
    synchronized (maintenanceLock) {
      try {
        synchronized (lock) {
          if (closed) {
            return;
          }
        }
        snapshotIfDue(StateFiles.list(directory));
        deleteUnneededFiles(StateFiles.list(directory));
      } catch (IOException | RuntimeException e) {
        LOG.warn("Maintenance of {} in {} failed; the next run will retry", id, directory, e);
      }
    }
  }

  private void snapshotIfDue(StateFiles.Listing files) throws IOException {
    long last = files.latest();
    if (last <= 0 || last - files.snapshotAtOrBefore(last) <= spec.minDeltasForSnapshot()) {
      return;
    }
    CommittedMap map;
    long overwritesBefore;
    synchronized (lock) {
      map = loaded.get(last);
      overwritesBefore = overwrites;
    }
    if (map == null) {
      LOG.debug("Version {} of {} is not in memory; its snapshot waits", last, id);
      return;
    }
    long started = System.nanoTime();
    StateFiles.Writer writer = createWriter(StateFiles.snapshotFile(directory, last));
    try {
      writeRows(writer, map);
      writer.finish();
      synchronized (lock) {
        if (closed || overwrites != overwritesBefore) {
          // The version may have been replaced while we wrote it; the next run will see.
          return;
        }
        writer.publish();
      }
      LOG.info("Wrote snapshot {} of {} ({} keys) in {} ms", writer.target(), id, map.size(),
          (System.nanoTime() - started) / 1_000_000);
    } finally {
      cancel(writer);
    }
  }

  private void deleteUnneededFiles(StateFiles.Listing files) {
    long earliestToRetain = files.latest() - spec.minVersionsToRetain();
    if (earliestToRetain > 0) {
      // Version earliestToRetain needs the newest snapshot at or before it and the later deltas;
      // without such a snapshot it needs every delta from 1.
      long firstNeeded = files.snapshotAtOrBefore(earliestToRetain);
      for (long v : files.deltas.headSet(firstNeeded)) {
        delete(StateFiles.deltaFile(directory, v));
      }
      for (long v : files.snapshots.headSet(firstNeeded)) {
        delete(StateFiles.snapshotFile(directory, v));
      }
    }
    for (Path temp : files.temps) {
      boolean ours;
      synchronized (lock) {
        ours = writing.contains(temp);
      }
      if (!ours) {
        delete(temp);
      }
    }
  }

  private void delete(Path file) {
    try {
      Files.deleteIfExists(file);
      LOG.debug("Deleted {} of {}", file, id);
    } catch (IOException e) {
      LOG.warn("Cannot delete {} of {}; the next maintenance will retry", file, id, e);
    }
  }

  // ---- Stores ------------------------------------------------------------------------------

  /**
   * Writable store: edits over an immutable version, written to the delta file as they come.
   * After {@code commit} it reads the new version, after {@code abort} the one it was opened at.
   */
  private final class Store extends CommittedMapStore {
    /** Created at the first change or at commit. */
    private StateFiles.Writer writer;

    Store(long version, CommittedMap map) {
      super(id, version, map);
    }

    @Override public void put(Object key, Object[] value) {
      requireNonNull(value, "value");
      checkUpdating();
      // The file first: a value that cannot be encoded leaves the store as it was.
      write(key, value);
      edits.put(key, value);
    }

    @Override public void remove(Object key) {
      checkUpdating();
      if (edits.containsKey(key)) {
        write(key, null);
        edits.remove(key);
      }
    }

    /** Appends a put, or a deletion if {@code value} is null; an I/O failure aborts the store. */
    private void write(Object key, Object[] value) {
      try {
        openWriter().write(key, value);
      } catch (IOException | StorageException e) {
        // Part of the record may be in the file, which no longer matches the edits.
        abort();
        throw new StateStoreException("Cannot write " + StateFiles.deltaFile(directory, version + 1)
            + " for version " + (version + 1) + " of " + id, e);
      }
    }

    private StateFiles.Writer openWriter() throws IOException {
      if (writer == null) {
        writer = createWriter(StateFiles.deltaFile(directory, version + 1));
      }
      return writer;
    }

    @Override public long commit() {
      checkUpdating();
      long next = version + 1;
      try {
        openWriter().finish();
        CommittedMap committed = edits.commit();
        publish(next, writer, committed);
        committed(committed);
      } catch (IOException | StorageException e) {
        abort();
        throw new StateStoreException("Cannot commit version " + next + " of " + id + " to "
            + StateFiles.deltaFile(directory, next), e);
      }
      return next;
    }

    @Override public void abort() {
      if (aborted() && writer != null) {
        cancel(writer);
      }
    }
  }
}
