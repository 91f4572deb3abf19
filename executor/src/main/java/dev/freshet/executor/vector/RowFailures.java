package dev.freshet.executor.vector;

/**
 * The rows of one vector batch whose expressions failed (a value out of its type's range), with
 * the message the row path's exception would have: kernels do not throw, so that the calc can
 * fail the batch, or drop exactly the failing rows, as the row path does for each row.
 *
 * <pre>{@code
 * failures.clear();
 * ColumnVector v = expression.evaluate(batch, failures);
 * if (failures.count() > 0) { ... failures.failed(row), failures.message(row) ... }
 * }</pre>
 *
 * <p>The first failure of a row wins, as the row path stops at a row's first failing expression.
 */
public final class RowFailures {
  private final boolean[] failed;
  /** Allocated at the first failure: a batch without failures allocates nothing. */
  private String[] messages;
  private int count;

  /** Failures of a batch of up to {@code capacity} rows. */
  public RowFailures(int capacity) {
    this.failed = new boolean[capacity];
  }

  /** Records that {@code row} failed with {@code message}, unless it failed before. */
  public void record(int row, String message) {
    if (failed[row]) {
      return;
    }
    if (messages == null) {
      messages = new String[failed.length];
    }
    failed[row] = true;
    messages[row] = message;
    count++;
  }

  /** Number of failed rows. */
  public int count() {
    return count;
  }

  /** Whether {@code row} failed. */
  public boolean failed(int row) {
    return count > 0 && failed[row];
  }

  /** The message of {@code row}'s failure. */
  public String message(int row) {
    return messages[row];
  }

  /** Forgets every failure, for the next batch. */
  public void clear() {
    if (count > 0) {
      java.util.Arrays.fill(failed, false);
      java.util.Arrays.fill(messages, null);
      count = 0;
    }
  }
}
