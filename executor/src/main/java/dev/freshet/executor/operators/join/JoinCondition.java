package dev.freshet.executor.operators.join;

/**
 * The residual condition of a join, compiled by the planner: what remains of the ON clause after
 * the equi-keys and the event-time range, evaluated over the joined row (the left columns, then
 * the right ones). SQL's NULL (unknown) is false.
 *
 * <pre>{@code
 * JoinCondition cheaper = row -> (Long) row[1] < (Long) row[leftWidth + 1];
 * }</pre>
 *
 * <p>The row passed is only valid during the call, and the condition must not change it.
 */
@FunctionalInterface
public interface JoinCondition {
  /** Whether the pair in {@code joinedRow} matches. */
  boolean test(Object[] joinedRow);
}
