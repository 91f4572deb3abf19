package dev.freshet.executor.state.internals;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.PinnedStateStore;
import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.VersionChangeVisitor;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * State store provider without files for state that must be readable while later versions are
 * committed (views without a data directory): {@link DeltaFileStateStoreProvider}'s in-memory
 * half. The latest version is an immutable {@link CommittedMap}; each commit builds the next one
 * beside it and keeps the version's changes (key, old row, new row) for the last
 * {@code spec.minVersionsToRetain()} versions, so those versions can be opened (a re-run), pinned
 * and their changes read. Nothing survives {@link #close()}: a new provider starts empty.
 *
 * <p><b>Memory:</b> the latest version, plus every change of the retained versions (each holds its
 * key and two rows), plus what pins and open stores hold. With {@code w} keys changed a batch and
 * {@code R} versions retained that is about {@code R * w} changes: choose {@code R} small.
 *
 * <p><b>Threads:</b> one batch thread uses {@link #getStore}, {@link #getReadStore} and the stores;
 * {@link #pin}, {@link #latestCommittedVersion()}, {@link #readChanges} and
 * {@link #oldestChangesVersion()} may be called on any thread, and pins read on any thread.
 *
 * <pre>{@code
 * StateStoreProvider<Object, Object[]> provider = new CommittedMapStateStoreProvider(
 *     new StateStoreSpec(id, Path.of("unused"), 10, 2));
 * StateStore<Object, Object[]> store = provider.getStore(0);
 * store.put(1L, new Object[] {1L});
 * store.commit();
 * try (PinnedStateStore<Object, Object[]> pinned = provider.pin(1)) { ... }
 * }</pre>
 */
public final class CommittedMapStateStoreProvider implements StateStoreProvider<Object, Object[]> {
  private final StateStoreId id;
  private final int retain;
  /** Guards the fields below: the batch thread commits, any thread pins and reads changes. */
  private final Object lock = new Object();
  private long latestVersion;
  private CommittedMap latest = CommittedMap.EMPTY;
  /** The changes of versions after {@link #oldest()} up to {@link #latestVersion}, by version. */
  private final TreeMap<Long, Changes> changes = new TreeMap<>();
  private boolean closed;
  /** The store open for update, or null; used by the batch thread only. */
  private Store openStore;

  /** Keeps {@code spec.minVersionsToRetain()} versions; ignores the spec's directory. */
  public CommittedMapStateStoreProvider(StateStoreSpec spec) {
    this.id = requireNonNull(spec, "spec").id();
    this.retain = spec.minVersionsToRetain();
  }

  @Override public StateStoreId id() {
    return id;
  }

  @Override public StateStore<Object, Object[]> getStore(long version) {
    if (openStore != null && openStore.isUpdating()) {
      checkNotClosed();
      throw new StateStoreException("Version " + openStore.version + " of " + id
          + " is already open for update; commit or abort it first");
    }
    openStore = new Store(version, load(version, false));
    return openStore;
  }

  @Override public ReadStateStore<Object, Object[]> getReadStore(long version) {
    return CommittedMapVersion.readStore(id, version, load(version, false));
  }

  /** {@inheritDoc} Any of the last {@code minVersionsToRetain} versions and the latest. */
  @Override public PinnedStateStore<Object, Object[]> pin(long version) {
    return CommittedMapVersion.pin(id, version, load(version, true));
  }

  @Override public long latestCommittedVersion() {
    synchronized (lock) {
      checkNotClosed();
      return latestVersion;
    }
  }

  @Override public long oldestChangesVersion() {
    synchronized (lock) {
      checkNotClosed();
      return oldest();
    }
  }

  /** The oldest version whose later changes are all kept. Must hold {@link #lock}. */
  private long oldest() {
    return changes.isEmpty() ? latestVersion : changes.firstKey() - 1;
  }

  @Override public void readChanges(long from, long to,
      VersionChangeVisitor<Object, Object[]> visitor) {
    requireNonNull(visitor, "visitor");
    if (from < 0 || from > to) {
      throw new IllegalArgumentException("Cannot read the changes of " + id + " from version "
          + from + " to " + to + ": need 0 <= from <= to");
    }
    List<Changes> read;
    synchronized (lock) {
      checkNotClosed();
      if (to > latestVersion) {
        throw StateStoreException.notCommitted(id, to, latestVersion);
      }
      if (from < oldest()) {
        throw StateStoreException.changesNotRetained(id, from, oldest());
      }
      read = new ArrayList<>(changes.subMap(from, false, to, true).values());
    }
    // Immutable once recorded: visited without the lock.
    for (Changes c : read) {
      for (int i = 0; i < c.keys.length; i++) {
        visitor.change(c.version, c.keys[i], c.oldRows[i], c.newRows[i]);
      }
    }
  }

  /**
   * Version {@code version}: the latest, or the latest with the changes of the later versions
   * undone. {@code pinning} says which error a version out of range is.
   */
  private CommittedMap load(long version, boolean pinning) {
    CommittedMap map;
    List<Changes> undo;
    synchronized (lock) {
      checkNotClosed();
      long oldest = oldest();
      if (version < 0 || version > latestVersion) {
        throw pinning ? StateStoreException.notCommitted(id, version, latestVersion)
            : StateStoreException.cannotLoad(id, version, version < 0 ? "versions start at 0"
                : "the latest committed version is " + latestVersion);
      }
      if (version < oldest) {
        throw pinning ? StateStoreException.notRetained(id, version, oldest)
            : StateStoreException.cannotLoad(id, version, "this provider keeps the "
                + retain + " versions before the latest, " + latestVersion
                + "; the oldest it holds is " + oldest);
      }
      map = latest;
      undo = new ArrayList<>(changes.tailMap(version, false).descendingMap().values());
    }
    if (undo.isEmpty()) {
      return map;
    }
    CommittedMap.Edits edits = new CommittedMap.Edits(map);
    for (Changes c : undo) {
      for (int i = 0; i < c.keys.length; i++) {
        if (c.oldRows[i] == null) {
          edits.remove(c.keys[i]);
        } else {
          edits.put(c.keys[i], c.oldRows[i]);
        }
      }
    }
    return edits.commit();
  }

  /** Makes {@code map} version {@code version}, replacing it and later ones if re-run. */
  private void publish(long version, CommittedMap map, Changes made) {
    synchronized (lock) {
      checkNotClosed();
      changes.tailMap(version, true).clear();
      changes.put(version, made);
      changes.headMap(version - retain, true).clear();
      latest = map;
      latestVersion = version;
    }
  }

  @Override public void close() {
    synchronized (lock) {
      closed = true;
      latest = CommittedMap.EMPTY;
      changes.clear();
    }
  }

  private void checkNotClosed() {
    synchronized (lock) {
      if (closed) {
        throw new StateStoreException(id + " is closed");
      }
    }
  }

  /** The changes of one version, in parallel arrays; immutable. A null row: no row. */
  private record Changes(long version, Object[] keys, Object[][] oldRows, Object[][] newRows) {
  }

  /** Writable store: edits over an immutable version; after commit it reads the new version. */
  private final class Store extends CommittedMapStore {
    Store(long version, CommittedMap map) {
      super(id, version, map);
    }

    @Override public void put(Object key, Object[] value) {
      requireNonNull(value, "value");
      checkUpdating();
      edits.put(key, value);
    }

    @Override public void remove(Object key) {
      checkUpdating();
      edits.remove(key);
    }

    @Override public long commit() {
      checkUpdating();
      long next = version + 1;
      List<Object> keys = new ArrayList<>();
      List<Object[]> oldRows = new ArrayList<>();
      List<Object[]> newRows = new ArrayList<>();
      edits.forEachChange((unused, key, oldRow, newRow) -> {
        keys.add(key);
        oldRows.add(oldRow);
        newRows.add(newRow);
      });
      CommittedMap committed = edits.commit();
      publish(next, committed, new Changes(next, keys.toArray(),
          oldRows.toArray(new Object[0][]), newRows.toArray(new Object[0][])));
      committed(committed);
      return next;
    }

    @Override public void abort() {
      aborted();
    }
  }
}
