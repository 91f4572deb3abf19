package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

/**
 * The first operator above a source of changes (a view's change log): each row ends with one
 * more element, {@link #RETRACT} or {@link #ADD}, and goes downstream as a {@link Operator#push}
 * or an {@link Operator#retract} of the same array; operators read their columns by position,
 * so the trailing marker is never seen.
 *
 * <pre>{@code
 * Operator head = new ChangelogInput(2, calc);     // rows (k, n, marker)
 * head.push(new Object[] {"a", 3L, ChangelogInput.RETRACT});   // calc.retract(...)
 * head.push(new Object[] {"a", 4L, ChangelogInput.ADD});       // calc.push(...)
 * }</pre>
 */
public final class ChangelogInput implements Operator {
  /** The marker of a row that takes back an earlier row. */
  public static final Boolean RETRACT = Boolean.TRUE;
  /** The marker of a row that is added. */
  public static final Boolean ADD = Boolean.FALSE;

  private final int markerIndex;
  private final Operator downstream;

  /**
   * Creates the input.
   *
   * @param markerIndex the position of the marker: the number of columns of the change's row
   * @param downstream receives the rows and retractions
   */
  public ChangelogInput(int markerIndex, Operator downstream) {
    this.markerIndex = markerIndex;
    this.downstream = requireNonNull(downstream, "downstream");
  }

  @Override public void startBatch(BatchContext batch) {
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    if (RETRACT.equals(row[markerIndex])) {
      downstream.retract(row);
    } else {
      downstream.push(row);
    }
  }

  @Override public void finishBatch(BatchContext batch) {
    downstream.finishBatch(batch);
  }

  @Override public void abortBatch(BatchContext batch) {
    downstream.abortBatch(batch);
  }

  @Override public boolean needsNoDataBatch(long newWatermarkMs) {
    return downstream.needsNoDataBatch(newWatermarkMs);
  }
}
