package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code UNION ALL} of several inputs: each input's rows go on to one downstream operator, which
 * sees one batch of all of them (Spark's {@code UnionExec}).
 *
 * <p>Every input's chain starts and finishes each batch; the downstream operator starts with the
 * first input's {@code startBatch} and finishes with the last input's {@code finishBatch}, so an
 * aggregation above the union commits its state once per batch, after every input's rows. The
 * inputs are pushed on one thread, one after another (a pipeline with several inputs reads them
 * on the batch thread).
 *
 * <pre>{@code
 * UnionOperator union = new UnionOperator(2, aggregate);
 * Operator fromClicks = union.input(0);   // the head of the first stream's chain feeds this
 * Operator fromViews = union.input(1);
 * }</pre>
 */
public final class UnionOperator {
  private final Operator downstream;
  private final List<Operator> inputs = new ArrayList<>();
  /** Inputs that started the current batch, and that finished it. */
  private int started;
  private int finished;

  /**
   * Creates a union of {@code inputs} inputs.
   *
   * @param inputs how many inputs it has, at least 1
   * @param downstream receives every input's rows
   */
  public UnionOperator(int inputs, Operator downstream) {
    if (inputs < 1) {
      throw new IllegalArgumentException("a union needs an input: " + inputs);
    }
    this.downstream = requireNonNull(downstream, "downstream");
    for (int i = 0; i < inputs; i++) {
      this.inputs.add(new Input());
    }
  }

  /** Where the rows of input {@code i} are pushed. */
  public Operator input(int i) {
    return inputs.get(i);
  }

  /** One input: its calls reach the downstream operator once per batch, its rows each. */
  private final class Input extends ForwardingOperator {
    Input() {
      super(UnionOperator.this.downstream);
    }

    @Override public void startBatch(BatchContext batch) {
      if (started++ == 0) {
        finished = 0;
        downstream.startBatch(batch);
      }
    }

    @Override public void push(Object[] row) {
      downstream.push(row);
    }

    @Override public void finishBatch(BatchContext batch) {
      if (++finished == inputs.size()) {
        started = 0;
        downstream.finishBatch(batch);
      }
    }

    @Override public void abortBatch(BatchContext batch) {
      // The first input to abort aborts the batch below; the others find nothing started.
      if (started > 0) {
        started = 0;
        finished = 0;
        downstream.abortBatch(batch);
      }
    }
  }
}
