package dev.freshet.executor.operators;

import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a query does with a row whose expressions fail (a division by zero, a failed cast): fail
 * the batch, and with it the query, as Spark does; or drop the row and count it, so that one bad
 * row does not stop a view for good.
 *
 * <pre>{@code
 * RowErrors errors = RowErrors.skipping();
 * new CalcOperator(calc, width, downstream, errors);
 * errors.droppedRows();   // rows dropped so far, over every batch
 * }</pre>
 */
public final class RowErrors {
  private static final Logger LOG = LoggerFactory.getLogger(RowErrors.class);
  private static final RowErrors FAILING = new RowErrors(false);

  private final boolean skip;
  /** Touched only when a row fails: input tasks may drop rows at once. */
  private final LongAdder dropped = new LongAdder();

  private RowErrors(boolean skip) {
    this.skip = skip;
  }

  /** Fails the batch on the first row that fails (the default). */
  public static RowErrors failing() {
    return FAILING;
  }

  /** Drops each row that fails, and counts it. A new counter for each query. */
  public static RowErrors skipping() {
    return new RowErrors(true);
  }

  /** Whether a failing row is dropped rather than failing the batch. */
  public boolean skips() {
    return skip;
  }

  /** Records that a row failed with {@code e} and was dropped. */
  public void dropped(RuntimeException e) {
    dropped.increment();
    if (LOG.isDebugEnabled()) {
      LOG.debug("Dropped a row whose expression failed", e);
    }
  }

  /** How many rows were dropped since the query started. */
  public long droppedRows() {
    return dropped.sum();
  }
}
