package dev.freshet.executor.operators;

import dev.freshet.executor.limits.MemoryAccount;
import dev.freshet.executor.limits.QueryResources;
import java.util.ArrayList;
import java.util.List;

/**
 * Last operator of a pipeline: copies the rows of the current batch so that the sink can take them.
 *
 * <p>The rows it holds count in the query's memory estimate, at
 * {@link #bytesPerRow(int) an estimated size} each, checked every {@value #CHECK_EVERY} rows.
 */
public final class CollectOperator implements Operator {
  /** How many rows between two checks of the budget: often enough, and never per row. */
  static final int CHECK_EVERY = 1024;

  private List<Object[]> rows = new ArrayList<>();
  /** Whether pushed rows are copied: false when the upstream hands over a fresh array per row. */
  private final boolean copies;
  /** The query's resources, as its batches give them; the account is the rows'. */
  private QueryResources resources;
  private MemoryAccount account;

  /** A collector that copies each row: for an upstream that reuses its output array. */
  public CollectOperator() {
    this(true);
  }

  private CollectOperator(boolean copies) {
    this.copies = copies;
  }

  /**
   * A collector that keeps the arrays it is pushed: for an upstream that hands over a fresh array
   * per row and never touches it again (a stateful aggregation's emitted rows), which then need
   * no copy.
   */
  public static CollectOperator adopting() {
    return new CollectOperator(false);
  }

  @Override public void startBatch(BatchContext batch) {
    rows = new ArrayList<>();
    if (batch.resources() != resources) {
      resources = batch.resources();
      account = resources.newAccount();
    }
  }

  @Override public void push(Object[] row) {
    rows.add(copies ? row.clone() : row);
    if (rows.size() % CHECK_EVERY == 0) {
      account.set(rows.size() * bytesPerRow(row.length));
    }
  }

  /**
   * The estimated heap of a row of {@code width} columns as this keeps it: the array (header and
   * a reference per column) and a boxed value or short string per column.
   */
  static long bytesPerRow(int width) {
    return 16 + 8L * width + 32L * width;
  }

  @Override public void finishBatch(BatchContext batch) {
  }

  @Override public void abortBatch(BatchContext batch) {
    rows = new ArrayList<>();
    if (account != null) {
      account.set(0);
    }
  }

  /** Returns the rows of the batch just finished and forgets them (and their estimate). */
  public List<Object[]> takeRows() {
    List<Object[]> taken = rows;
    rows = new ArrayList<>();
    if (account != null) {
      account.set(0);
    }
    return taken;
  }
}
