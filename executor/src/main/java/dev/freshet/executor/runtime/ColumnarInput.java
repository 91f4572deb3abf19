package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.VectorOperator;
import dev.freshet.executor.source.SupportsColumnarReads;
import dev.freshet.executor.vector.VectorBatch;
import dev.freshet.executor.vector.VectorType;
import java.util.List;
import java.util.function.Consumer;

/**
 * A pipeline's columnar way in: per input task, the head of a columnar copy of the operators
 * below the aggregation, into which the task reads its slice of a batch as vector batches
 * ({@link SupportsColumnarReads}) instead of rows.
 *
 * <pre>{@code
 * ColumnarInput in = new ColumnarInput(new VectorType[] {VectorType.LONG}, List.of(task0, task1));
 * long rows = in.read(source, 1, from, to, resources);   // on task 1's thread
 * }</pre>
 *
 * <p>Each task's {@link VectorBatch} is allocated by its first read, on the reading thread, and
 * refilled by every read after: reading costs no allocation per row or per batch of rows.
 *
 * @see StreamingPipeline#columnarInput()
 */
public final class ColumnarInput {
  private final VectorType[] columns;
  private final List<VectorOperator> tasks;
  private final VectorBatch[] batches;

  /**
   * Creates the input.
   *
   * @param columns the stream's columns as vectors; null for a column no operator reads
   * @param tasks per input task (from 0) the head of its columnar pipeline
   */
  public ColumnarInput(VectorType[] columns, List<VectorOperator> tasks) {
    this.columns = columns.clone();
    this.tasks = List.copyOf(tasks);
    this.batches = new VectorBatch[this.tasks.size()];
    if (this.tasks.isEmpty()) {
      throw new IllegalArgumentException("a columnar input needs a task");
    }
  }

  /** The stream's columns as vectors, null for a column no operator reads. */
  public VectorType[] columns() {
    return columns.clone();
  }

  /** How many input tasks have a columnar pipeline. */
  public int tasks() {
    return tasks.size();
  }

  /** The head of input task {@code task}'s columnar pipeline. */
  public VectorOperator task(int task) {
    return tasks.get(task);
  }

  /**
   * Reads offsets {@code (from, to]} of {@code source} into input task {@code task}'s pipeline,
   * checking between vector batches whether the query was cancelled; returns the rows read.
   */
  public long read(SupportsColumnarReads source, int task, long from, long to,
      QueryResources resources) {
    VectorBatch batch = batches[task];
    if (batch == null) {
      batch = batches[task] = VectorBatch.of(columns, VectorBatch.DEFAULT_CAPACITY);
    }
    Counting counting = new Counting(tasks.get(task), requireNonNull(resources, "resources"));
    source.readVectors(from, to, batch, counting);
    return counting.rows;
  }

  /** Pushes vector batches into a task's head, counting their rows. */
  private static final class Counting implements Consumer<VectorBatch> {
    private final VectorOperator head;
    private final QueryResources resources;
    long rows;

    Counting(VectorOperator head, QueryResources resources) {
      this.head = head;
      this.resources = resources;
    }

    @Override public void accept(VectorBatch batch) {
      resources.throwIfCancelled();
      rows += batch.size();
      head.push(batch);
    }
  }
}
