package dev.freshet.executor.operators;

import java.util.ArrayList;
import java.util.List;

/**
 * Last operator of a pipeline: copies the rows of the current batch so that the sink can take them.
 */
public final class CollectOperator implements Operator {
  private List<Object[]> rows = new ArrayList<>();

  @Override public void startBatch(BatchContext batch) {
    rows = new ArrayList<>();
  }

  @Override public void push(Object[] row) {
    rows.add(row.clone());
  }

  @Override public void finishBatch(BatchContext batch) {
  }

  @Override public void abortBatch(BatchContext batch) {
    rows = new ArrayList<>();
  }

  /** Returns the rows of the batch just finished and forgets them. */
  public List<Object[]> takeRows() {
    List<Object[]> taken = rows;
    rows = new ArrayList<>();
    return taken;
  }
}
