package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

/**
 * An operator with one downstream operator, to which it forwards each call of a batch's life
 * (start, finish, abort, whether a batch without data is needed) after its own work: a subclass
 * overrides only the calls it takes part in, and says what it does with a row ({@link #push}).
 *
 * <pre>{@code
 * final class Tagging extends ForwardingOperator {
 *   Tagging(Operator downstream) { super(downstream); }
 *   @Override public void push(Object[] row) { downstream.push(tag(row)); }
 * }
 * }</pre>
 *
 * <p>An override that does work of its own ends by calling the same method of
 * {@link #downstream}, or of {@code super}.
 */
public abstract class ForwardingOperator implements Operator {
  /** The operator this one emits into, and forwards the batch's calls to. */
  protected final Operator downstream;

  protected ForwardingOperator(Operator downstream) {
    this.downstream = requireNonNull(downstream, "downstream");
  }

  @Override public void startBatch(BatchContext batch) {
    downstream.startBatch(batch);
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
