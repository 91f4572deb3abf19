package dev.freshet.connectors.nexmark;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.source.OffsetRanges;
import dev.freshet.executor.source.SupportsAdmissionControl;
import dev.freshet.executor.source.SupportsColumnarReads;
import dev.freshet.executor.source.SupportsParallelReads;
import dev.freshet.executor.source.SupportsTimedAvailability;
import dev.freshet.executor.vector.ColumnVector;
import dev.freshet.executor.vector.VectorBatch;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Source of one Nexmark event type ({@link NexmarkGenerator}): its rows are generated when a batch
 * reads them, so it holds none, and the same offsets always give the same rows.
 *
 * <pre>{@code
 * NexmarkSource bids = new NexmarkSource(NexmarkSpec.of("BID", NexmarkEventType.BID)
 *     .withMaxEvents(1_000_000));
 * bids.latestOffset();                 // 920000: the bids among a million events
 * bids.readRange(0, 2, row -> ...);    // the first two bids (global events 4 and 5)
 * }</pre>
 *
 * <p>Offsets count the events of the stream's type: offset {@code k} means its events
 * {@code 0..k-1} are available, and {@code readRange(s, e)} produces its events {@code s..e-1}.
 * Counting the type's own events rather than global event numbers makes every offset a row, as
 * the executor's parallel and columnar reads need, and lets a batch limit count rows; the global
 * number of the type's event {@code k} is closed-form ({@link NexmarkEventType#eventNumber}).
 *
 * <p>Pacing: with {@link NexmarkSpec#eventsPerSecond} {@code r}, global event {@code n} becomes
 * available {@code n * 1000 / r} milliseconds (its event time less event 0's) after the source
 * was created, by a monotonic clock, as a sequence's rows do; nothing calls the new-data
 * listeners, and a waiting query asks {@link #millisUntilAvailable}. Recorded batches are
 * generated again at once after a restart: {@link #readRange} does not wait for the pace.
 *
 * <p>Thread-safe and without mutable state: each read makes its own {@link
 * NexmarkGenerator.Cursor}, so slices of a batch can be read on several threads
 * ({@link SupportsParallelReads}); {@link #readVectors} writes the requested columns into the
 * caller's vectors and builds no string for a column it is not asked for.
 */
public final class NexmarkSource
    implements SupportsAdmissionControl, SupportsTimedAvailability, SupportsParallelReads,
    SupportsColumnarReads {
  private final NexmarkSpec spec;
  private final NexmarkGenerator generator;
  private final NexmarkEventType type;
  private final LongSupplier clockMs;
  private final long createdMs;
  /** Per stream column, the generated column it holds. */
  private final int[] columns;
  /** Per stream column, whether it is a VARCHAR. */
  private final boolean[] strings;
  /** The number of rows, or {@link Long#MAX_VALUE} without end. */
  private final long end;
  /** Global events a second, or 0 when all are available at once. */
  private final long eventsPerSecond;

  /** Creates a source paced by the JVM's monotonic clock, starting now. */
  public NexmarkSource(NexmarkSpec spec) {
    this(spec, () -> System.nanoTime() / 1_000_000);
  }

  /**
   * Creates a source paced by {@code clockMs}, starting at its current time.
   *
   * @param clockMs a clock in milliseconds that never goes back; tests pass a manual one
   */
  public NexmarkSource(NexmarkSpec spec, LongSupplier clockMs) {
    this.spec = requireNonNull(spec, "spec");
    this.clockMs = requireNonNull(clockMs, "clockMs");
    this.createdMs = clockMs.getAsLong();
    this.generator = spec.generator();
    this.type = spec.type();
    this.columns = spec.columns().stream().mapToInt(Integer::intValue).toArray();
    this.strings = new boolean[columns.length];
    for (int i = 0; i < columns.length; i++) {
      strings[i] = type.columns().get(columns[i]).type() == NexmarkColumn.Type.VARCHAR;
    }
    this.end = spec.maxEvents().isPresent() ? type.countBefore(spec.maxEvents().getAsLong())
        : Long.MAX_VALUE;
    this.eventsPerSecond = spec.eventsPerSecond().orElse(0);
  }

  /** What the source generates. */
  public NexmarkSpec spec() {
    return spec;
  }

  @Override public String description() {
    return "NexmarkSource[" + spec.name() + ", " + type.text() + "]";
  }

  @Override public long latestOffset() {
    if (eventsPerSecond == 0) {
      return end;
    }
    long due = eventsDueAfter(Math.max(0, clockMs.getAsLong() - createdMs));
    return Math.min(end, due == Long.MAX_VALUE ? Long.MAX_VALUE : type.countBefore(due));
  }

  @Override public long latestOffset(long startOffset) {
    long limit = Math.max(0, startOffset) + spec.rowsPerBatch();
    return Math.min(latestOffset(), limit < 0 ? Long.MAX_VALUE : limit);
  }

  @Override public OptionalLong millisUntilAvailable(long offset) {
    if (offset > end) {
      return OptionalLong.empty();
    }
    if (offset <= 0 || eventsPerSecond == 0) {
      return OptionalLong.of(0);
    }
    long elapsed = Math.max(0, clockMs.getAsLong() - createdMs);
    // Offset k is there when the type's event k - 1 is.
    long n = type.eventNumber(offset - 1);
    long dueMs = n / eventsPerSecond * 1000 + n % eventsPerSecond * 1000 / eventsPerSecond;
    return OptionalLong.of(Math.max(0, dueMs - elapsed));
  }

  /**
   * Hands rows {@code start..end-1} (the type's events) to {@code rows}, generated now, in fresh
   * arrays: a {@code Long} per BIGINT and TIMESTAMP column, a {@code String} per VARCHAR.
   *
   * @throws IllegalArgumentException if the range is malformed or goes past the stream's end
   */
  @Override public void readRange(long start, long end, Consumer<Object[]> rows) {
    OffsetRanges.checkWithin(description(), start, end, this.end);
    NexmarkGenerator.Cursor cursor = generator.cursor();
    for (long k = start; k < end; k++) {
      cursor.moveTo(type, k);
      Object[] row = new Object[columns.length];
      for (int i = 0; i < columns.length; i++) {
        row[i] = strings[i] ? cursor.stringValue(columns[i]) : (Object) cursor.longValue(columns[i]);
      }
      rows.accept(row);
    }
  }

  /**
   * Writes rows {@code start..end-1} into {@code into}, {@link VectorBatch#capacity()} at a time:
   * numeric columns as longs, VARCHAR columns as codes into the vector's dictionary, cleared per
   * batch; columns without a vector are neither written nor generated.
   */
  @Override public void readVectors(long start, long end, VectorBatch into,
      Consumer<VectorBatch> batches) {
    OffsetRanges.checkWithin(description(), start, end, this.end);
    if (into.columnCount() != columns.length) {
      throw new IllegalArgumentException(description() + " has " + columns.length
          + " columns, not " + into.columnCount());
    }
    NexmarkGenerator.Cursor cursor = generator.cursor();
    ColumnVector[] vectors = new ColumnVector[columns.length];
    for (int i = 0; i < columns.length; i++) {
      vectors[i] = into.column(i);
    }
    int capacity = into.capacity();
    for (long first = start; first < end; first += capacity) {
      int n = (int) Math.min(capacity, end - first);
      for (ColumnVector v : vectors) {
        if (v != null) {
          v.noNulls = true;
          if (v.dictionary != null) {
            v.dictionary.clear();
          }
        }
      }
      for (int r = 0; r < n; r++) {
        cursor.moveTo(type, first + r);
        for (int i = 0; i < vectors.length; i++) {
          ColumnVector v = vectors[i];
          if (v == null) {
            continue;
          }
          if (strings[i]) {
            v.codes[r] = v.dictionary.encode(cursor.stringValue(columns[i]));
          } else {
            v.longs[r] = cursor.longValue(columns[i]);
          }
        }
      }
      into.setSize(n);
      batches.accept(into);
    }
  }

  /** Registers nothing: no one writes to a generator ({@link #millisUntilAvailable}). */
  @Override public AutoCloseable onNewData(Runnable listener) {
    requireNonNull(listener, "listener");
    return () -> { };
  }

  /**
   * The number of global events due {@code elapsedMs} after event 0: those with
   * {@code floor(n * 1000 / r) <= elapsedMs}, {@code ceil((elapsedMs + 1) * r / 1000)}, without
   * overflow ({@link Long#MAX_VALUE} when it would).
   */
  private long eventsDueAfter(long elapsedMs) {
    long t = elapsedMs + 1;
    long seconds = t / 1000;
    if (seconds > Long.MAX_VALUE / eventsPerSecond / 2) {
      return Long.MAX_VALUE;
    }
    return seconds * eventsPerSecond + (t % 1000 * eventsPerSecond + 999) / 1000;
  }
}
