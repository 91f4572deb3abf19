package dev.freshet.executor.operators;

/**
 * Aggregate functions the executor can maintain incrementally.
 *
 * <p>Each is both a partial aggregate (over input rows) and a merge aggregate (over partial results):
 * the planner merges partial {@code COUNT}s with {@code SUM0}, and partial {@code SUM}, {@code MIN}
 * and {@code MAX} with themselves. {@code AVG} is rewritten by the planner to {@code SUM / COUNT}.
 */
public enum AggregateFunction {
  /** {@code COUNT(*)}: rows, as BIGINT; never null. */
  COUNT_STAR,
  /** {@code COUNT(x)}: rows whose argument is not null, as BIGINT; never null. */
  COUNT,
  /** {@code SUM(x)}: null until a non-null value arrives. */
  SUM,
  /** {@code $SUM0(x)}: like SUM but zero, not null, when there is no value. */
  SUM0,
  /** {@code MIN(x)}, ignoring nulls. */
  MIN,
  /** {@code MAX(x)}, ignoring nulls. */
  MAX
}
