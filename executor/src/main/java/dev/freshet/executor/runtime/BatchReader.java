package dev.freshet.executor.runtime;

import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.ParallelTasks;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.source.SupportsColumnarReads;
import dev.freshet.executor.source.SupportsParallelReads;
import dev.freshet.executor.source.SupportsPartitionedReads;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads one batch's offsets of every stream through the query's operators: the part of Spark's
 * {@code MicroBatchExecution.runBatch} that pulls the sources' data into the plan. It starts,
 * finishes or (on a failure) aborts the batch in every chain of operators; what the output
 * operator collected is then the caller's.
 *
 * <p>A batch of a source that {@linkplain SupportsParallelReads can be read in slices} and a
 * pipeline with {@linkplain StreamingPipeline#extraInputTasks() input tasks} is read as one slice
 * per task at once, as Spark runs a task per input partition: the first on the batch thread, the
 * others on the pipeline's task executor. Batches of fewer than
 * {@value #MIN_ROWS_PER_INPUT_TASK} rows per task are read on the batch thread alone. Several
 * streams (a join, a union) are read one after another on the batch thread, each into its own
 * chain.
 *
 * <pre>{@code
 * BatchReader reader = new BatchReader(pipeline, resources);
 * long[] rowsPerStream = reader.read(batch, start, end);
 * List<Object[]> out = pipeline.output().takeRows();
 * }</pre>
 */
final class BatchReader {
  /**
   * The fewest rows worth an input task of their own: a smaller slice would cost about as much to
   * hand to another thread as to read. Latency-bound batches of a few rows stay on one thread.
   */
  static final long MIN_ROWS_PER_INPUT_TASK = 16_384;

  private final StreamingPipeline streamingPipeline;
  /** The first (often the only) stream the query reads: the one input tasks may split. */
  private final Source source;
  private final Operator pipeline;
  private final List<SourceInput> inputs;
  private final QueryResources resources;

  BatchReader(StreamingPipeline streamingPipeline, QueryResources resources) {
    this.streamingPipeline = streamingPipeline;
    this.source = streamingPipeline.source();
    this.pipeline = streamingPipeline.head();
    this.inputs = streamingPipeline.inputs();
    this.resources = resources;
  }

  /**
   * Reads the batch of offsets {@code (start, end]} of every stream through its chain.
   *
   * @return the rows read, per stream
   */
  long[] read(BatchContext batch, long[] start, long[] end) {
    return inputs.size() == 1
        ? new long[] {readOneStream(batch, start[0], end[0])}
        : readStreams(batch, start, end);
  }

  /**
   * The pipeline's columnar input when the source can hand over vectors, else null: then the
   * batch is read as vector batches (the same rows, the same slices).
   */
  ColumnarInput columnarInput() {
    ColumnarInput columnar = streamingPipeline.columnarInput();
    return columnar != null && source instanceof SupportsColumnarReads ? columnar : null;
  }

  /** Reads a batch of the one stream, in input tasks if it is large; returns its rows. */
  private long readOneStream(BatchContext batch, long start, long end) {
    List<Operator> extraTasks = streamingPipeline.extraInputTasks();
    long inputRows;
    pipeline.startBatch(batch);
    try {
      for (Operator task : extraTasks) {
        task.startBatch(batch);
      }
      int tasks = inputTasksFor(start, end);
      inputRows = tasks == 1 ? readOnBatchThread(start, end) : readInTasks(start, end, tasks);
      // The copies first: their event times reach the watermark before the aggregation ends.
      for (Operator task : extraTasks) {
        task.finishBatch(batch);
      }
      pipeline.finishBatch(batch);
    } catch (RuntimeException | Error e) {
      for (Operator task : extraTasks) {
        task.abortBatch(batch);
      }
      pipeline.abortBatch(batch);
      throw e;
    }
    return inputRows;
  }

  /**
   * Reads a batch of several streams, one after another on the batch thread, each into its own
   * chain; every chain starts and finishes the batch, also when its stream has no new rows.
   */
  private long[] readStreams(BatchContext batch, long[] start, long[] end) {
    long[] rows = new long[inputs.size()];
    SourceInput.inOneBatch(inputs, batch, i -> {
      SourceInput input = inputs.get(i);
      RowsInto into = new RowsInto(input.head(), resources);
      if (end[i] > start[i]) {
        input.source().readRange(start[i], end[i], into);
      }
      rows[i] = into.count;
    });
    return rows;
  }

  /**
   * How many input tasks read the batch of offsets {@code (start, end]}: one unless the source
   * can be read in slices and each slice has at least {@link #MIN_ROWS_PER_INPUT_TASK} rows.
   */
  private int inputTasksFor(long start, long end) {
    if (streamingPipeline.inputTasks() == 1 || end - start < 2 * MIN_ROWS_PER_INPUT_TASK) {
      return 1;
    }
    if (source instanceof SupportsPartitionedReads partitioned) {
      // Offsets of such a source count its records (and a few markers) too.
      return Math.max(1, Math.min(streamingPipeline.inputTasks(),
          partitioned.inputPartitions(start, end)));
    }
    if (!(source instanceof SupportsParallelReads)) {
      return 1;
    }
    long slices = (end - start) / MIN_ROWS_PER_INPUT_TASK;
    return (int) Math.max(1, Math.min(streamingPipeline.inputTasks(), slices));
  }

  private long readOnBatchThread(long start, long end) {
    ColumnarInput columnar = columnarInput();
    if (columnar != null) {
      return columnar.read((SupportsColumnarReads) source, 0, start, end, resources);
    }
    RowsInto rows = new RowsInto(pipeline, resources);
    source.readRange(start, end, rows);
    return rows.count;
  }

  /**
   * Reads the batch as {@code tasks} slices of offsets at once: the first on this thread into the
   * head, slice {@code t} on the task executor into input task {@code t} ({@link ParallelTasks}:
   * none still pushes when the batch finishes or aborts).
   */
  private long readInTasks(long start, long end, int tasks) {
    long[] counts = new long[tasks];
    List<Runnable> reads = new ArrayList<>(tasks);
    for (int t = 0; t < tasks; t++) {
      Operator head = t == 0 ? pipeline : streamingPipeline.extraInputTasks().get(t - 1);
      long from = sliceStart(start, end, tasks, t);
      long to = sliceStart(start, end, tasks, t + 1);
      int task = t;
      ColumnarInput columnar = columnarInput();
      if (source instanceof SupportsPartitionedReads partitioned) {
        // Task t reads input partitions t, t + tasks, ...
        int parts = partitioned.inputPartitions(start, end);
        reads.add(() -> {
          RowsInto rows = new RowsInto(head, resources);
          for (int p = task; p < parts; p += tasks) {
            partitioned.readPartition(start, end, p, rows);
          }
          counts[task] = rows.count;
        });
        continue;
      }
      reads.add(() -> {
        if (columnar != null) {
          counts[task] = columnar.read((SupportsColumnarReads) source, task, from, to, resources);
          return;
        }
        // Made on the task's thread, as the task's own per-row state (see Operator).
        RowsInto rows = new RowsInto(head, resources);
        source.readRange(from, to, rows);
        counts[task] = rows.count;
      });
    }
    ParallelTasks.runAll(reads, streamingPipeline.taskExecutor());
    long rows = 0;
    for (long task : counts) {
      rows += task;
    }
    return rows;
  }

  /** The first offset (exclusive) of slice {@code t} of {@code tasks} of {@code (start, end]}. */
  private static long sliceStart(long start, long end, int tasks, int t) {
    return start + (end - start) / tasks * t + Math.min(t, (end - start) % tasks);
  }

  /**
   * Pushes a source's rows into an operator and counts them. Every read, on any thread, goes
   * through this one class, so that the source's per-row call has one target the JIT can inline.
   * Every {@value #CANCEL_CHECK_EVERY} rows it checks whether the query was stopped.
   */
  private static final class RowsInto implements Consumer<Object[]> {
    /** Rows between two checks of the cancellation flag (a power of two). */
    static final int CANCEL_CHECK_EVERY = 1024;

    private final Operator operator;
    private final QueryResources resources;
    long count;

    RowsInto(Operator operator, QueryResources resources) {
      this.operator = operator;
      this.resources = resources;
    }

    @Override public void accept(Object[] row) {
      if ((++count & (CANCEL_CHECK_EVERY - 1)) == 0) {
        resources.throwIfCancelled();
      }
      operator.push(row);
    }
  }
}
