package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

/**
 * One aggregate function applied to one column of its input.
 *
 * <p>Example: {@code SUM(amount)} over input {@code (user_id, amount)} is
 * {@code new AggregateCall(AggregateFunction.SUM, 1, ValueKind.DOUBLE)}.
 *
 * @param function the function
 * @param argIndex the input column, or -1 for {@code COUNT(*)}
 * @param resultKind the representation of the result (and of the accumulator)
 */
public record AggregateCall(AggregateFunction function, int argIndex, ValueKind resultKind) {
  public AggregateCall {
    requireNonNull(function, "function");
    requireNonNull(resultKind, "resultKind");
    if (function == AggregateFunction.COUNT_STAR ? argIndex != -1 : argIndex < 0) {
      throw new IllegalArgumentException(function + " cannot take argument " + argIndex);
    }
  }

  @Override public String toString() {
    return function == AggregateFunction.COUNT_STAR
        ? "COUNT()" : function + "($" + argIndex + ")";
  }
}
