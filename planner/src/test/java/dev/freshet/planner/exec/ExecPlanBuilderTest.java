package dev.freshet.planner.exec;

import dev.freshet.executor.operators.StatefulAggregateOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.SequenceSource;
import dev.freshet.executor.source.SequenceSpec;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.sql.FreshetSqlParser;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How {@link ExecPlanBuilder} lays out input tasks: the operators between the stream and its
 * aggregation once per task, each copy feeding the aggregation's input for its task, and
 * watermark copies feeding one watermark.
 */
class ExecPlanBuilderTest {
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);
  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  ExecPlanBuilderTest() {
    RelDataTypeFactory f = planner.typeFactory();
    // A sequence can be read in slices; a memory stream cannot.
    catalog.addStream(new StreamTable("S", RelDataTypeImpl.proto(f.builder()
        .add("N", SqlTypeName.BIGINT)
        .add("TS", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .build()), Optional.of(new WatermarkSpec("TS", 5000)), Map.of("connector", "sequence"),
        new SequenceSource(SequenceSpec.bounded("S", 10).withColumns(0, OptionalInt.of(1)))));
    catalog.addStream(new StreamTable("M", RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.VARCHAR).nullable(true)
        .build()), Optional.empty(), Map.of("connector", "memory"), new MemoryStream("M", 1)));
  }

  @AfterEach void shutdown() {
    pool.shutdownNow();
  }

  private StreamingPipeline build(String sql, int inputTasks) throws Exception {
    return new ExecPlanBuilder(planner.typeFactory(), "q",
        InMemoryStateStoreProvider::new, pool, inputTasks)
        .build(planner.planQuery(FreshetSqlParser.parse(sql), null, 1));
  }

  @Test void shouldBuildTheOperatorsBelowTheAggregationOncePerInputTask() throws Exception {
    StreamingPipeline pipeline = build("SELECT STREAM MOD(n, 2) AS k, COUNT(*) AS c, SUM(n) AS t"
        + " FROM s WHERE n > 0 GROUP BY MOD(n, 2)", 3);
    assertEquals(3, pipeline.inputTasks());
    assertEquals(3, ((StatefulAggregateOperator) pipeline.statefulOperators().get(0)).inputTasks());
    assertEquals(pipeline.head().getClass(), pipeline.extraInputTasks().get(0).getClass());
    assertNotSame(pipeline.extraInputTasks().get(0), pipeline.extraInputTasks().get(1));
    assertSame(pool, pipeline.taskExecutor());
    // Rows of a batch, split between the tasks, aggregate as one batch's.
    BatchContext batch = new BatchContext(0, 0);
    List<Operator> heads = List.of(pipeline.head(), pipeline.extraInputTasks().get(0),
        pipeline.extraInputTasks().get(1));
    heads.forEach(h -> h.startBatch(batch));
    pipeline.head().push(new Object[] {1L, null});
    pipeline.extraInputTasks().get(0).push(new Object[] {3L, null});
    pipeline.extraInputTasks().get(1).push(new Object[] {4L, null});
    pipeline.extraInputTasks().get(1).push(new Object[] {-1L, null});
    pipeline.extraInputTasks().get(1).finishBatch(batch);
    pipeline.extraInputTasks().get(0).finishBatch(batch);
    pipeline.head().finishBatch(batch);
    assertEquals(List.of("[0, 1, 4]", "[1, 2, 4]"), pipeline.output().takeRows().stream()
        .map(java.util.Arrays::toString).sorted().toList());
  }

  @Test void shouldFeedOneWatermarkFromEveryTasksCopy() throws Exception {
    StreamingPipeline pipeline = build("SELECT STREAM TUMBLE_START(ts, INTERVAL '10' SECOND) AS w,"
        + " COUNT(*) AS c FROM s GROUP BY TUMBLE(ts, INTERVAL '10' SECOND)", 2);
    assertEquals(1, pipeline.extraInputTasks().size());
    assertEquals(1, pipeline.watermarks().size());
    BatchContext batch = new BatchContext(0, 0);
    pipeline.head().startBatch(batch);
    pipeline.extraInputTasks().get(0).startBatch(batch);
    pipeline.head().push(new Object[] {1L, 20_000L});
    pipeline.extraInputTasks().get(0).push(new Object[] {2L, 60_000L});
    pipeline.extraInputTasks().get(0).finishBatch(batch);
    pipeline.head().finishBatch(batch);
    // The copy's row is the latest: the watermark is 60 s less the 5 s delay.
    assertEquals(55_000, pipeline.watermarkMs());
  }

  @Test void shouldReadOnOneTaskWhenNothingIsAggregatedOrThereIsNoPoolOrNoSlices()
      throws Exception {
    assertEquals(1, build("SELECT STREAM n FROM s WHERE n > 0", 2).inputTasks());
    StreamingPipeline overMemory = build("SELECT STREAM k, COUNT(*) FROM m GROUP BY k", 2);
    assertEquals(1, overMemory.inputTasks());
    assertEquals(1, ((StatefulAggregateOperator) overMemory.statefulOperators().get(0)).inputTasks());
    StreamingPipeline withoutPool = new ExecPlanBuilder(planner.typeFactory(),
        "q", InMemoryStateStoreProvider::new, null, 2).build(planner.planQuery(
            FreshetSqlParser.parse("SELECT STREAM n, COUNT(*) FROM s GROUP BY n"), null, 1));
    assertEquals(1, withoutPool.inputTasks());
    assertEquals(1, ((StatefulAggregateOperator) withoutPool.statefulOperators().get(0)).inputTasks());
  }
}
