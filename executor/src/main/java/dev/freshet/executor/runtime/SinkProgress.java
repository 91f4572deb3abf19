package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

/**
 * What the sink received in one micro-batch, with the names of Spark's {@code SinkProgress}.
 *
 * <pre>{@code
 * progress.sink().numOutputRows();     // rows handed to the sink
 * }</pre>
 *
 * @param description the sink, e.g. {@code MaterializedView[CLICKS_PER_USER]}
 * @param numOutputRows rows handed to it
 */
public record SinkProgress(String description, long numOutputRows) {
  public SinkProgress {
    requireNonNull(description, "description");
  }
}
