package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.RowErrors;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.source.SupportsColumnarReads;
import dev.freshet.executor.source.SupportsParallelReads;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The operators of one streaming query, wired together, with the handles the runtime needs.
 *
 * <p>A pipeline may read a batch as several input tasks at once, as Spark runs a task per input
 * partition: when the source {@linkplain SupportsParallelReads allows it}, task 0 pushes the rows
 * of the batch's first slice of offsets into {@link #head}, and task {@code t} those of slice
 * {@code t} into {@code extraInputTasks.get(t - 1)}, a copy of the operators below the
 * aggregation that ends in {@link StatefulAggregateOperator#inputTask(int)}.
 *
 * @param source the stream the query reads
 * @param head the first operator; the source's rows are pushed into it
 * @param output the last operator, whose rows go to the sink
 * @param watermarks the operators that observe event time, whose minimum is the query's watermark
 * @param statefulOperators the stateful operators, in plan pre-order, for progress reports
 * @param extraInputTasks the heads of input tasks 1, 2, ...; empty to read on the batch thread
 * @param taskExecutor runs input tasks 1, 2, ...; null when there are none
 * @param rowErrors what the operators do with a row whose expressions fail, and how many they
 *     dropped
 * @param columnarInput when not null, the input tasks' columnar pipelines, which the runtime
 *     reads batches into instead of rows when the source {@linkplain SupportsColumnarReads can
 *     hand over vectors}; they feed the same aggregation as the row pipelines
 * @param otherInputs the streams a query reads beside {@code source} (a join's right side, a
 *     union's other inputs), each with the head of its own chain; such a pipeline reads every
 *     stream on the batch thread, without input tasks or columnar input
 */
public record StreamingPipeline(Source source, Operator head, CollectOperator output,
    List<EventTimeWatermarkOperator> watermarks,
    List<? extends StatefulOperator> statefulOperators, List<Operator> extraInputTasks,
    Executor taskExecutor, RowErrors rowErrors, ColumnarInput columnarInput,
    List<SourceInput> otherInputs) {
  public StreamingPipeline {
    otherInputs = List.copyOf(otherInputs);
    if (!otherInputs.isEmpty() && (columnarInput != null || !extraInputTasks.isEmpty())) {
      throw new IllegalArgumentException("a pipeline of several streams reads them on the"
          + " batch thread, as rows");
    }
    if (columnarInput != null && columnarInput.tasks() != 1 + extraInputTasks.size()) {
      throw new IllegalArgumentException("a columnar pipeline per input task: "
          + columnarInput.tasks() + " for " + (1 + extraInputTasks.size()) + " tasks");
    }
    requireNonNull(rowErrors, "rowErrors");
    requireNonNull(source, "source");
    requireNonNull(head, "head");
    requireNonNull(output, "output");
    watermarks = List.copyOf(watermarks);
    statefulOperators = List.copyOf(statefulOperators);
    extraInputTasks = List.copyOf(extraInputTasks);
    if (!extraInputTasks.isEmpty() && taskExecutor == null) {
      throw new IllegalArgumentException("input tasks need an executor");
    }
  }

  /** A pipeline that reads one stream. */
  public StreamingPipeline(Source source, Operator head, CollectOperator output,
      List<EventTimeWatermarkOperator> watermarks,
      List<? extends StatefulOperator> statefulOperators, List<Operator> extraInputTasks,
      Executor taskExecutor, RowErrors rowErrors, ColumnarInput columnarInput) {
    this(source, head, output, watermarks, statefulOperators, extraInputTasks, taskExecutor,
        rowErrors, columnarInput, List.of());
  }

  /**
   * A pipeline that reads several streams on the batch thread, as rows.
   *
   * @param inputs the streams, in the order of the offset log's entries, with their heads
   */
  public static StreamingPipeline ofInputs(List<SourceInput> inputs, CollectOperator output,
      List<EventTimeWatermarkOperator> watermarks,
      List<? extends StatefulOperator> statefulOperators, RowErrors rowErrors) {
    return new StreamingPipeline(inputs.get(0).source(), inputs.get(0).head(), output,
        watermarks, statefulOperators, List.of(), null, rowErrors, null,
        inputs.subList(1, inputs.size()));
  }

  /** Every stream the query reads with the head of its chain: {@link #source} first. */
  public List<SourceInput> inputs() {
    List<SourceInput> inputs = new java.util.ArrayList<>(1 + otherInputs.size());
    inputs.add(new SourceInput(source, head));
    inputs.addAll(otherInputs);
    return inputs;
  }

  /** A pipeline without columnar input. */
  public StreamingPipeline(Source source, Operator head, CollectOperator output,
      List<EventTimeWatermarkOperator> watermarks,
      List<? extends StatefulOperator> statefulOperators, List<Operator> extraInputTasks,
      Executor taskExecutor, RowErrors rowErrors) {
    this(source, head, output, watermarks, statefulOperators, extraInputTasks, taskExecutor,
        rowErrors, null);
  }

  /** A pipeline whose rows fail their batch when an expression fails. */
  public StreamingPipeline(Source source, Operator head, CollectOperator output,
      List<EventTimeWatermarkOperator> watermarks,
      List<? extends StatefulOperator> statefulOperators, List<Operator> extraInputTasks,
      Executor taskExecutor) {
    this(source, head, output, watermarks, statefulOperators, extraInputTasks, taskExecutor,
        RowErrors.failing());
  }

  /** A pipeline whose batches are read on the batch thread. */
  public StreamingPipeline(Source source, Operator head, CollectOperator output,
      List<EventTimeWatermarkOperator> watermarks,
      List<? extends StatefulOperator> statefulOperators) {
    this(source, head, output, watermarks, statefulOperators, List.of(), null);
  }

  /** A pipeline without event time or stateful operators. */
  public static StreamingPipeline of(Source source, Operator head, CollectOperator output) {
    return new StreamingPipeline(source, head, output, List.of(), List.of());
  }

  /** How many input tasks may read one batch: 1 plus the extra ones. */
  public int inputTasks() {
    return 1 + extraInputTasks.size();
  }

  /** The query's watermark: the minimum over its event-time operators, 0 if it has none. */
  public long watermarkMs() {
    long min = Long.MAX_VALUE;
    for (EventTimeWatermarkOperator w : watermarks) {
      min = Math.min(min, w.watermarkMs());
    }
    return watermarks.isEmpty() ? 0 : min;
  }
}
