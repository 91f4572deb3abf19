package dev.freshet.planner.exec;

import dev.freshet.executor.runtime.MicroBatchExecution;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import dev.freshet.executor.runtime.Trigger;
import dev.freshet.executor.source.SequenceSource;
import dev.freshet.executor.source.SequenceSpec;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.sql.FreshetSqlParser;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.calcite.DataContexts;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * W1's query without the engine around it, row path against columnar path: {@code SELECT n % K
 * AS k, COUNT(*), SUM(n) FROM nums GROUP BY n % K} over an unpaced sequence in 1M-row batches,
 * two input tasks, two state partitions in memory, output discarded; rows/s as the harness
 * measures, the measured batches' rows over their summed {@code durationMs}.
 *
 * <pre>
 * java -cp ... dev.freshet.planner.exec.ColumnarThroughputMain columnar 1000 5000000 20000000
 * </pre>
 *
 * Arguments: {@code row} or {@code columnar}, the number of keys K, warm-up rows, measured rows.
 */
public final class ColumnarThroughputMain {
  private ColumnarThroughputMain() {
  }

  public static void main(String[] args) throws Exception {
    boolean columnar = args[0].equals("columnar");
    long keys = Long.parseLong(args[1]);
    long warmup = Long.parseLong(args[2]);
    long measured = Long.parseLong(args[3]);
    Catalog catalog = new Catalog();
    FreshetPlanner planner = new FreshetPlanner(catalog);
    catalog.addStream(new StreamTable("NUMS", RelDataTypeImpl.proto(planner.typeFactory()
        .builder().add("N", SqlTypeName.BIGINT).build()), Optional.empty(),
        Map.of("connector", "sequence"), new SequenceSource(
            SequenceSpec.bounded("NUMS", warmup + measured).withRowsPerBatch(1_000_000))));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    StreamingPipeline pipeline = new ExecPlanBuilder(planner.typeFactory(), DataContexts.EMPTY,
        "w1", InMemoryStateStoreProvider::new, pool, 2).withColumnarPath(columnar)
        .build(planner.planQuery(FreshetSqlParser.parse("SELECT STREAM n % " + keys
            + " AS k, COUNT(*) AS c, SUM(n) AS s FROM nums GROUP BY n % " + keys), null, 2));
    long[] rows = {0};
    long[] millis = {0};
    MicroBatchExecution query = new MicroBatchExecution("w1", "w1", pipeline,
        (batchId, out) -> { }, System::currentTimeMillis, Trigger.AVAILABLE_NOW);
    query.start();
    query.awaitTermination(Duration.ofMinutes(10));
    if (query.exception().isPresent()) {
      throw new IllegalStateException(query.exception().get());
    }
    List<StreamingQueryProgress> progress = query.recentProgress();
    long seen = 0;
    for (StreamingQueryProgress p : progress) {
      if (p.batchId() * 1_000_000 >= warmup) {
        rows[0] += p.numInputRows();
        millis[0] += p.durationMs();
      }
      seen += p.numInputRows();
    }
    pool.shutdownNow();
    System.out.printf("%s keys=%d columnarInput=%s rows=%d measured=%d in %d ms: %.2f M rows/s%n",
        args[0], keys, pipeline.columnarInput() != null, seen, rows[0], millis[0],
        rows[0] / 1000.0 / Math.max(1, millis[0]));
  }
}
