package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.source.Source;

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
}
