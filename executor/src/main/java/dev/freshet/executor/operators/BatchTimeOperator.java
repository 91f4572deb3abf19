package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import java.util.function.LongConsumer;

/**
 * Tells the expressions of a query that read the current time ({@code CURRENT_TIMESTAMP}) the
 * processing time of each batch, before the batch's first row; passes everything else through.
 * The time is {@link BatchContext#batchTimestampMs()}, which the offset log records, so a batch
 * that runs again after a crash reads the time it first ran with.
 *
 * <pre>{@code
 * Operator head = new BatchTimeOperator(batchTime::startBatch, firstCalc);
 * }</pre>
 *
 * <p>The planner puts one at the head of each chain, and only into plans whose expressions read
 * the time, so other plans pay nothing for it.
 */
public final class BatchTimeOperator extends ForwardingOperator {
  private final LongConsumer batchTime;

  /**
   * @param batchTime receives each batch's time as it starts
   * @param downstream the operator rows go to
   */
  public BatchTimeOperator(LongConsumer batchTime, Operator downstream) {
    super(downstream);
    this.batchTime = requireNonNull(batchTime, "batchTime");
  }

  @Override public void startBatch(BatchContext batch) {
    batchTime.accept(batch.batchTimestampMs());
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    downstream.push(row);
  }
}
