package dev.freshet.executor.operators.join;

/**
 * One input row kept by a side of a join: its columns and its "matched" flag, in the array that
 * the side's state store holds under the row's id.
 *
 * <p>The array ({@link #value}) is the row's columns followed by one {@code Boolean}, the flag as
 * last saved. Once saved it belongs to the store and is never changed: a saved row that matches
 * for the first time gets a copy with the flag set, saved again at the end of the batch.
 */
final class StateRow {
  /** The row's key in the store, unique within its side; assigned when the batch is processed. */
  long id;
  /** The columns, then the saved matched flag. */
  Object[] value;
  /** The event time in ms; meaningless when {@link #hasTime} is false. */
  final long eventTimeMs;
  /** Whether the row has an event time (a range never matches a NULL one). */
  final boolean hasTime;
  /** Whether the row matched a row of the other side, in this batch or before. */
  boolean matched;
  /** Whether {@link #value} is in the store, so that it must not be changed. */
  boolean saved;
  /** Whether the row must be written at the end of the batch (new, or newly matched). */
  boolean dirty;
  /** Whether the watermark removed the row in this batch. */
  boolean evicted;

  StateRow(Object[] value, long eventTimeMs, boolean hasTime, boolean matched) {
    this.value = value;
    this.eventTimeMs = eventTimeMs;
    this.hasTime = hasTime;
    this.matched = matched;
  }
}
