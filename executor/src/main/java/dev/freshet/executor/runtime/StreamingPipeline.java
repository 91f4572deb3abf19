package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.source.Source;
import java.util.List;

/**
 * The operators of one streaming query, wired together, with the handles the runtime needs.
 *
 * @param source the stream the query reads
 * @param head the first operator; the source's rows are pushed into it
 * @param output the last operator, whose rows go to the sink
 * @param watermarks the operators that observe event time, whose minimum is the query's watermark
 * @param statefulOperators the stateful operators, in plan pre-order, for progress reports
 */
public record StreamingPipeline(Source source, Operator head, CollectOperator output,
    List<EventTimeWatermarkOperator> watermarks,
    List<StatefulAggregateOperator> statefulOperators) {
  public StreamingPipeline {
    requireNonNull(source, "source");
    requireNonNull(head, "head");
    requireNonNull(output, "output");
    watermarks = List.copyOf(watermarks);
    statefulOperators = List.copyOf(statefulOperators);
  }

  /** A pipeline without event time or stateful operators. */
  public static StreamingPipeline of(Source source, Operator head, CollectOperator output) {
    return new StreamingPipeline(source, head, output, List.of(), List.of());
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
