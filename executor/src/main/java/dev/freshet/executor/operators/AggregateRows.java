package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

/**
 * Turns a group's key and saved aggregation buffer into the row the aggregation emits for it: the
 * key columns, then the SQL value of each aggregate. What {@link StatefulAggregateOperator}
 * emits for a group equals what this computes from the group's committed state, so a reader of
 * the state (a materialized view's pull query) sees the rows the batch emitted.
 *
 * <pre>{@code
 * AggregateRows rows = new AggregateRows(spec);
 * Object[] row = rows.row(key, pinnedState.get(key));   // [k, COUNT(*), SUM(n)]
 * }</pre>
 *
 * <p>Stateless: any number of threads may use one instance. For a distinct aggregate the value
 * is computed from the saved set of values, so it costs the set's size.
 */
public final class AggregateRows {
  private final KeyExtractor keys;
  private final Accumulator[] merge;
  private final int width;

  /** The rows of the aggregation {@code spec} describes. */
  public AggregateRows(StatefulAggregateSpec spec) {
    requireNonNull(spec, "spec");
    int keyCount = spec.keyIndexes().length;
    int[] leading = new int[keyCount];
    for (int i = 0; i < keyCount; i++) {
      leading[i] = i;
    }
    this.keys = new KeyExtractor(leading);
    this.merge = new Accumulator[spec.mergeCalls().size()];
    for (int i = 0; i < merge.length; i++) {
      merge[i] = spec.retracting()
          ? RetractingAccumulators.merge(spec.partialCalls().get(i), spec.mergeCalls().get(i),
              keyCount + i)
          : Accumulator.merge(spec.mergeCalls().get(i), keyCount + i);
    }
    this.width = keyCount + merge.length;
  }

  /** Columns of a row: the key columns, then one per aggregate. */
  public int width() {
    return width;
  }

  /** The group key of a row this wrote (or the aggregation emitted): its leading columns. */
  public Object keyOf(Object[] row) {
    return keys.keyOf(row);
  }

  /** The row of the group {@code key} whose saved buffer is {@code saved}, in a new array. */
  public Object[] row(Object key, Object[] saved) {
    Object[] row = new Object[width];
    write(key, saved, row);
    return row;
  }

  /**
   * Writes the row of the group {@code key} into the first {@link #width()} slots of
   * {@code row}, which may be longer.
   */
  public void write(Object key, Object[] saved, Object[] row) {
    if (width > merge.length) {
      keys.writeKey(key, row);
    }
    for (Accumulator a : merge) {
      row[a.slot] = a.result(saved[a.slot]);
    }
  }
}
