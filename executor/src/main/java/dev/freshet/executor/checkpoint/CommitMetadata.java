package dev.freshet.executor.checkpoint;

/**
 * Entry of the {@link CommitLog}: batch {@code N} finished, its output is in the sink and its
 * state committed (Spark's {@code CommitMetadata}).
 *
 * <pre>{@code
 * commitLog.add(7, new CommitMetadata(15_000));   // batch 8 evicts at watermark 15 s
 * }</pre>
 *
 * @param nextBatchWatermarkMs the global watermark after batch {@code N}, which batch
 *     {@code N + 1} will use (SEMANTICS.md §6.4)
 */
public record CommitMetadata(long nextBatchWatermarkMs) {
}
