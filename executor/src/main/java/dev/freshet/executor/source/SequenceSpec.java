package dev.freshet.executor.source;

import static java.util.Objects.requireNonNull;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What a {@link SequenceSource} generates: the shape of its rows, how many there are, how fast
 * they become available, and how many one micro-batch takes.
 *
 * <pre>{@code
 * SequenceSpec nums = SequenceSpec.bounded("NUMS", 5_000_000);      // (value BIGINT), at once
 * SequenceSpec ticks = SequenceSpec.paced("TICKS", 1000)            // 1000 rows a second
 *     .withColumns(1, OptionalInt.of(0))                            // (ts TIMESTAMP, value BIGINT)
 *     .withStartTimeMs(1_767_225_600_000L);                         // row 0 at 2026-01-01
 * }</pre>
 *
 * <p>Row {@code i} (from 0) holds {@code i} in its value column and, if it has one, in its
 * timestamp column the event time {@code startTimeMs + i * 1000 / rowsPerSecond} (rounded down),
 * or {@code startTimeMs + i} without a pace. A sequence must end or be paced: one that did neither
 * would make every micro-batch as large as the batch limit, as fast as it could, for ever.
 *
 * @param name the stream's name, for descriptions and messages
 * @param valueField the index of the BIGINT column, 0 or 1
 * @param timestampField the index of the TIMESTAMP column, if the rows have one
 * @param end the number of rows (offsets {@code 0..end}); empty for a sequence without end
 * @param rowsPerSecond the pace, 1 to {@link #MAX_ROWS_PER_SECOND}; empty for all rows at once
 * @param rowsPerBatch the most rows one micro-batch takes, positive
 * @param startTimeMs the event time of row 0, in epoch milliseconds, between
 *     {@link #MIN_START_TIME_MS} and {@link #MAX_START_TIME_MS}
 */
public record SequenceSpec(String name, int valueField, OptionalInt timestampField,
    OptionalLong end, OptionalLong rowsPerSecond, long rowsPerBatch, long startTimeMs) {
  /** Rows one micro-batch takes unless told otherwise. */
  public static final long DEFAULT_ROWS_PER_BATCH = 1_000_000;
  /**
   * The fastest pace: a billion rows a second is beyond what one query processes, and the bound
   * keeps the pacing arithmetic within a {@code long} for the lifetime of any process.
   */
  public static final long MAX_ROWS_PER_SECOND = 1_000_000_000L;
  /** 0001-01-01T00:00:00Z, the first instant a SQL TIMESTAMP holds. */
  public static final long MIN_START_TIME_MS = -62_135_596_800_000L;
  /** 9999-12-31T23:59:59.999Z, the last instant a SQL TIMESTAMP holds. */
  public static final long MAX_START_TIME_MS = 253_402_300_799_999L;

  public SequenceSpec {
    requireNonNull(name, "name");
    requireNonNull(timestampField, "timestampField");
    requireNonNull(end, "end");
    requireNonNull(rowsPerSecond, "rowsPerSecond");
    int fields = timestampField.isPresent() ? 2 : 1;
    if (valueField < 0 || valueField >= fields
        || timestampField.isPresent() && timestampField.getAsInt() != 1 - valueField) {
      throw new IllegalArgumentException("sequence " + name + ": value field " + valueField
          + " and timestamp field " + timestampField + " are not the columns of a row of "
          + fields);
    }
    if (end.isPresent() && end.getAsLong() < 0) {
      throw new IllegalArgumentException("sequence " + name + ": end must not be negative: "
          + end.getAsLong());
    }
    if (rowsPerSecond.isPresent() && (rowsPerSecond.getAsLong() < 1
        || rowsPerSecond.getAsLong() > MAX_ROWS_PER_SECOND)) {
      throw new IllegalArgumentException("sequence " + name + ": rows per second must be 1 to "
          + MAX_ROWS_PER_SECOND + ": " + rowsPerSecond.getAsLong());
    }
    if (rowsPerBatch < 1) {
      throw new IllegalArgumentException("sequence " + name + ": rows per batch must be positive: "
          + rowsPerBatch);
    }
    if (startTimeMs < MIN_START_TIME_MS || startTimeMs > MAX_START_TIME_MS) {
      throw new IllegalArgumentException("sequence " + name + ": start time " + startTimeMs
          + " is not between " + MIN_START_TIME_MS + " and " + MAX_START_TIME_MS);
    }
    if (end.isEmpty() && rowsPerSecond.isEmpty()) {
      throw new IllegalArgumentException("sequence " + name + " needs an end or a pace");
    }
  }

  /** A sequence of {@code end} rows of one BIGINT column, all available at once. */
  public static SequenceSpec bounded(String name, long end) {
    return new SequenceSpec(name, 0, OptionalInt.empty(), OptionalLong.of(end),
        OptionalLong.empty(), DEFAULT_ROWS_PER_BATCH, 0);
  }

  /** A sequence without end of one BIGINT column, {@code rowsPerSecond} rows a second. */
  public static SequenceSpec paced(String name, long rowsPerSecond) {
    return new SequenceSpec(name, 0, OptionalInt.empty(), OptionalLong.empty(),
        OptionalLong.of(rowsPerSecond), DEFAULT_ROWS_PER_BATCH, 0);
  }

  /** This sequence with other column positions. */
  public SequenceSpec withColumns(int valueField, OptionalInt timestampField) {
    return new SequenceSpec(name, valueField, timestampField, end, rowsPerSecond, rowsPerBatch,
        startTimeMs);
  }

  /** This sequence ending after {@code end} rows. */
  public SequenceSpec withEnd(long end) {
    return new SequenceSpec(name, valueField, timestampField, OptionalLong.of(end),
        rowsPerSecond, rowsPerBatch, startTimeMs);
  }

  /** This sequence at {@code rowsPerSecond} rows a second. */
  public SequenceSpec withRowsPerSecond(long rowsPerSecond) {
    return new SequenceSpec(name, valueField, timestampField, end,
        OptionalLong.of(rowsPerSecond), rowsPerBatch, startTimeMs);
  }

  /** This sequence with at most {@code rowsPerBatch} rows in one micro-batch. */
  public SequenceSpec withRowsPerBatch(long rowsPerBatch) {
    return new SequenceSpec(name, valueField, timestampField, end, rowsPerSecond, rowsPerBatch,
        startTimeMs);
  }

  /** This sequence with row 0 at event time {@code startTimeMs}. */
  public SequenceSpec withStartTimeMs(long startTimeMs) {
    return new SequenceSpec(name, valueField, timestampField, end, rowsPerSecond, rowsPerBatch,
        startTimeMs);
  }

  /** Columns per row: 1, or 2 with a timestamp. */
  public int fieldCount() {
    return timestampField.isPresent() ? 2 : 1;
  }
}
