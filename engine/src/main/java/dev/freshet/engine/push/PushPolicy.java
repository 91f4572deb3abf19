package dev.freshet.engine.push;

/**
 * How a {@link PushQuery} keeps the rows its reader has not read yet, so that its memory stays
 * bounded whatever the reader's pace. One record per policy, each with what only it needs.
 *
 * <pre>{@code
 * // SELECT k, COUNT(*) ... EMIT UPDATE, rows (k, n, KEY$0, $NEW_KEY)
 * PushPolicy policy = new PushPolicy.Upsert(new int[] {2}, 3);
 * // SELECT * FROM clicks: rows never change
 * PushPolicy policy = new PushPolicy.Append(100_000);
 * }</pre>
 */
public sealed interface PushPolicy
    permits PushPolicy.Append, PushPolicy.Upsert, PushPolicy.Table, PushPolicy.Changes {

  /**
   * Rows never change (APPEND mode, or a query without aggregation): they are kept in order, and
   * a reader more than {@code bufferRows} rows behind fails the subscription.
   *
   * @param bufferRows most unread rows kept ({@code push.buffer.rows})
   */
  record Append(long bufferRows) implements PushPolicy {
    public Append {
      checkBound(bufferRows);
    }
  }

  /**
   * Rows are upserts by key (UPDATE mode): the latest unread row per key is kept, so unread
   * rows are at most one per key.
   *
   * @param keyColumns positions of the group key in the emitted rows (hidden columns)
   * @param newKeyColumn position of the aggregation's new-key flag, which tells an INSERT from an
   *     UPDATE
   * @param kindColumn position of a {@link RowKind} that may say DELETE (a view's change rows),
   *     or -1 if rows are never deletions
   */
  record Upsert(int[] keyColumns, int newKeyColumn, int kindColumn) implements PushPolicy {
    public Upsert {
      keyColumns = keyColumns.clone();
      if (newKeyColumn < 0) {
        throw new IllegalArgumentException("an UPSERT result needs the new-key flag");
      }
    }

    /** Rows that are never deletions. */
    public Upsert(int[] keyColumns, int newKeyColumn) {
      this(keyColumns, newKeyColumn, -1);
    }

    @Override public int[] keyColumns() {
      return keyColumns.clone();
    }
  }

  /**
   * Each batch is the whole table (COMPLETE mode): the table being read and the latest unread
   * one are kept, and rows are INSERT, UPDATE or DELETE against the table the reader has.
   *
   * @param keyColumns positions of the group key in the emitted rows (hidden columns)
   */
  record Table(int[] keyColumns) implements PushPolicy {
    public Table {
      keyColumns = keyColumns.clone();
    }

    @Override public int[] keyColumns() {
      return keyColumns.clone();
    }
  }

  /**
   * Rows carry their own batch id and kind (a subscription to a view's changes): they are kept
   * in order, up to the same bound as {@link Append}.
   *
   * @param bufferRows most unread rows kept ({@code push.buffer.rows})
   */
  record Changes(long bufferRows) implements PushPolicy {
    public Changes {
      checkBound(bufferRows);
    }
  }

  private static void checkBound(long bufferRows) {
    if (bufferRows < 1) {
      throw new IllegalArgumentException("bufferRows must be positive: " + bufferRows);
    }
  }
}
