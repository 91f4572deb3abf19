package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.source.Source;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * One stream a query reads and the operator its rows are pushed into: a query that joins or
 * unions streams has one per stream (Spark's sources of a {@code StreamExecution}), in the order
 * of its offset log's entries.
 *
 * <pre>{@code
 * new SourceInput(clicks.source(), union.input(1));
 * }</pre>
 *
 * @param source the stream's rows
 * @param head the first operator of the chain that reads them
 */
public record SourceInput(Source source, Operator head) {
  public SourceInput {
    requireNonNull(source, "source");
    requireNonNull(head, "head");
  }

  /**
   * Runs one batch over several streams' chains: starts the batch on every chain, reads stream
   * {@code i} with {@code readStream.accept(i)} one after another on this thread, then finishes
   * the batch on every chain, also those whose stream had no new rows; if anything fails, every
   * chain aborts the batch and the failure goes on.
   */
  static void inOneBatch(List<SourceInput> inputs, BatchContext batch, IntConsumer readStream) {
    try {
      for (SourceInput input : inputs) {
        input.head().startBatch(batch);
      }
      for (int i = 0; i < inputs.size(); i++) {
        readStream.accept(i);
      }
      for (SourceInput input : inputs) {
        input.head().finishBatch(batch);
      }
    } catch (RuntimeException | Error e) {
      for (SourceInput input : inputs) {
        input.head().abortBatch(batch);
      }
      throw e;
    }
  }
}
