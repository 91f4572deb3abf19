package dev.freshet.sql.parser;

import org.apache.calcite.sql.Symbolizable;

/**
 * Output mode of a continuous query, as given by its trailing {@code EMIT}
 * clause.
 *
 * <p>For example, {@code SELECT k, COUNT(*) FROM s GROUP BY k EMIT UPDATE}
 * has mode {@link #UPDATE}.
 *
 * @see SqlEmit
 */
public enum EmitMode implements Symbolizable {
  /** Emit only the result rows that changed since the last trigger. */
  UPDATE,
  /** Emit only rows that are final and will never change (needs a watermark
   * for aggregations). */
  APPEND,
  /** Emit the whole result table at every trigger. */
  COMPLETE
}
