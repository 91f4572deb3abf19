package dev.freshet.executor.source;

/**
 * Source that limits how much one micro-batch takes, as Spark's {@code SupportsAdmissionControl}
 * with a {@code maxRows}-style read limit.
 *
 * <pre>{@code
 * long end = source instanceof SupportsAdmissionControl limited
 *     ? limited.latestOffset(committed)   // at most rows.per.batch past committed
 *     : source.latestOffset();
 * }</pre>
 *
 * <p>The limit is the source's own (a source knows what one of its offsets costs: a statement of
 * a memory stream, one row of a sequence), which is why it is asked rather than told a number.
 * The runtime ignores it where Spark reads everything: under {@code Trigger.Once}, and in a
 * bounded query.
 */
public interface SupportsAdmissionControl extends Source {
  /**
   * The end offset of the next micro-batch that starts after {@code startOffset}: no more than
   * {@link #latestOffset()}, and no more than the source admits to one batch. It is below or at
   * {@code startOffset} when nothing past it is available.
   */
  long latestOffset(long startOffset);
}
