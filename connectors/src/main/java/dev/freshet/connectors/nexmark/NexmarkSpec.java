package dev.freshet.connectors.nexmark;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.OptionalLong;

/**
 * What a {@link NexmarkSource} generates: which event type, which of its columns in what order,
 * the generator's parameters, how many events there are, how fast they come and how many one
 * micro-batch takes.
 *
 * <pre>{@code
 * NexmarkSpec bids = NexmarkSpec.of("BID", NexmarkEventType.BID)
 *     .withColumns(List.of(0, 2, 5))              // (auction, price, date_time)
 *     .withMaxEvents(1_000_000);                  // global events 0..999999: 920,000 bids
 * }</pre>
 *
 * @param name the stream's name, for descriptions and messages
 * @param type the event type the stream holds
 * @param columns per stream column, the index of the generated column it holds
 *     ({@link NexmarkEventType#columns()})
 * @param seed the generator's seed
 * @param firstEventTimeMs the event time of global event 0, in epoch milliseconds
 * @param eventsPerSecond the pace, in global events (of all types) a second; empty for all at once
 * @param maxEvents the number of global events (of all types); empty for no end
 * @param rowsPerBatch the most rows (events of this type) one micro-batch takes, positive
 */
public record NexmarkSpec(String name, NexmarkEventType type, List<Integer> columns, long seed,
    long firstEventTimeMs, OptionalLong eventsPerSecond, OptionalLong maxEvents,
    long rowsPerBatch) {
  /** Rows one micro-batch takes unless told otherwise. */
  public static final long DEFAULT_ROWS_PER_BATCH = 1_000_000;
  /**
   * The rate that spaces event times when the stream is not paced: Beam's default first-event
   * rate, 10,000 events a second, so a million events span 100 seconds of event time.
   */
  public static final long DEFAULT_EVENT_TIME_RATE = 10_000;
  /** The fastest pace, as a sequence's: it keeps the pacing arithmetic within a {@code long}. */
  public static final long MAX_EVENTS_PER_SECOND = 1_000_000_000L;
  /** 2026-01-01T00:00:00Z: the default event time of event 0, so that runs repeat. */
  public static final long DEFAULT_FIRST_EVENT_TIME_MS = 1_767_225_600_000L;

  public NexmarkSpec {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
    columns = List.copyOf(columns);
    requireNonNull(eventsPerSecond, "eventsPerSecond");
    requireNonNull(maxEvents, "maxEvents");
    for (int c : columns) {
      if (c < 0 || c >= type.columns().size()) {
        throw new IllegalArgumentException("stream " + name + ": a " + type.text()
            + " has no column " + c);
      }
    }
    if (eventsPerSecond.isPresent() && (eventsPerSecond.getAsLong() < 1
        || eventsPerSecond.getAsLong() > MAX_EVENTS_PER_SECOND)) {
      throw new IllegalArgumentException("stream " + name + ": events per second must be 1 to "
          + MAX_EVENTS_PER_SECOND + ": " + eventsPerSecond.getAsLong());
    }
    if (maxEvents.isPresent() && maxEvents.getAsLong() < 0) {
      throw new IllegalArgumentException("stream " + name + ": max events must not be negative: "
          + maxEvents.getAsLong());
    }
    if (rowsPerBatch < 1) {
      throw new IllegalArgumentException("stream " + name + ": rows per batch must be positive: "
          + rowsPerBatch);
    }
    if (maxEvents.isEmpty() && eventsPerSecond.isEmpty()) {
      throw new IllegalArgumentException("stream " + name + " needs max events or a pace");
    }
  }

  /**
   * Every column of {@code type}, events 0..999,999, unpaced, seed 0, event 0 at
   * {@link #DEFAULT_FIRST_EVENT_TIME_MS}.
   */
  public static NexmarkSpec of(String name, NexmarkEventType type) {
    List<Integer> all = java.util.stream.IntStream.range(0, type.columns().size()).boxed()
        .toList();
    return new NexmarkSpec(name, type, all, 0, DEFAULT_FIRST_EVENT_TIME_MS, OptionalLong.empty(),
        OptionalLong.of(1_000_000), DEFAULT_ROWS_PER_BATCH);
  }

  /** This spec with other columns. */
  public NexmarkSpec withColumns(List<Integer> columns) {
    return new NexmarkSpec(name, type, columns, seed, firstEventTimeMs, eventsPerSecond,
        maxEvents, rowsPerBatch);
  }

  /** This spec ending after global event {@code maxEvents - 1}. */
  public NexmarkSpec withMaxEvents(long maxEvents) {
    return new NexmarkSpec(name, type, columns, seed, firstEventTimeMs, eventsPerSecond,
        OptionalLong.of(maxEvents), rowsPerBatch);
  }

  /** This spec at {@code eventsPerSecond} global events a second. */
  public NexmarkSpec withEventsPerSecond(long eventsPerSecond) {
    return new NexmarkSpec(name, type, columns, seed, firstEventTimeMs,
        OptionalLong.of(eventsPerSecond), maxEvents, rowsPerBatch);
  }

  /** This spec with at most {@code rowsPerBatch} rows in one micro-batch. */
  public NexmarkSpec withRowsPerBatch(long rowsPerBatch) {
    return new NexmarkSpec(name, type, columns, seed, firstEventTimeMs, eventsPerSecond,
        maxEvents, rowsPerBatch);
  }

  /** This spec with seed {@code seed}. */
  public NexmarkSpec withSeed(long seed) {
    return new NexmarkSpec(name, type, columns, seed, firstEventTimeMs, eventsPerSecond,
        maxEvents, rowsPerBatch);
  }

  /** The rate that spaces event times: the pace, or {@link #DEFAULT_EVENT_TIME_RATE}. */
  public long eventTimeRate() {
    return eventsPerSecond.orElse(DEFAULT_EVENT_TIME_RATE);
  }

  /** The generator this spec's events come from. */
  public NexmarkGenerator generator() {
    return new NexmarkGenerator(seed, firstEventTimeMs, eventTimeRate());
  }
}
