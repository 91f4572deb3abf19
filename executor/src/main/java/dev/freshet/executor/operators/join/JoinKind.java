package dev.freshet.executor.operators.join;

/**
 * Which rows a stream-stream join emits: the matching pairs, and for an outer join also each row
 * of the outer side(s) that matched nothing, padded with NULLs once the watermark proves that no
 * match can come.
 */
public enum JoinKind {
  /** Matching pairs only. */
  INNER,
  /** Matching pairs, and each left row that matched nothing. */
  LEFT_OUTER,
  /** Matching pairs, and each right row that matched nothing. */
  RIGHT_OUTER,
  /** Matching pairs, and each row of either side that matched nothing. */
  FULL_OUTER;

  /** Whether unmatched left rows are emitted. */
  public boolean keepsLeft() {
    return this == LEFT_OUTER || this == FULL_OUTER;
  }

  /** Whether unmatched right rows are emitted. */
  public boolean keepsRight() {
    return this == RIGHT_OUTER || this == FULL_OUTER;
  }
}
