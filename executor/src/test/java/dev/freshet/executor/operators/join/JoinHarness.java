package dev.freshet.executor.operators.join;

import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.DeltaFileStateStoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Drives a {@link StreamStreamJoinOperator} batch by batch over real (delta file) state store
 * providers in a directory, as the runtime would: each input's chain started, fed and finished.
 */
final class JoinHarness implements AutoCloseable {
  private final Path dir;
  private final StreamStreamJoinSpec spec;
  final Collector out = new Collector();
  StreamStreamJoinOperator operator;

  JoinHarness(Path dir, StreamStreamJoinSpec spec) {
    this.dir = dir;
    this.spec = spec;
    open();
  }

  /** Closes the operator's stores and builds a new operator on the same state directories. */
  void restart() {
    operator.closeStores();
    open();
  }

  private void open() {
    operator = new StreamStreamJoinOperator(spec, provider(0), provider(1), out);
  }

  private StateStoreProvider<Object, Object[]> provider(int side) {
    // Both sides are partition 0 of the operator; each side's store has a directory of its own.
    return new DeltaFileStateStoreProvider(new StateStoreSpec(new StateStoreId("q", 0, side),
        dir.resolve("state/0/0/" + (side == 0 ? "left" : "right")), 10, 100));
  }

  /** Runs a batch, the left input first; returns its output rows. */
  List<List<Object>> run(BatchContext batch, List<Object[]> left, List<Object[]> right) {
    return run(batch, left, right, false);
  }

  /**
   * Runs a batch; with {@code rightFirst} the right input starts, pushes and finishes before the
   * left one starts.
   */
  List<List<Object>> run(BatchContext batch, List<Object[]> left, List<Object[]> right,
      boolean rightFirst) {
    if (rightFirst) {
      feed(operator.right(), batch, right);
      feed(operator.left(), batch, left);
    } else {
      Operator l = operator.left();
      Operator r = operator.right();
      // Both started before either pushes, as a runtime reading its sources in turn would.
      l.startBatch(batch);
      r.startBatch(batch);
      left.forEach(l::push);
      l.finishBatch(batch);
      right.forEach(r::push);
      r.finishBatch(batch);
    }
    return out.lastBatch;
  }

  /** Runs a batch without input: what the runtime runs when {@code needsNoDataBatch} says so. */
  List<List<Object>> runNoData(BatchContext batch) {
    return run(batch, List.of(), List.of());
  }

  private static void feed(Operator input, BatchContext batch, List<Object[]> rows) {
    input.startBatch(batch);
    rows.forEach(input::push);
    input.finishBatch(batch);
  }

  @Override public void close() {
    operator.closeStores();
  }

  static BatchContext batch(long id, long lateMs, long evictionMs) {
    return new BatchContext(id, 0, lateMs, evictionMs);
  }

  static Object[] row(Object... values) {
    return values;
  }

  static List<Object[]> rows(Object[]... rows) {
    return List.of(rows);
  }

  static List<Object> out(Object... values) {
    return Arrays.asList(values);
  }

  /** Keeps copies of the rows of each batch and counts the batch calls. */
  static final class Collector implements Operator {
    private List<List<Object>> rows = new ArrayList<>();
    List<List<Object>> lastBatch = List.of();
    int started;
    int finished;
    int aborted;

    @Override public void startBatch(BatchContext batch) {
      started++;
      rows = new ArrayList<>();
    }

    @Override public void push(Object[] row) {
      rows.add(Arrays.asList(row.clone()));
    }

    @Override public void finishBatch(BatchContext batch) {
      finished++;
      lastBatch = rows;
      rows = new ArrayList<>();
    }

    @Override public void abortBatch(BatchContext batch) {
      aborted++;
      rows = new ArrayList<>();
    }
  }
}
