package dev.freshet.executor.operators;

/**
 * What a batch did to a group, in the last column of each row an UPDATE-mode aggregation emits
 * when asked to ({@link StatefulAggregateOperator#emitGroupChanges()}): a materialized view that
 * reads the aggregation's state learns from it which change rows to hand its subscribers and
 * which groups leave the state.
 *
 * <pre>{@code
 * byte change = (Byte) row[row.length - 1];
 * if (change == GroupChange.EVICTED) { ... keep the final row elsewhere ... }
 * }</pre>
 */
public final class GroupChange {
  /** The group had no saved value before the batch. */
  public static final byte NEW = 0;
  /** The group had a saved value, which the batch changed. */
  public static final byte UPDATED = 1;
  /**
   * The watermark made the group final and the batch removed it from the state; the row holds
   * its last value. A group may be updated and then evicted in one batch: two rows.
   */
  public static final byte EVICTED = 2;
  /**
   * A retracting input took back the group's last row: the batch deleted it from the state; the
   * row holds its value before the batch.
   */
  public static final byte DELETED = 3;

  private GroupChange() {
  }
}
