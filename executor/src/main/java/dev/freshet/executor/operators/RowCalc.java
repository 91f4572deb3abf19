package dev.freshet.executor.operators;

/**
 * Compiled filter and projection over one row: the stateless part of a plan.
 *
 * <p>The planner generates implementations from SQL expressions; the executor only calls them.
 * Rows use Calcite's internal representation (VARCHAR as {@code String}, BIGINT as {@code Long},
 * TIMESTAMP as {@code Long} milliseconds, DATE as {@code Integer} days).
 *
 * <pre>{@code
 * Object[] out = new Object[2];
 * if (calc.apply(new Object[] {"a", 1.5}, out)) { ... out holds the projected row ... }
 * }</pre>
 */
@FunctionalInterface
public interface RowCalc {
  /**
   * Evaluates the filter and, if the row passes, writes the projections into {@code out}.
   *
   * @param in input row; not retained
   * @param out output row to fill; its length is the number of projections
   * @return whether the row passed the filter ({@code out} is undefined otherwise)
   */
  boolean apply(Object[] in, Object[] out);
}
