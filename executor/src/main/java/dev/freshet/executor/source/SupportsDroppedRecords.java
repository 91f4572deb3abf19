package dev.freshet.executor.source;

/**
 * Source that may skip input records it cannot read (a malformed JSON record, when the user
 * asked for malformed records to be skipped), and counts them, so that progress shows them
 * among the rows a query dropped: nothing is skipped silently.
 *
 * <pre>{@code
 * long before = source.droppedRecords();
 * source.readRange(start, end, rows);
 * long droppedInBatch = source.droppedRecords() - before;
 * }</pre>
 */
public interface SupportsDroppedRecords extends Source {
  /** Records skipped since the source was created. */
  long droppedRecords();
}
