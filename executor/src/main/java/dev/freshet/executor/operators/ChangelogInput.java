package dev.freshet.executor.operators;

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
public final class ChangelogInput extends ForwardingOperator {
  /** The marker of a row that takes back an earlier row. */
  public static final Boolean RETRACT = Boolean.TRUE;
  /** The marker of a row that is added. */
  public static final Boolean ADD = Boolean.FALSE;

  private final int markerIndex;

  /**
   * Creates the input.
   *
   * @param markerIndex the position of the marker: the number of columns of the change's row
   * @param downstream receives the rows and retractions
   */
  public ChangelogInput(int markerIndex, Operator downstream) {
    super(downstream);
    this.markerIndex = markerIndex;
  }

  @Override public void push(Object[] row) {
    if (RETRACT.equals(row[markerIndex])) {
      downstream.retract(row);
    } else {
      downstream.push(row);
    }
  }
}
