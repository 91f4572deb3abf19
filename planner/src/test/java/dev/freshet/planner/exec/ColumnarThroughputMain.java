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
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.sql.FreshetSqlParser;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.calcite.rel.type.RelDataTypeFactory;
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
 * Arguments: {@code row} or {@code columnar}, the number of keys K, warm-up rows, measured rows,
 * and {@code w4} for W4's query instead (tumbling windows of 10 s over row i at i ms, a 5 s
 * watermark, grouped by window and {@code n % K}).
 */
public final class ColumnarThroughputMain {
  private ColumnarThroughputMain() {
  }

  public static void main(String[] args) throws Exception {
    boolean columnar = args[0].equals("columnar");
    long keys = Long.parseLong(args[1]);
    long warmup = Long.parseLong(args[2]);
    long measured = Long.parseLong(args[3]);
    boolean w4 = args.length > 4 && args[4].equals("w4");
    Catalog catalog = new Catalog();
    FreshetPlanner planner = new FreshetPlanner(catalog);
    // W4: row i at i ms, a watermark 5 s behind, as the harness's W4.
    RelDataTypeFactory.Builder columns = planner.typeFactory().builder()
        .add("N", SqlTypeName.BIGINT);
    SequenceSpec spec = SequenceSpec.bounded("NUMS", warmup + measured)
        .withRowsPerBatch(1_000_000);
    if (w4) {
      columns.add("TS", SqlTypeName.TIMESTAMP, 3);
      spec = spec.withColumns(0, OptionalInt.of(1));
    }
    catalog.addStream(new StreamTable("NUMS", RelDataTypeImpl.proto(columns.build()),
        w4 ? Optional.of(new WatermarkSpec("TS", 5000)) : Optional.empty(),
        Map.of("connector", "sequence"), new SequenceSource(spec)));
    String sql = w4
        ? "SELECT STREAM TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, n % " + keys + " AS k,"
            + " COUNT(*) AS c, SUM(n) AS s FROM nums"
            + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), n % " + keys
        : "SELECT STREAM n % " + keys + " AS k, COUNT(*) AS c, SUM(n) AS s FROM nums GROUP BY n % "
            + keys;
    ExecutorService pool = Executors.newFixedThreadPool(2);
    StreamingPipeline pipeline = new ExecPlanBuilder(planner.typeFactory(),
        "w1", InMemoryStateStoreProvider::new, pool, 2).withColumnarPath(columnar)
        .build(planner.planQuery(FreshetSqlParser.parse(sql), null, 2));
    long[] rows = {0};
    long[] millis = {0};
    MicroBatchExecution query = MicroBatchExecution.builder("w1", "w1", pipeline,
        (batchId, out) -> { }).trigger(Trigger.AVAILABLE_NOW).build();
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
    System.out.printf("%s%s keys=%d columnarInput=%s rows=%d measured=%d in %d ms: %.2f M rows/s%n",
        args[0], w4 ? " w4" : "", keys, pipeline.columnarInput() != null, seen, rows[0], millis[0],
        rows[0] / 1000.0 / Math.max(1, millis[0]));
  }
}
