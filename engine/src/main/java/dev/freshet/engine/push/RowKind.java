package dev.freshet.engine.push;

/**
 * What a row of a push result is to its reader, as the {@value PushQuery#ROW_KIND} column names
 * it; also the kind of each change a view's result records. Rows carry the constant while they
 * are buffered and compared; the reader gets {@link #text()}.
 *
 * <pre>{@code
 * RowKind.UPDATE.text();   // "UPDATE", the value of _ROW_KIND
 * }</pre>
 */
public enum RowKind {
  /** A key the result did not have (every row of an APPEND result). */
  INSERT,
  /** A new value for a key the result had. */
  UPDATE,
  /** A key the result no longer has; the row carries its last values. */
  DELETE,
  /** The marker that ends a batch ({@code push.batch.markers}); its data columns are null. */
  BATCH_END,
  /**
   * Progress, sent instead of an empty frame to a remote client that cannot wait for rows (see
   * {@link PushQuery#nextOrProgress}): no row came; its data columns are null and its
   * {@value PushQuery#BATCH_ID} is the last batch whose rows were all read (null before the first).
   */
  PROGRESS;

  /** The value of {@value PushQuery#ROW_KIND}: the constant's name. */
  public String text() {
    return name();
  }
}
