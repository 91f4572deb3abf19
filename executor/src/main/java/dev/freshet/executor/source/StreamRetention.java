package dev.freshet.executor.source;

import java.time.Duration;

/**
 * How much of a {@link MemoryStream} is kept: rows in memory up to {@code memoryMaxBytes} (by
 * estimate), log segments of {@code segmentBytes} on disk, each deleted once every durable reader
 * has committed past it and its last row is older than {@code retention}.
 *
 * <pre>{@code
 * StreamRetention r = StreamRetention.defaults().withRetention(Duration.ofHours(1));
 * MemoryStream.open("CLICKS", columns, directory, r);
 * }</pre>
 *
 * @param memoryMaxBytes the most bytes (estimated) of rows a stream keeps in memory
 * @param retention how long a segment's rows are kept after they were written, once every
 *     durable reader has committed past them; {@link Duration#ZERO}: no longer than that
 * @param segmentBytes the size at which a log segment is full and the next one starts
 */
public record StreamRetention(long memoryMaxBytes, Duration retention, long segmentBytes) {
  /** The default retention: 7 days, Kafka's {@code log.retention.hours} default. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);

  /** Checks the values. */
  public StreamRetention {
    if (memoryMaxBytes < 1 || segmentBytes < 1 || retention.isNegative()) {
      throw new IllegalArgumentException("bad stream retention: " + memoryMaxBytes + " bytes in"
          + " memory, " + retention + ", segments of " + segmentBytes + " bytes");
    }
  }

  /**
   * The default memory bound of one stream: an eighth of the heap ({@link Runtime#maxMemory}),
   * so that a few streams whose readers lag leave room for state and batches.
   */
  public static long defaultMemoryMax() {
    return Math.max(1L << 20, Runtime.getRuntime().maxMemory() / 8);
  }

  /** The defaults: {@link #defaultMemoryMax()}, 7 days, segments of 64 MiB. */
  public static StreamRetention defaults() {
    return new StreamRetention(defaultMemoryMax(), DEFAULT_RETENTION,
        StreamLog.DEFAULT_SEGMENT_BYTES);
  }

  /** These settings with another memory bound. */
  public StreamRetention withMemoryMax(long bytes) {
    return new StreamRetention(bytes, retention, segmentBytes);
  }

  /** These settings with another retention. */
  public StreamRetention withRetention(Duration newRetention) {
    return new StreamRetention(memoryMaxBytes, newRetention, segmentBytes);
  }

  /** These settings with another segment size. */
  public StreamRetention withSegmentBytes(long bytes) {
    return new StreamRetention(memoryMaxBytes, retention, bytes);
  }
}
