package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

/**
 * What one source contributed to one micro-batch, with the names of Spark's
 * {@code SourceProgress}.
 *
 * <pre>{@code
 * SourceProgress s = progress.sources().get(0);
 * s.description();                     // MemoryStream[CLICKS]
 * s.endOffset() - s.startOffset();     // INSERT statements the batch read
 * }</pre>
 *
 * @param description the source, e.g. {@code MemoryStream[CLICKS]}
 * @param startOffset the batch read offsets after this one ({@code 0}: from the beginning)
 * @param endOffset the last offset the batch read
 * @param numInputRows rows the batch read from the source
 * @param inputRowsPerSecond rows per second at which they arrived
 * @param processedRowsPerSecond rows per second at which the batch processed them
 */
public record SourceProgress(String description, long startOffset, long endOffset,
    long numInputRows, double inputRowsPerSecond, double processedRowsPerSecond) {
  public SourceProgress {
    requireNonNull(description, "description");
  }
}
