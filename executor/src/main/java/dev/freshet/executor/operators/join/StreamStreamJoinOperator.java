package dev.freshet.executor.operators.join;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.limits.MemoryAccount;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.StateBound;
import dev.freshet.executor.operators.StateMetrics;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.state.StateStoreProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Joins two streams on equal keys, an optional event-time range and an optional residual
 * condition, keeping both sides' rows in state: Spark's {@code StreamingSymmetricHashJoinExec}.
 *
 * <p><b>Per batch.</b> Each input's chain pushes its rows into {@link #left()} or
 * {@link #right()}, which drop late rows (event time at or before the batch's late-events
 * watermark on the side's event-time column, counted in {@code numRowsDroppedByWatermark}) and
 * keep the others. The join itself runs when both sides have finished the batch, whatever the
 * order of their calls: the new left rows join the right state (rows of earlier batches) and join
 * the left state; then the new right rows join the left state, which now holds this batch's left
 * rows too, and join the right state. Every pair is thus emitted exactly once, in the batch in
 * which its later row arrives. Output rows are the left columns, then the right ones.
 *
 * <p><b>Eviction.</b> After joining, each side drops the rows that no later row of the other side
 * can match: with the range {@code l.ts BETWEEN r.ts + lower AND r.ts + upper} and eviction
 * watermark {@code W}, later right rows have {@code r.ts > W}, so left rows with
 * {@code l.ts <= W + lower} go; later left rows have {@code l.ts > W}, so right rows with
 * {@code r.ts <= W - upper} go (Spark's state value watermarks; a strict bound moves them one
 * millisecond). A key pair of the two event-time columns counts as the range {@code [0, 0]}
 * (Spark's state key watermark). Without a bound on a side, that side keeps its rows forever.
 *
 * <p><b>Outer joins.</b> Each kept row of an outer side carries a "matched" flag. When an
 * unmatched row is evicted, it is emitted padded with NULLs: once, in the batch whose watermark
 * passes its bound, which may be a batch without data ({@link #needsNoDataBatch}). A row whose key
 * has a NULL matches nothing: an inner join drops it, an outer join emits it padded at once.
 *
 * <p><b>State.</b> One state partition per side, each side in its own provider (see
 * {@link JoinSide} for the layout); batch {@code N} opens version {@code N} and commits
 * {@code N + 1}. An abort from either input aborts the batch once; the next run of it, or an
 * operator rebuilt on the same providers, starts from the committed version.
 *
 * <pre>{@code
 * StreamStreamJoinOperator join = new StreamStreamJoinOperator(spec, leftProvider,
 *     rightProvider, sink);
 * Operator leftChain = new CalcOperator(leftCalc, leftWidth, join.left());
 * Operator rightChain = new CalcOperator(rightCalc, rightWidth, join.right());
 * leftChain.startBatch(batch);  rightChain.startBatch(batch);
 * // push each source's rows into its chain
 * leftChain.finishBatch(batch); rightChain.finishBatch(batch);   // joins, evicts, commits
 * }</pre>
 *
 * <p>The two inputs may push from different threads; each input from one thread at a time. Rows
 * are copied when kept; nothing is locked per row.
 *
 * <p><b>Limits.</b> Both sides' rows count in the query's memory estimate
 * ({@link BatchContext#resources()}) at an estimated size per row: the buffered input of each side
 * every 1024 rows, the state before it commits, so that a join whose state outgrows the budget
 * fails its batch instead of committing it. Joining checks the query's cancellation flag every
 * {@value #CHECK_EVERY} pairs it looks at.
 */
public final class StreamStreamJoinOperator implements StatefulOperator {
  /** Rows joined between two checks of the query's cancellation flag. */
  private static final int CHECK_EVERY = 1024;

  private final StreamStreamJoinSpec spec;
  private final TimeRange range;
  private final boolean ranged;
  private final JoinCondition residual;
  private final Operator downstream;
  private final JoinSide leftSide;
  private final JoinSide rightSide;
  private final Input leftInput;
  private final Input rightInput;
  /** The joined row handed downstream, reused: rows pushed are only valid during the call. */
  private final Object[] joined;
  /** The batch under way (started by either input and not yet finished or aborted), or null. */
  private BatchContext current;
  /** The batch last aborted, so that the other input's abort of it does nothing. */
  private long abortedBatchId = -1;
  private QueryResources resources;
  /** The estimate of both sides' state, set before each commit; null until the first batch. */
  private MemoryAccount stateAccount;
  private MemoryAccount leftInputAccount;
  private MemoryAccount rightInputAccount;
  private int sinceCheck;
  private StateMetrics metrics = new StateMetrics(0, 0, 0, 0, 0);
  private long numOutputRows;
  /**
   * How far behind the watermark the event times of the joined rows can be (the join's output
   * watermark, Spark 3.5's per-operator watermark): a pair emitted in batch N has one row new in
   * N, later than the previous watermark, and the other at most this far from it. A stateful
   * operator below the join sees the watermarks moved back by it, so that it neither takes a
   * joined row for late nor finalizes a window before its last joined row came.
   */
  private final long outputDelayMs;
  /** The batch as the operators below see it: its watermarks {@link #outputDelayMs} back. */
  private BatchContext downstreamBatch;
  /** The state TTL, 0 for none. */
  private long ttlMs;

  /**
   * Creates the operator.
   *
   * @param spec what to join
   * @param leftState the left side's state store provider (one partition)
   * @param rightState the right side's
   * @param downstream receives the joined rows
   */
  public StreamStreamJoinOperator(StreamStreamJoinSpec spec,
      StateStoreProvider<Object, Object[]> leftState,
      StateStoreProvider<Object, Object[]> rightState, Operator downstream) {
    this.spec = requireNonNull(spec, "spec");
    this.downstream = requireNonNull(downstream, "downstream");
    this.range = spec.effectiveRange();
    this.ranged = range.hasLower() || range.hasUpper();
    this.residual = spec.residual();
    this.leftSide = new JoinSide(spec.leftWidth(), spec.leftEventTime(), spec.leftKeys(),
        requireNonNull(leftState, "leftState"), spec.kind().keepsLeft());
    this.rightSide = new JoinSide(spec.rightWidth(), spec.rightEventTime(), spec.rightKeys(),
        requireNonNull(rightState, "rightState"), spec.kind().keepsRight());
    this.leftInput = new Input(leftSide, "left");
    this.rightInput = new Input(rightSide, "right");
    this.joined = new Object[spec.outputWidth()];
    this.outputDelayMs = range.hasLower() && range.hasUpper()
        ? Math.max(0, Math.max(-range.lowerMs(), range.upperMs())) : 0;
  }

  /**
   * How far behind the watermark the event times of the rows it emits can be: 0 without a
   * range bounded on both sides, when nothing stateful may follow the join (the planner's rule).
   */
  public long outputDelayMs() {
    return outputDelayMs;
  }

  private BatchContext delayed(BatchContext batch) {
    if (outputDelayMs == 0) {
      return batch;
    }
    return new BatchContext(batch.batchId(), batch.batchTimestampMs(),
        back(batch.lateEventsWatermarkMs()), back(batch.evictionWatermarkMs()),
        batch.resources());
  }

  private long back(long watermarkMs) {
    return watermarkMs == BatchContext.NO_WATERMARK ? watermarkMs
        : Math.max(BatchContext.NO_WATERMARK + 1, watermarkMs - outputDelayMs);
  }

  /** The left input: the left stream's rows are pushed here. */
  public Operator left() {
    return leftInput;
  }

  /** The right input: the right stream's rows are pushed here. */
  public Operator right() {
    return rightInput;
  }

  /** What this operator joins. */
  public StreamStreamJoinSpec spec() {
    return spec;
  }

  /** Spark's name for it: {@code symmetricHashJoin}. */
  @Override public String operatorName() {
    return "symmetricHashJoin";
  }

  /**
   * The last batch's metrics; state rows are kept rows of both sides, dropped rows the late rows
   * of both inputs.
   */
  @Override public StateMetrics stateMetrics() {
    return metrics;
  }

  /** One state partition per side: 1. */
  @Override public int numPartitions() {
    return 1;
  }

  @Override public void closeStores() {
    leftSide.close();
    rightSide.close();
  }

  @Override public String stateKind() {
    return "join";
  }

  /** Bounded by the watermark when the time range evicts the rows of both sides. */
  @Override public StateBound stateBound() {
    return StateBound.of(range.hasLower() && range.hasUpper(), ttlMs);
  }

  /**
   * Drops a kept row of either side {@code ttlMs} after the batch that kept it (Flink's state
   * TTL of a regular join); called before the first batch.
   */
  @Override public void expireStateAfter(long ttlMs) {
    this.ttlMs = ttlMs;
    leftSide.expireStateAfter(ttlMs);
    rightSide.expireStateAfter(ttlMs);
  }

  @Override public synchronized long nextExpiryMs() {
    return Math.min(leftSide.nextExpiryMs(), rightSide.nextExpiryMs());
  }

  @Override public long stateBytes() {
    return metrics.numTotalStateRows() * Math.max(leftSide.bytesPerRow, rightSide.bytesPerRow);
  }

  /** Starts the batch on both inputs, for a runtime that drives the join as one operator. */
  @Override public void startBatch(BatchContext batch) {
    leftInput.startBatch(batch);
    rightInput.startBatch(batch);
  }

  /** Refused: rows go into {@link #left()} or {@link #right()}. */
  @Override public void push(Object[] row) {
    throw new UnsupportedOperationException("push into left() or right() of a join");
  }

  /** Finishes the batch on both inputs: the join runs. */
  @Override public void finishBatch(BatchContext batch) {
    leftInput.finishBatch(batch);
    rightInput.finishBatch(batch);
  }

  @Override public void abortBatch(BatchContext batch) {
    abort(batch);
  }

  /**
   * True when the watermark {@code newWatermarkMs} would evict a row of either side, so that a
   * batch without data emits the outer rows it makes final (Spark's no-data batch); before this
   * operator has loaded its state, whenever it would move a side's state watermark.
   */
  @Override public boolean needsNoDataBatch(long newWatermarkMs) {
    return wouldEvict(leftSide, range.leftStateWatermark(newWatermarkMs))
        || wouldEvict(rightSide, range.rightStateWatermark(newWatermarkMs))
        || downstream.needsNoDataBatch(back(newWatermarkMs));
  }

  private synchronized boolean wouldEvict(JoinSide side, long stateWatermarkMs) {
    if (stateWatermarkMs == Long.MIN_VALUE) {
      return false;
    }
    // Before its first batch (or after an abort) the operator does not know its state; a batch
    // that evicts nothing costs little, one that should have run and did not loses NULL rows.
    return !side.loaded() || side.wouldEvict(stateWatermarkMs);
  }

  private synchronized void start(Input input, BatchContext batch) {
    if (input.started) {
      throw new IllegalStateException("the " + input.name + " input started batch "
          + batch.batchId() + " twice");
    }
    if (current == null) {
      current = batch;
      if (batch.resources() != resources) {
        resources = batch.resources();
        stateAccount = resources.newAccount();
        leftInputAccount = resources.newAccount();
        rightInputAccount = resources.newAccount();
      }
      numOutputRows = 0;
      downstreamBatch = delayed(batch);
      downstream.startBatch(downstreamBatch);
    } else if (current.batchId() != batch.batchId()) {
      throw new IllegalStateException("the " + input.name + " input started batch "
          + batch.batchId() + " while batch " + current.batchId() + " is under way");
    }
    input.started = true;
    input.side.startInput(batch.lateEventsWatermarkMs(),
        input == leftInput ? leftInputAccount : rightInputAccount);
  }

  private synchronized void finish(Input input, BatchContext batch) {
    if (!input.started || input.finished) {
      throw new IllegalStateException("the " + input.name + " input finished batch "
          + batch.batchId() + " without starting it");
    }
    input.finished = true;
    if (leftInput.finished && rightInput.finished) {
      runBatch(batch);
      current = null;
      leftInput.reset();
      rightInput.reset();
      downstream.finishBatch(downstreamBatch);
    }
  }

  private synchronized void abort(BatchContext batch) {
    if (current == null && abortedBatchId == batch.batchId()) {
      return;
    }
    current = null;
    abortedBatchId = batch.batchId();
    leftInput.reset();
    rightInput.reset();
    leftSide.abort();
    rightSide.abort();
    downstream.abortBatch(delayed(batch));
  }

  /** Joins the batch's rows, evicts, emits the outer rows and commits both sides. */
  private void runBatch(BatchContext batch) {
    leftSide.open(batch.stateVersion(), batch.batchTimestampMs());
    rightSide.open(batch.stateVersion(), batch.batchTimestampMs());
    // Before joining: a row whose TTL ran out matches nothing.
    leftSide.expireByTtl();
    rightSide.expireByTtl();
    for (StateRow row : leftSide.input) {
      Object key = leftSide.keyOf(row);
      if (JoinSide.hasNull(key)) {
        emitUnmatched(leftSide, row);
        continue;
      }
      probe(row, rightSide.rowsOf(key), true);
      leftSide.keep(key, row);
    }
    for (StateRow row : rightSide.input) {
      Object key = rightSide.keyOf(row);
      if (JoinSide.hasNull(key)) {
        emitUnmatched(rightSide, row);
        continue;
      }
      probe(row, leftSide.rowsOf(key), false);
      rightSide.keep(key, row);
    }
    List<StateRow> unmatched = new ArrayList<>();
    leftSide.evict(range.leftStateWatermark(batch.evictionWatermarkMs()), unmatched);
    emitUnmatched(leftSide, unmatched);
    unmatched.clear();
    rightSide.evict(range.rightStateWatermark(batch.evictionWatermarkMs()), unmatched);
    emitUnmatched(rightSide, unmatched);
    long dropped = leftSide.dropped + rightSide.dropped;
    // The state now holds the batch's rows: checked against the budget before it commits them.
    leftSide.releaseInput();
    rightSide.releaseInput();
    stateAccount.set(leftSide.numRows() * leftSide.bytesPerStateRow
        + rightSide.numRows() * rightSide.bytesPerStateRow);
    leftSide.commit();
    rightSide.commit();
    metrics = new StateMetrics(numOutputRows, leftSide.numRows() + rightSide.numRows(),
        leftSide.updated + rightSide.updated, leftSide.removed + rightSide.removed, dropped);
  }

  /**
   * Joins a new row with the other side's rows of its key; {@code fromLeft} tells which side the
   * new row is on.
   */
  private void probe(StateRow row, List<StateRow> others, boolean fromLeft) {
    if (others == null) {
      return;
    }
    JoinSide mine = fromLeft ? leftSide : rightSide;
    JoinSide theirs = fromLeft ? rightSide : leftSide;
    int leftWidth = spec.leftWidth();
    int rightWidth = spec.rightWidth();
    for (int i = 0, n = others.size(); i < n; i++) {
      if (++sinceCheck == CHECK_EVERY) {
        sinceCheck = 0;
        resources.throwIfCancelled();
      }
      StateRow other = others.get(i);
      StateRow l = fromLeft ? row : other;
      StateRow r = fromLeft ? other : row;
      if (ranged && !(l.hasTime && r.hasTime && range.contains(l.eventTimeMs, r.eventTimeMs))) {
        continue;
      }
      System.arraycopy(l.value, 0, joined, 0, leftWidth);
      System.arraycopy(r.value, 0, joined, leftWidth, rightWidth);
      if (residual != null && !residual.test(joined)) {
        continue;
      }
      mine.markMatched(row);
      theirs.markMatched(other);
      numOutputRows++;
      downstream.push(joined);
    }
  }

  /** Emits evicted unmatched rows of {@code side} padded with NULLs, in the order they came. */
  private void emitUnmatched(JoinSide side, List<StateRow> rows) {
    rows.sort((a, b) -> Long.compare(a.id, b.id));
    for (StateRow row : rows) {
      emitUnmatched(side, row);
    }
  }

  /** Emits {@code row} of an outer side padded with NULLs; nothing for an inner side. */
  private void emitUnmatched(JoinSide side, StateRow row) {
    if (!side.keepsUnmatched) {
      return;
    }
    int leftWidth = spec.leftWidth();
    Arrays.fill(joined, null);
    if (side == leftSide) {
      System.arraycopy(row.value, 0, joined, 0, leftWidth);
    } else {
      System.arraycopy(row.value, 0, joined, leftWidth, spec.rightWidth());
    }
    numOutputRows++;
    downstream.push(joined);
  }

  /** One input of the join: keeps its side's rows for the batch. */
  private final class Input implements Operator {
    private final JoinSide side;
    private final String name;
    private boolean started;
    private boolean finished;

    Input(JoinSide side, String name) {
      this.side = side;
      this.name = name;
    }

    void reset() {
      started = false;
      finished = false;
    }

    @Override public void startBatch(BatchContext batch) {
      start(this, batch);
    }

    @Override public void push(Object[] row) {
      side.add(row);
    }

    @Override public void finishBatch(BatchContext batch) {
      finish(this, batch);
    }

    @Override public void abortBatch(BatchContext batch) {
      abort(batch);
    }

    @Override public boolean needsNoDataBatch(long newWatermarkMs) {
      return StreamStreamJoinOperator.this.needsNoDataBatch(newWatermarkMs);
    }
  }
}
