package dev.freshet.benchmarks.jmh;

import dev.freshet.executor.operators.AggregateCall;
import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.executor.operators.ValueKind;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * W1/W2's operator alone: one micro-batch of {@value #ROWS} rows through the partial aggregate,
 * restore, merge, save and commit of {@link StatefulAggregateOperator} over the in-memory store,
 * on two partitions as the engine runs it. The score is rows per second; the notes' ceiling for
 * one thread with a primitive map is about 380 M (1k keys) and 36 M (1M keys). With
 * {@code tasks = 2} the batch's rows are pushed by two input tasks at once, the second on a pool
 * thread, as the engine reads a sequence stream on two cores.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class AggregateBenchmark {
  static final int ROWS = 1_000_000;

  @Param({"1000", "1000000"})
  public int keys;

  @Param({"1", "2"})
  public int tasks;

  private Object[][] rows;
  private StatefulAggregateOperator operator;
  private ExecutorService pool;
  private long batchId;

  @Setup
  public void setUp() {
    rows = new Object[ROWS][];
    for (int i = 0; i < ROWS; i++) {
      // The rows a sequence stream and a compiled projection hand the operator: (key, n).
      rows[i] = new Object[] {(long) (i % keys), (long) i};
    }
    List<StateStoreProvider<Object, Object[]>> partitions = new ArrayList<>();
    for (int p = 0; p < 2; p++) {
      partitions.add(new InMemoryStateStoreProvider<>(new StateStoreId("bench", 0, p)));
    }
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG)),
        OutputMode.UPDATE, 2);
    pool = Executors.newFixedThreadPool(2);
    operator = new StatefulAggregateOperator(spec, partitions, new Discard(), pool, tasks);
  }

  @TearDown
  public void tearDown() {
    pool.shutdownNow();
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public void batch(Blackhole blackhole) throws Exception {
    BatchContext batch = new BatchContext(batchId++, 0);
    operator.startBatch(batch);
    if (tasks == 1) {
      push(operator, 0, ROWS);
    } else {
      Operator second = operator.inputTask(1);
      Future<?> other = pool.submit(() -> push(second, ROWS / 2, ROWS));
      push(operator, 0, ROWS / 2);
      other.get();
    }
    operator.finishBatch(batch);
    blackhole.consume(batchId);
  }

  private void push(Operator input, int from, int to) {
    for (int i = from; i < to; i++) {
      input.push(rows[i]);
    }
  }

  /** The sink: output rows are dropped, as Spark's noop sink does. */
  static final class Discard implements Operator {
    @Override public void startBatch(BatchContext batch) {}

    @Override public void push(Object[] row) {}

    @Override public void finishBatch(BatchContext batch) {}
  }
}
