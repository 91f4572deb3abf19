package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.operators.ChangelogInput;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.state.PinnedStateStore;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The changes of an UPDATE view ({@link StateViewResult}), as the source of one continuous query
 * that reads the view: offset {@code n} is the view's state version {@code n} (its batch
 * {@code n - 1}), and the rows of offsets {@code (start, end]} are, per group the versions
 * changed, its old row taken back and its new row added, each ending with the
 * {@link ChangelogInput} marker.
 *
 * <pre>{@code
 * Source changes = stateViewResult.newChangeSource().orElseThrow();
 * changes.readRange(0, 8, push);   // the rows of version 8, all added
 * changes.readRange(8, 9, push);   // [k, 3, RETRACT], [k, 4, ADD] for a group batch 8 changed
 * }</pre>
 *
 * <p><b>Exactly once.</b> A range reads the view's committed versions, which never change, so a
 * batch that runs again reads the same rows. The view's published version is the newest offset:
 * a reader never sees a batch the view could still run again. The changes come from the view's
 * state stores, which keep those of the last {@code min.batches.to.retain} versions; besides, the
 * source pins the version it last read up to, and if the changes after it are gone compares that
 * version with the new one (after a restart, the version as the state still keeps it). A range
 * none of these can answer (the reader lagged behind, then the engine restarted) fails the
 * reader's query with 55000: never a silent skip.
 */
final class ViewChangeSource implements Source {
  private final StateViewResult view;
  /** The view's state at the version last read up to, pinned; null before the first read. */
  private @Nullable List<PinnedStateStore<Object, Object[]>> lastRead;
  private long lastReadVersion = -1;

  ViewChangeSource(StateViewResult view) {
    this.view = requireNonNull(view, "view");
  }

  @Override public String description() {
    return "ViewChanges[" + view.view + "]";
  }

  @Override public long latestOffset() {
    return Math.max(0, view.batchId() + 1);
  }

  @Override public void readRange(long start, long end, Consumer<Object[]> rows) {
    if (end <= start) {
      return;
    }
    List<PinnedStateStore<Object, Object[]>> next = view.pinVersion(end);
    try {
      if (start == 0) {
        // From the beginning: every row of the version read up to is new.
        forEachEntry(next, (key, value) -> add(key, value, rows));
        for (Object[] row : view.evictedRows(end)) {
          rows.accept(marked(row, ChangelogInput.ADD));
        }
      } else if (!view.readStateChanges(start, end,
          (key, oldValue, newValue) -> change(key, oldValue, newValue, rows))) {
        if (lastRead != null && lastReadVersion == start) {
          compare(lastRead, next, rows);
        } else {
          // No pin (the reader restarted): the state may still keep the version itself.
          List<PinnedStateStore<Object, Object[]>> before = pinOrFail(start);
          try {
            compare(before, next, rows);
          } finally {
            before.forEach(PinnedStateStore::close);
          }
        }
      }
    } catch (RuntimeException e) {
      next.forEach(PinnedStateStore::close);
      throw e;
    }
    release();
    lastRead = next;
    lastReadVersion = end;
  }

  /** Hands {@code rows} the difference between two versions of the view's state. */
  private void compare(List<PinnedStateStore<Object, Object[]>> before,
      List<PinnedStateStore<Object, Object[]>> after, Consumer<Object[]> rows) {
    for (int p = 0; p < after.size(); p++) {
      PinnedStateStore<Object, Object[]> old = before.get(p);
      PinnedStateStore<Object, Object[]> now = after.get(p);
      Set<Object> seen = new HashSet<>();
      for (Map.Entry<Object, Object[]> e : now.entries()) {
        seen.add(e.getKey());
        Object[] was = old.get(e.getKey());
        if (was != e.getValue()) {
          change(e.getKey(), was, e.getValue(), rows);
        }
      }
      for (Map.Entry<Object, Object[]> e : old.entries()) {
        if (!seen.contains(e.getKey())) {
          change(e.getKey(), e.getValue(), null, rows);
        }
      }
    }
  }

  /**
   * The rows of one group's change: its old row taken back, its new row added; nothing if the
   * view shows the same row (or none) before and after. A group that leaves the state leaves
   * the view too, unless the watermark evicted it (then its final row stays in the view).
   */
  private void change(Object key, Object @Nullable [] oldValue, Object @Nullable [] newValue,
      Consumer<Object[]> rows) {
    if (newValue == null && view.evicts()) {
      return;
    }
    @Nullable Object[] was = oldValue == null ? null : view.finalizer().row(key, oldValue);
    @Nullable Object[] is = newValue == null ? null : view.finalizer().row(key, newValue);
    if (was != null && is != null && Arrays.equals(was, is)) {
      return;
    }
    if (was != null) {
      rows.accept(marked(was, ChangelogInput.RETRACT));
    }
    if (is != null) {
      rows.accept(marked(is, ChangelogInput.ADD));
    }
  }

  private void add(Object key, Object[] value, Consumer<Object[]> rows) {
    Object[] row = view.finalizer().row(key, value);
    if (row != null) {
      rows.accept(marked(row, ChangelogInput.ADD));
    }
  }

  private static Object[] marked(Object[] row, Boolean marker) {
    Object[] out = Arrays.copyOf(row, row.length + 1);
    out[row.length] = marker;
    return out;
  }

  private static void forEachEntry(List<PinnedStateStore<Object, Object[]>> version,
      java.util.function.BiConsumer<Object, Object[]> action) {
    for (PinnedStateStore<Object, Object[]> partition : version) {
      for (Map.Entry<Object, Object[]> e : partition.entries()) {
        action.accept(e.getKey(), e.getValue());
      }
    }
  }

  /** Version {@code start} of the view's state, pinned, or the reader's failure. */
  private List<PinnedStateStore<Object, Object[]>> pinOrFail(long start) {
    try {
      return view.pinVersion(start);
    } catch (RuntimeException e) {
      RuntimeException gone = changesGone(start);
      gone.addSuppressed(e);
      throw gone;
    }
  }

  private RuntimeException changesGone(long start) {
    return new IllegalStateException(Errors.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
        "Materialized view " + view.view + " no longer keeps its changes after version "
            + (start - 1) + ", which a continuous query reading it has not read yet. Drop that"
            + " query's view (or stop the query) and create it again to read " + view.view
            + " from its current rows, and keep more versions with SET"
            + " 'min.batches.to.retain' so that a reader that falls behind can catch up"));
  }

  private void release() {
    if (lastRead != null) {
      lastRead.forEach(PinnedStateStore::close);
      lastRead = null;
    }
  }

  /**
   * {@inheritDoc} Closing the handle (the reader's query stops) also releases the version the
   * source pinned, so that a dropped reader holds none of the view's versions.
   */
  @Override public AutoCloseable onNewData(Runnable listener) {
    AutoCloseable registration = view.onPublished(listener);
    return () -> {
      registration.close();
      release();
    };
  }

  /** What a changed group hands on. */
  @FunctionalInterface
  interface GroupChange {
    void change(Object key, Object @Nullable [] oldValue, Object @Nullable [] newValue);
  }
}
