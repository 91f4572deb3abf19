package dev.freshet.executor.source;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.vector.ColumnVector;
import dev.freshet.executor.vector.VectorBatch;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Source that generates its rows: row {@code i} is a function of {@code i} alone, computed when a
 * batch reads it, so the source holds no rows, however many it has, and a batch run again over
 * the same offsets gets the same rows.
 *
 * <pre>{@code
 * SequenceSource nums = new SequenceSource(SequenceSpec.bounded("NUMS", 5_000_000)
 *     .withRowsPerBatch(100_000));
 * nums.latestOffset();                  // 5000000: every row is there at once
 * nums.latestOffset(0);                 // 100000: what the first micro-batch takes
 * nums.readRange(0, 3, row -> ...);     // {0L}, {1L}, {2L}
 * }</pre>
 *
 * <p>Offsets count rows: offset {@code n} means rows {@code 0..n-1} are available, and
 * {@code readRange(s, e)} produces rows {@code s..e-1}. {@link SequenceSpec} says what a row holds.
 *
 * <p>Pacing: with a pace of {@code r} rows a second, row {@code i} becomes available once
 * {@code i * 1000 / r} milliseconds (rounded down, as its event time) have passed since the source
 * was created, so row 0 is there at once. The clock is monotonic ({@link System#nanoTime}), so the
 * latest offset never goes back when the wall clock is set back. Nothing is written, so nothing
 * calls the {@linkplain #onNewData new-data listeners}; a waiting query asks
 * {@link #millisUntilAvailable} when to look again instead. A new source (a new process, or the
 * stream declared again) starts its pace afresh: a query resuming from a checkpoint at offset
 * {@code n} waits until the new source has reached {@code n} again, while the rows of its
 * recorded batches can be generated again at once ({@link #readRange} does not wait for the pace).
 *
 * <p>Admission control: one micro-batch takes at most {@link SequenceSpec#rowsPerBatch} rows
 * ({@link #latestOffset(long)}), so a query over millions of available rows runs in batches of a
 * bounded size.
 *
 * <p>Rows are handed to the consumer in fresh arrays that the source never touches again, as a
 * {@link MemoryStream}'s rows: callers of {@link #readRange} outside the operator pipeline (tests,
 * a sink reading a source directly) keep rows, and a source that reused its array would be the one
 * source they must copy from. The array and the boxed {@code Long}s in it are the only allocations
 * per row. Thread-safe: the source has no mutable state, so a batch may be read as slices on
 * several threads at once ({@link SupportsParallelReads}).
 *
 * <p>{@link #readVectors} writes the same values into the caller's vectors instead, without an
 * allocation ({@link SupportsColumnarReads}).
 */
public final class SequenceSource
    implements SupportsAdmissionControl, SupportsTimedAvailability, SupportsParallelReads,
    SupportsColumnarReads {
  private final SequenceSpec spec;
  private final LongSupplier clockMs;
  /** {@link #clockMs} when the source was created: the moment row 0 became available. */
  private final long createdMs;
  // The spec's values as primitives, for the per-row loop and the pacing arithmetic.
  private final int fieldCount;
  private final int valueField;
  /** Index of the timestamp column, or -1 for rows without one. */
  private final int timestampField;
  /** The number of rows, or {@link Long#MAX_VALUE} for a sequence without end. */
  private final long end;
  /** Rows a second, or 0 for a sequence whose rows are all available at once. */
  private final long rowsPerSecond;

  /** Creates a sequence paced by the JVM's monotonic clock, starting now. */
  public SequenceSource(SequenceSpec spec) {
    this(spec, () -> System.nanoTime() / 1_000_000);
  }

  /**
   * Creates a sequence paced by {@code clockMs}, starting at its current time.
   *
   * @param spec what the sequence generates
   * @param clockMs a clock in milliseconds that never goes back; tests pass a manual one
   */
  public SequenceSource(SequenceSpec spec, LongSupplier clockMs) {
    this.spec = requireNonNull(spec, "spec");
    this.clockMs = requireNonNull(clockMs, "clockMs");
    this.createdMs = clockMs.getAsLong();
    this.fieldCount = spec.fieldCount();
    this.valueField = spec.valueField();
    this.timestampField = spec.timestampField().orElse(-1);
    this.end = spec.end().orElse(Long.MAX_VALUE);
    this.rowsPerSecond = spec.rowsPerSecond().orElse(0);
  }

  /** What the sequence generates. */
  public SequenceSpec spec() {
    return spec;
  }

  @Override public String description() {
    return "SequenceSource[" + spec.name() + "]";
  }

  @Override public long latestOffset() {
    if (rowsPerSecond == 0) {
      return end;
    }
    return Math.min(end, rowsDueAfter(Math.max(0, clockMs.getAsLong() - createdMs)));
  }

  @Override public long latestOffset(long startOffset) {
    return Math.min(latestOffset(), saturatedAdd(Math.max(0, startOffset), spec.rowsPerBatch()));
  }

  @Override public OptionalLong millisUntilAvailable(long offset) {
    if (offset > end) {
      return OptionalLong.empty();
    }
    if (offset <= 0 || rowsPerSecond == 0) {
      return OptionalLong.of(0);
    }
    long elapsed = Math.max(0, clockMs.getAsLong() - createdMs);
    // Offset n is there when its last row, n - 1, is.
    return OptionalLong.of(Math.max(0, eventOffsetMs(offset - 1) - elapsed));
  }

  /**
   * Hands rows {@code start..end-1} to {@code rows}, generated now. Any range within the
   * sequence can be read, also one the pace has not reached yet: a checkpointed batch run again
   * after a restart must get its rows, although the new source's pace started over.
   *
   * @throws IllegalArgumentException if the range is malformed or goes past the sequence's end
   */
  @Override public void readRange(long start, long end, Consumer<Object[]> rows) {
    OffsetRanges.checkWithin(description(), start, end, this.end);
    long startTimeMs = spec.startTimeMs();
    for (long i = start; i < end; i++) {
      Object[] row = new Object[fieldCount];
      row[valueField] = i;
      if (timestampField >= 0) {
        row[timestampField] = startTimeMs + eventOffsetMs(i);
      }
      rows.accept(row);
    }
  }

  /**
   * Writes rows {@code start..end-1} into {@code into}, {@link VectorBatch#capacity()} at a time,
   * and hands each batch to {@code batches}: the values {@link #readRange} would box, and no
   * allocation. Columns without a vector in {@code into} are not written.
   *
   * @throws IllegalArgumentException as {@link #readRange}
   */
  @Override public void readVectors(long start, long end, VectorBatch into,
      Consumer<VectorBatch> batches) {
    OffsetRanges.checkWithin(description(), start, end, this.end);
    if (into.columnCount() != fieldCount) {
      throw new IllegalArgumentException(description() + " has " + fieldCount
          + " columns, not " + into.columnCount());
    }
    ColumnVector values = into.column(valueField);
    ColumnVector times = timestampField >= 0 ? into.column(timestampField) : null;
    long startTimeMs = spec.startTimeMs();
    int capacity = into.capacity();
    for (long first = start; first < end; first += capacity) {
      int n = (int) Math.min(capacity, end - first);
      if (values != null) {
        values.noNulls = true;
        long[] v = values.longs;
        for (int i = 0; i < n; i++) {
          v[i] = first + i;
        }
      }
      if (times != null) {
        times.noNulls = true;
        long[] t = times.longs;
        for (int i = 0; i < n; i++) {
          t[i] = startTimeMs + eventOffsetMs(first + i);
        }
      }
      into.setSize(n);
      batches.accept(into);
    }
  }

  /**
   * Registers nothing: no one writes to a sequence. Its rows appear with time, which a waiting
   * query learns from {@link #millisUntilAvailable}.
   */
  @Override public AutoCloseable onNewData(Runnable listener) {
    requireNonNull(listener, "listener");
    return () -> { };
  }

  /**
   * Milliseconds after row 0 at which row {@code i} is due: its event time relative to row 0.
   * Split into whole seconds and the rest so that {@code i * 1000} cannot overflow.
   */
  private long eventOffsetMs(long i) {
    if (rowsPerSecond == 0) {
      return i;
    }
    return i / rowsPerSecond * 1000 + i % rowsPerSecond * 1000 / rowsPerSecond;
  }

  /**
   * The number of rows due {@code elapsedMs} after row 0: the rows {@code i} with
   * {@code floor(i * 1000 / r) <= elapsedMs}, which are those with {@code i * 1000 < (elapsedMs +
   * 1) * r}: {@code ceil((elapsedMs + 1) * r / 1000)}, computed without overflow.
   */
  private long rowsDueAfter(long elapsedMs) {
    long t = elapsedMs + 1;
    long seconds = t / 1000;
    if (seconds > Long.MAX_VALUE / rowsPerSecond) {
      return Long.MAX_VALUE;
    }
    return saturatedAdd(seconds * rowsPerSecond, (t % 1000 * rowsPerSecond + 999) / 1000);
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    // Both are non-negative here: an overflow shows as a negative sum.
    return sum < 0 ? Long.MAX_VALUE : sum;
  }
}
