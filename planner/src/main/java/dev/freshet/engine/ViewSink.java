package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.KeyExtractor;
import dev.freshet.executor.runtime.Sink;
import dev.freshet.planner.catalog.ViewSnapshot;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.executor.checkpoint.SinkStateLog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Optional;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Sink of a materialized view's query: folds each micro-batch into the view's result and publishes
 * the result as a new {@link ViewSnapshot}, so readers see whole batches only.
 *
 * <pre>{@code
 * Sink sink = ViewSink.upsert(view, 2, new int[] {2});  // rows (user_id, n, hidden key)
 * sink.addBatch(0, List.of(new Object[] {"a", 1L, "a"}));
 * view.snapshot();                                       // batch 0: [("a", 1)]
 * }</pre>
 *
 * <p>How a batch changes the result follows the query's output mode: in UPDATE mode each row
 * replaces the row of the same group (an upsert), in COMPLETE mode the batch's rows replace the
 * whole result, in APPEND mode they are added to it. The aggregation emits no deletions, so in
 * UPDATE mode a group that a HAVING clause stops admitting keeps its last row, as in Spark's
 * update-mode sinks.
 *
 * <p>Called by the query's batch thread only; readers never lock: the published snapshot is
 * immutable and replaced through a volatile field.
 */
final class ViewSink implements Sink {
  /** How one batch's rows change the view's result. */
  private interface ResultUpdate {
    /** Folds the batch's rows (owned by the callee) into the result and returns the new result. */
    List<Object[]> apply(List<Object[]> batch);

    /** What must be kept to rebuild the result after a restart. */
    List<Object[]> state();

    /** Rebuilds the result from {@link #state()}; returns it. */
    List<Object[]> restore(List<Object[]> state);
  }

  private final ViewTable view;
  private final ResultUpdate update;
  /** Where the result is kept across restarts; null for a view without data directory. */
  private SinkStateLog log;
  /** The last batch folded into the result; a re-run batch at or below it is skipped. */
  private long lastBatchId = -1;

  private ViewSink(ViewTable view, ResultUpdate update) {
    this.view = requireNonNull(view, "view");
    this.update = requireNonNull(update, "update");
  }

  /**
   * Makes the result durable in {@code log}, starting from what it holds: the result of the last
   * batch recorded, which the restarted query will not apply again.
   */
  ViewSink recoverFrom(SinkStateLog log) {
    this.log = requireNonNull(log, "log");
    Optional<SinkStateLog.Entry> latest = log.latest();
    if (latest.isPresent()) {
      lastBatchId = latest.get().batchId();
      view.publish(new ViewSnapshot(lastBatchId, update.restore(latest.get().rows())));
    }
    return this;
  }

  /**
   * A sink for UPDATE mode: rows are upserted by their group key.
   *
   * @param width the number of the view's columns; input rows may have more, which are dropped
   * @param keyColumns positions of the group key in the input rows
   */
  static ViewSink upsert(ViewTable view, int width, int[] keyColumns) {
    return new ViewSink(view, new Upsert(width, keyColumns));
  }

  /** A sink for COMPLETE mode: each batch is the whole result. */
  static ViewSink replace(ViewTable view) {
    return new ViewSink(view, new Replace());
  }

  /** The batch is the result. */
  private static final class Replace implements ResultUpdate {
    private List<Object[]> result = List.of();

    @Override public List<Object[]> apply(List<Object[]> batch) {
      result = Collections.unmodifiableList(batch);
      return result;
    }

    @Override public List<Object[]> state() {
      return result;
    }

    @Override public List<Object[]> restore(List<Object[]> state) {
      return apply(new ArrayList<>(state));
    }
  }

  /** A sink for APPEND mode: each batch's rows are added to the result. */
  static ViewSink append(ViewTable view) {
    return new ViewSink(view, new Append());
  }

  @Override public String description() {
    return "MaterializedView[" + view.name() + "]";
  }

  @Override public void addBatch(long batchId, List<Object[]> rows) {
    if (batchId <= lastBatchId) {
      // A batch re-run after a crash: its rows are in the result already.
      return;
    }
    List<Object[]> result = update.apply(rows);
    if (log != null) {
      log.write(batchId, update.state());
    }
    lastBatchId = batchId;
    view.publish(new ViewSnapshot(batchId, result));
  }

  /**
   * Upserts by key. The working map belongs to the batch thread; each batch publishes a copy of
   * its rows, so a batch costs time proportional to the number of groups, not only to the rows
   * it changed.
   */
  private static final class Upsert implements ResultUpdate {
    private final int width;
    private final KeyExtractor keys;
    private final LinkedHashMap<Object, Object[]> rowsByKey = new LinkedHashMap<>();

    Upsert(int width, int[] keyColumns) {
      this.width = width;
      this.keys = new KeyExtractor(keyColumns);
    }

    @Override public List<Object[]> apply(List<Object[]> batch) {
      for (Object[] row : batch) {
        rowsByKey.put(keys.keyOf(row), row.length == width ? row : Arrays.copyOf(row, width));
      }
      return List.copyOf(rowsByKey.values());
    }

    /** Each group as {@code [key, row]}: the key may be a hidden column the row does not show. */
    @Override public List<Object[]> state() {
      List<Object[]> state = new ArrayList<>(rowsByKey.size());
      rowsByKey.forEach((key, row) -> state.add(new Object[] {key, row}));
      return state;
    }

    @Override public List<Object[]> restore(List<Object[]> state) {
      rowsByKey.clear();
      for (Object[] entry : state) {
        rowsByKey.put(entry[0], (Object[]) entry[1]);
      }
      return List.copyOf(rowsByKey.values());
    }
  }

  /**
   * Appends to an array that readers share: the batch thread writes only slots beyond the
   * published size, and a snapshot reads only slots below its own size, so appending a batch
   * costs time proportional to the batch (amortized), and readers never see a partial batch.
   */
  private static final class Append implements ResultUpdate {
    private Object[][] slots = new Object[16][];
    private int size;

    @Override public List<Object[]> apply(List<Object[]> batch) {
      if (size + batch.size() > slots.length) {
        // Readers of earlier snapshots keep the old array, whose slots never change again.
        int capacity = Math.max(slots.length * 2, size + batch.size());
        slots = Arrays.copyOf(slots, capacity);
      }
      for (Object[] row : batch) {
        slots[size++] = row;
      }
      Object[][] published = slots;
      int publishedSize = size;
      return Collections.unmodifiableList(Arrays.asList(published).subList(0, publishedSize));
    }

    @Override public List<Object[]> state() {
      return Arrays.asList(slots).subList(0, size);
    }

    @Override public List<Object[]> restore(List<Object[]> state) {
      slots = new Object[16][];
      size = 0;
      return apply(state);
    }
  }
}
