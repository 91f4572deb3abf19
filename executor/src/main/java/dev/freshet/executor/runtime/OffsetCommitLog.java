package dev.freshet.executor.runtime;

import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.checkpoint.CommitMetadata;
import dev.freshet.executor.checkpoint.OffsetSeq;
import dev.freshet.executor.checkpoint.RestartDecision;
import dev.freshet.executor.checkpoint.SourceOffset;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.source.SupportsJsonOffsets;
import dev.freshet.executor.source.SupportsMetadataDirectory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A query's offset log and commit log as its batch loop uses them, Spark's {@code OffsetSeqLog}
 * and {@code CommitLog} seen from {@code MicroBatchExecution}: the write-ahead entry of a batch's
 * offsets before it runs, its commit entry after, and the translation between the sources' own
 * offsets and the logs' {@link SourceOffset}s. A query without a checkpoint has no logs: then
 * writes do nothing and a restart starts afresh.
 *
 * <pre>{@code
 * OffsetCommitLog logs = new OffsetCommitLog("q", checkpoint, pipeline.inputs(), pinnedConf);
 * logs.writeOffsets(batchId, watermarkMs, batchStartMs, end);
 * // ... run the batch
 * logs.writeCommit(batchId, nextWatermarkMs);
 * }</pre>
 */
final class OffsetCommitLog {
  private final String name;
  /** Null for a query that starts afresh each time. */
  private final Checkpoint checkpoint;
  private final List<SourceInput> inputs;
  /** Settings pinned in the offset log at the first batch, e.g. the number of state partitions. */
  private final Map<String, String> pinnedConf;

  OffsetCommitLog(String name, Checkpoint checkpoint, List<SourceInput> inputs,
      Map<String, String> pinnedConf) {
    this.name = name;
    this.checkpoint = checkpoint;
    this.inputs = inputs;
    this.pinnedConf = Map.copyOf(pinnedConf);
  }

  /**
   * Gives each source that keeps metadata its directory in the checkpoint; call before anyone
   * asks a source for an offset.
   */
  void useMetadataDirectories() {
    for (int i = 0; checkpoint != null && i < inputs.size(); i++) {
      if (inputs.get(i).source() instanceof SupportsMetadataDirectory durable) {
        durable.useMetadataDirectory(checkpoint.sourceDirectory(i));
      }
    }
  }

  /** Where the logs say the query resumes (SEMANTICS.md §7.2); null without a checkpoint. */
  RestartDecision decideRestart() {
    return checkpoint == null ? null
        : RestartDecision.decide(checkpoint, inputs.size(), pinnedConf);
  }

  /**
   * Makes each source with JSON offsets start where it started when the query first ran:
   * recorded in the checkpoint by the first run, taken back by every later one. A query without
   * a checkpoint starts wherever its sources start.
   */
  void restoreInitialOffsets() {
    for (int i = 0; checkpoint != null && i < inputs.size(); i++) {
      if (inputs.get(i).source() instanceof SupportsJsonOffsets json) {
        SourceOffset initial = checkpoint.recordInitialOffset(i,
            new SourceOffset(json.offsetJson(0)));
        json.restoreInitialOffset(initial.json());
      }
    }
  }

  /**
   * Write-ahead: makes batch {@code batchId}'s end offsets, watermark and time durable before it
   * runs, so that a restart re-runs it exactly as planned.
   */
  void writeOffsets(long batchId, long watermarkMs, long batchTimestampMs, long[] end) {
    if (checkpoint == null) {
      return;
    }
    if (!checkpoint.offsetLog().add(batchId,
        new OffsetSeq(watermarkMs, batchTimestampMs, pinnedConf, sourceOffsets(end)))) {
      throw CheckpointException.concurrentUpdate(checkpoint.offsetLog().batchFile(batchId));
    }
    checkpoint.retain();
  }

  /** Marks batch {@code batchId} committed, with the watermark the next batch evicts by. */
  void writeCommit(long batchId, long nextWatermarkMs) {
    if (checkpoint == null) {
      return;
    }
    if (!checkpoint.commitLog().add(batchId, new CommitMetadata(nextWatermarkMs))) {
      throw CheckpointException.concurrentUpdate(checkpoint.commitLog().batchFile(batchId));
    }
  }

  /** The offset log's form of stream {@code i}'s offset {@code offset}. */
  SourceOffset sourceOffset(int i, long offset) {
    return inputs.get(i).source() instanceof SupportsJsonOffsets json
        ? new SourceOffset(json.offsetJson(offset)) : SourceOffset.of(offset);
  }

  /** Every stream's offset for what the offset log recorded. */
  long[] restoreOffsets(List<SourceOffset> recorded) {
    long[] offsets = new long[inputs.size()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = restoreOffset(inputs.get(i).source(), recorded.get(i));
    }
    return offsets;
  }

  /**
   * Fails the query if a stream's latest offset is below its offset in {@code offsets}, which
   * batch {@code batchId} recorded: the source lost data or went backwards, and the offsets it
   * hands out next would be taken for ones the query has read.
   */
  void checkSourcesReach(long[] offsets, long batchId) {
    for (int i = 0; i < offsets.length; i++) {
      Source s = inputs.get(i).source();
      long latest = s.latestOffset();
      if (latest < offsets[i]) {
        if (checkpoint == null) {
          throw new IllegalStateException("Query " + name + " has read " + s.description()
              + " up to offset " + offsets[i] + ", which is ahead of the source's latest offset "
              + latest + ": the source went backwards");
        }
        throw CheckpointException.aheadOfSource(checkpoint.offsetLog().batchFile(batchId),
            s.description(), offsets[i], latest);
      }
    }
  }

  /** The offset log's form of every stream's offset in {@code offsets}. */
  private List<SourceOffset> sourceOffsets(long[] offsets) {
    List<SourceOffset> recorded = new ArrayList<>(offsets.length);
    for (int i = 0; i < offsets.length; i++) {
      recorded.add(sourceOffset(i, offsets[i]));
    }
    return recorded;
  }

  /** The source's offset for what the offset log recorded. */
  private static long restoreOffset(Source source, SourceOffset recorded) {
    if (source instanceof SupportsJsonOffsets json) {
      // A recorded 0 ("-" or a query that read nothing yet) is where the source starts.
      return recorded.asLong().isPresent() && recorded.asLong().getAsLong() == 0
          ? 0 : json.restoreOffset(recorded.json());
    }
    return recorded.asLong().orElseThrow(() -> new IllegalStateException("Source "
        + source.description() + " records its offsets as whole numbers, but the checkpoint"
        + " has " + recorded.json()));
  }
}
