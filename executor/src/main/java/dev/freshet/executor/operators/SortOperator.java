package dev.freshet.executor.operators;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Sorts the rows of each batch and keeps {@code fetch} of them after skipping {@code offset}:
 * ORDER BY and LIMIT over a complete-mode aggregation, whose every batch is the whole result.
 */
public final class SortOperator extends ForwardingOperator {
  private final Comparator<Object[]> comparator;
  private final long offset;
  private final long fetch;
  private final List<Object[]> rows = new ArrayList<>();

  /**
   * Creates the operator.
   *
   * @param keys the ORDER BY columns, most significant first
   * @param offset rows to skip
   * @param fetch rows to keep after the offset, or -1 for all
   * @param downstream receives the sorted rows at the end of each batch
   */
  public SortOperator(List<SortKey> keys, long offset, long fetch, Operator downstream) {
    super(downstream);
    this.comparator = SortKey.order(keys);
    this.offset = offset;
    this.fetch = fetch;
  }

  @Override public void startBatch(BatchContext batch) {
    rows.clear();
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    rows.add(row.clone());
  }

  @Override public void finishBatch(BatchContext batch) {
    rows.sort(comparator);
    long end = fetch < 0 ? rows.size() : Math.min(rows.size(), offset + fetch);
    for (long i = offset; i < end; i++) {
      downstream.push(rows.get((int) i));
    }
    rows.clear();
    downstream.finishBatch(batch);
  }

  @Override public void abortBatch(BatchContext batch) {
    rows.clear();
    downstream.abortBatch(batch);
  }
}
