package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

/**
 * One aggregate function applied to one column of its input.
 *
 * <p>Example: {@code SUM(amount)} over input {@code (user_id, amount)} is
 * {@code new AggregateCall(AggregateFunction.SUM, 1, ValueKind.DOUBLE)}, and
 * {@code COUNT(DISTINCT amount) FILTER (WHERE big)} over input {@code (user_id, amount, big)} is
 * {@code new AggregateCall(AggregateFunction.COUNT, 1, ValueKind.LONG, true, 2)}.
 *
 * <p>A distinct call keeps the set of distinct non-null values as its buffer, both in the partial
 * aggregate (the batch's values) and in the merge (the saved values); its SQL value, the set's size
 * or sum, is computed only when a row is emitted. Only a partial call may have a filter: the merge
 * reads partial rows, which have no filter column.
 *
 * @param function the function
 * @param argIndex the input column, or -1 for {@code COUNT(*)}
 * @param resultKind the representation of the result (and of the accumulator)
 * @param distinct whether only distinct values count; for {@code COUNT} and {@code SUM}
 * @param filterArg the input column of type BOOLEAN NOT NULL that a row needs to be TRUE in to
 *     count, or -1 for none
 */
public record AggregateCall(AggregateFunction function, int argIndex, ValueKind resultKind,
    boolean distinct, int filterArg) {
  public AggregateCall {
    requireNonNull(function, "function");
    requireNonNull(resultKind, "resultKind");
    if (function == AggregateFunction.COUNT_STAR ? argIndex != -1 : argIndex < 0) {
      throw new IllegalArgumentException(function + " cannot take argument " + argIndex);
    }
    if (distinct && function != AggregateFunction.COUNT && function != AggregateFunction.SUM) {
      // MIN and MAX ignore duplicates anyway; the planner drops their DISTINCT.
      throw new IllegalArgumentException(function + " cannot be distinct");
    }
    if (filterArg < -1) {
      throw new IllegalArgumentException("filterArg must be a column or -1: " + filterArg);
    }
  }

  /** Creates a call without DISTINCT and without a filter. */
  public AggregateCall(AggregateFunction function, int argIndex, ValueKind resultKind) {
    this(function, argIndex, resultKind, false, -1);
  }

  /** Whether the call has a {@code FILTER (WHERE ...)} column. */
  public boolean hasFilter() {
    return filterArg >= 0;
  }

  @Override public String toString() {
    String call = function == AggregateFunction.COUNT_STAR
        ? "COUNT()" : function + "(" + (distinct ? "DISTINCT " : "") + "$" + argIndex + ")";
    return hasFilter() ? call + " FILTER $" + filterArg : call;
  }
}
