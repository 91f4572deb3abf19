package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.limits.QueryResources;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Builds a {@link MicroBatchExecution}: the query's id, name, pipeline and sink are required, the
 * rest optional with the defaults of a query that starts afresh each time. Call
 * {@link MicroBatchExecution#start()} on what {@link #build()} returns.
 *
 * <pre>{@code
 * MicroBatchExecution query = MicroBatchExecution.builder(id, name, pipeline, sink)
 *     .trigger(Trigger.processingTime(1_000))
 *     .checkpoint(checkpoint, Map.of(OffsetSeq.STATE_PARTITIONS, "4"))
 *     .resources(new QueryResources(name, budget, pool))
 *     .restartStrategy(strategy)
 *     .build();
 * }</pre>
 */
public final class MicroBatchExecutionBuilder {
  final String id;
  final String name;
  final StreamingPipeline pipeline;
  final Sink sink;
  LongSupplier clock = System::currentTimeMillis;
  Trigger trigger = Trigger.DEFAULT;
  Checkpoint checkpoint;
  Map<String, String> pinnedConf = Map.of();
  /** Null for {@link QueryResources#unlimited(String)} of the query's name. */
  QueryResources resources;
  RestartStrategy restartStrategy = RestartStrategy.NONE;

  MicroBatchExecutionBuilder(String id, String name, StreamingPipeline pipeline, Sink sink) {
    this.id = requireNonNull(id, "id");
    this.name = requireNonNull(name, "name");
    this.pipeline = requireNonNull(pipeline, "pipeline");
    this.sink = requireNonNull(sink, "sink");
  }

  /**
   * The processing-time clock in milliseconds: batch timestamps, triggers, idle watermarks, state
   * TTLs. Default {@link System#currentTimeMillis()}.
   */
  public MicroBatchExecutionBuilder clock(LongSupplier clock) {
    this.clock = requireNonNull(clock, "clock");
    return this;
  }

  /** When batches start. Default {@link Trigger#DEFAULT}: as soon as data arrives. */
  public MicroBatchExecutionBuilder trigger(Trigger trigger) {
    this.trigger = requireNonNull(trigger, "trigger");
    return this;
  }

  /**
   * The query's offset and commit logs, and the settings pinned in every offset log entry. With
   * them the query resumes where the logs say (SEMANTICS.md §7.2): after the last committed
   * batch, or by re-running an uncommitted one with exactly its recorded offsets, watermark and
   * timestamp. Then the pipeline's state stores must read the same checkpoint and the sink must
   * ignore a batch id it already has. Default: none, the query starts afresh.
   *
   * @param checkpoint the logs, or null for none
   * @param pinnedConf settings recorded in every offset log entry
   */
  public MicroBatchExecutionBuilder checkpoint(Checkpoint checkpoint,
      Map<String, String> pinnedConf) {
    this.checkpoint = checkpoint;
    this.pinnedConf = Map.copyOf(pinnedConf);
    return this;
  }

  /**
   * The query's own resources: {@link MicroBatchExecution#stop()} cancels them, and their budget
   * bounds its state and batches. Default {@link QueryResources#unlimited(String)}.
   */
  public MicroBatchExecutionBuilder resources(QueryResources resources) {
    this.resources = requireNonNull(resources, "resources");
    return this;
  }

  /**
   * How often and after how long the query restarts after a {@linkplain RecoverableFailures
   * recoverable} error: the batch is aborted, the query shows {@link QueryStatus#RESTARTING} for
   * the backoff, its sink is {@linkplain Sink#restart() restarted}, and it resumes from its
   * checkpoint as after an engine restart (without one: from its last committed batch). Default
   * {@link RestartStrategy#NONE}: it fails at the first error.
   */
  public MicroBatchExecutionBuilder restartStrategy(RestartStrategy restartStrategy) {
    this.restartStrategy = requireNonNull(restartStrategy, "restartStrategy");
    return this;
  }

  /** The query, not started yet. */
  public MicroBatchExecution build() {
    return new MicroBatchExecution(this);
  }
}
