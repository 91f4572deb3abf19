package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.checkpoint.SourceOffset;

/**
 * What one source contributed to one micro-batch, with the names of Spark's
 * {@code SourceProgress}.
 *
 * <pre>{@code
 * SourceProgress s = progress.sources().get(0);
 * s.description();                     // MemoryStream[CLICKS]
 * s.endOffset().json();               // 42, or {"orders":{"0":42,"1":17}} for Kafka
 * }</pre>
 *
 * @param description the source, e.g. {@code MemoryStream[CLICKS]}
 * @param startOffset the batch read offsets after this one ({@code 0}: from the beginning), as
 *     the offset log records it
 * @param endOffset the last offset the batch read, as the offset log records it
 * @param numInputRows rows the batch read from the source
 * @param inputRowsPerSecond rows per second at which they arrived
 * @param processedRowsPerSecond rows per second at which the batch processed them
 */
public record SourceProgress(String description, SourceOffset startOffset, SourceOffset endOffset,
    long numInputRows, double inputRowsPerSecond, double processedRowsPerSecond) {
  public SourceProgress {
    requireNonNull(description, "description");
    requireNonNull(startOffset, "startOffset");
    requireNonNull(endOffset, "endOffset");
  }
}
