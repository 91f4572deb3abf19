package dev.freshet.engine.options;

import dev.freshet.executor.operators.RowErrors;
import java.util.Locale;

/**
 * The values of option {@link SessionOption#ON_ERROR}: what a continuous query does with a row
 * whose expressions fail.
 *
 * <pre>{@code
 * SET 'on.error' = 'skip';
 * CREATE MATERIALIZED VIEW ratios AS SELECT k, SUM(100 / i) AS r FROM s GROUP BY k;
 * }</pre>
 */
public enum RowErrorPolicy {
  /** The batch fails, and with it the query; a restart fails on the same row (Spark's way). */
  FAIL,
  /** The row is dropped and counted ({@code ROWS_DROPPED_BY_ERROR} in SYS.QUERY_PROGRESS). */
  SKIP;

  /** The policy as {@code SET} spells it. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** A new handler of failing rows for one query. */
  public RowErrors newRowErrors() {
    return this == SKIP ? RowErrors.skipping() : RowErrors.failing();
  }
}
