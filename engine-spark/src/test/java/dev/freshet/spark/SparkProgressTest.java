package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.query.ExternalExecution;
import dev.freshet.engine.spi.ViewStatus;
import dev.freshet.executor.runtime.ProgressTotals;
import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.testkit.SparkTest;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.execution.streaming.runtime.MemoryStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A query run on Spark: its status, its failure, a wait with a timeout, and Spark's progress in
 * the SPI's terms, as the engine shows it ({@link ExternalExecution#progress}) and adds it up,
 * with every batch although the session keeps only {@value #SPARK_RETAINED} of Spark's own
 * records.
 */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class SparkProgressTest {
  /** Fewer than the batches of a test: what Freshet reports must not depend on Spark's buffer. */
  private static final int SPARK_RETAINED = 2;
  private static SparkBench bench;

  @BeforeAll static void startSpark() throws Exception {
    bench = new SparkBench();
    // Read when a query starts: every query of this class keeps this few of Spark's records.
    bench.spark.conf().set("spark.sql.streaming.numRecentProgressUpdates", SPARK_RETAINED);
  }

  @AfterAll static void stopSpark() {
    bench.close();
  }

  @Test void shouldKeepSparksOffsetsAsOneLineOfJson() {
    assertEquals("0", SparkProgress.offset(null));
    assertEquals("0", SparkProgress.offset("null"));
    assertEquals("2", SparkProgress.offset("2"));
    assertEquals("{\"t\":{\"0\":42}}",
        SparkProgress.offset("{\n  \"t\" : {\"0\": 42}\n}"));
    assertEquals("{\"spark\":-1}", SparkProgress.offset("-1"));
    assertEquals("{\"spark\":\"a\\\"b\"}", SparkProgress.offset("\"a\\\"b\""));
    assertEquals("{\"spark\":\"not json\"}", SparkProgress.offset("not json"));
  }

  @Test void shouldReportEveryBatchAndCountItOnceAlsoBeyondSparksRecentProgress()
      throws Exception {
    SparkBench.Running spark = bench.start("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id", EmitMode.UPDATE, "CLICKS");
    try {
      spark.add(List.<Object[]>of(click("a")));
      spark.add(List.<Object[]>of(click("a"), click("b")));
      spark.add(List.<Object[]>of(click("c")));
      SparkContinuousQuery query = spark.query();
      assertEquals(ViewStatus.ACTIVE, query.status());

      List<StreamingQueryProgress> progress = progress(query);
      assertEquals(List.of(0L, 1L, 2L), progress.stream().map(StreamingQueryProgress::batchId)
          .toList());
      assertEquals(List.of(1L, 2L, 1L), progress.stream()
          .map(StreamingQueryProgress::numInputRows).toList());
      // Users in state after each batch: a; a, b; a, b, c.
      assertEquals(List.of(1L, 2L, 3L), progress.stream()
          .map(p -> p.stateOperators().get(0).numRowsTotal()).toList());
      StreamingQueryProgress last = progress.get(2);
      assertEquals(query.id(), last.id());
      assertEquals(query.sparkQuery().runId().toString(), last.runId());
      assertEquals(1, last.sources().size());
      // MemoryStream's offsets count the data added: 3 adds end at offset 2.
      assertEquals("2", last.sources().get(0).endOffset().json());
      // Spark does not count what foreachBatch's function did with the rows: -1, as Spark's.
      assertEquals(-1, last.sink().numOutputRows());
      assertEquals(-1, last.numOutputRows());
      // No watermark: none reported, no lag.
      assertEquals(0, last.batchWatermarkMs());
      assertTrue(last.eventTime().isEmpty(), last.eventTime()::toString);
      assertTrue(last.watermarkLagMs().isEmpty());
      assertEquals(2L, query.lastBatchId());

      assertTrue(query.sparkQuery().recentProgress().length <= SPARK_RETAINED);
      ProgressTotals totals = totals(query);
      assertEquals(3, totals.batches());
      assertEquals(4, totals.inputRows());
      assertEquals(0, totals.lateRows());

      query.stop();
      assertEquals(ViewStatus.STOPPED, query.status());
      query.stop();
      assertEquals(ViewStatus.STOPPED, query.status());
      assertTrue(query.exception().isEmpty());
    } finally {
      spark.close();
    }
  }

  @Test void shouldReportSparksWatermarkAndALateRowDroppedByIt() throws Exception {
    try (SparkBench.Running spark = bench.start("SELECT STREAM"
        + " TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, COUNT(*) AS n FROM events"
        + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND)", EmitMode.APPEND, "EVENTS")) {
      spark.add(List.<Object[]>of(event(2_000)));
      spark.add(List.<Object[]>of(event(14_999)));
      spark.add(List.<Object[]>of(event(15_000)));
      SparkContinuousQuery query = spark.query();
      // The last batch is the one without data that the watermark 15 - 5 s called for.
      StreamingQueryProgress closing = last(query);
      assertEquals(10_000, closing.batchWatermarkMs());
      assertEquals(Instant.parse(query.sparkQuery().lastProgress().eventTime().get("watermark"))
          .toEpochMilli(), closing.batchWatermarkMs());
      assertEquals("1970-01-01T00:00:10.000Z", closing.eventTime().get("watermark"));
      assertEquals(0, closing.stateOperators().get(0).numRowsDroppedByWatermark());

      spark.add(List.<Object[]>of(event(2_000)));
      StreamingQueryProgress late = last(query);
      assertEquals(closing.batchId() + 1, late.batchId());
      assertEquals(1, late.numInputRows());
      StateOperatorProgress window = late.stateOperators().get(0);
      assertEquals(1, window.numRowsDroppedByWatermark());
      // One window in state, [10, 20): [0, 10) was evicted when it closed.
      assertEquals(1, window.numRowsTotal());
      assertEquals(late.timestampMs() - 10_000, late.watermarkLagMs().orElseThrow());
      assertEquals(1, totals(query).lateRows());
      assertEquals(query.recentProgress().size(), totals(query).batches());
    }
  }

  @Test void shouldFailWithTheSqlStateOfTheFailedBatch() throws Exception {
    try (SparkBench.Running spark = bench.start("SELECT STREAM k, v / (v - 1) AS x FROM events",
        EmitMode.APPEND, "EVENTS")) {
      SparkContinuousQuery query = spark.query();
      spark.stream().addData(CollectionConverters.asScala(List.of(
          RowFactory.create("a", Timestamp.from(Instant.EPOCH), 1))));
      assertFalse(query.processAllAvailable(SparkBench.DEADLINE));
      assertEquals(ViewStatus.FAILED, query.status());
      SQLException e = (SQLException) query.exception().orElseThrow();
      assertEquals("22012", e.getSQLState(), e::getMessage);
      assertTrue(query.recentProgress().isEmpty());
    }
  }

  @Test void shouldTimeOutWhileABatchRunsAndReturnOnceItIsDone(@TempDir Path checkpoint)
      throws Exception {
    SparkBench.Translated translated = bench.translate("SELECT STREAM user_id FROM clicks",
        EmitMode.APPEND);
    MemoryStream<Row> clicks = translated.streams().get("CLICKS");
    CountDownLatch release = new CountDownLatch(1);
    // The sink holds the batch until the test releases it: the query cannot catch up before.
    try (SparkContinuousQuery query = SparkContinuousQuery.start(translated.query(), checkpoint,
        (batchId, rows) -> release.await(), "SLOW_CLICKS")) {
      try {
        clicks.addData(CollectionConverters.asScala(List.of(
            RowFactory.create("a", "u", 1))));
        assertFalse(query.processAllAvailable(Duration.ofMillis(300)));
        assertEquals(ViewStatus.ACTIVE, query.status());
      } finally {
        release.countDown();
      }
      assertTrue(query.processAllAvailable(SparkBench.DEADLINE));
      assertEquals("SLOW_CLICKS", query.name());
      StreamingQueryProgress batch = last(query);
      assertEquals(0, batch.batchId());
      assertEquals(1, batch.numInputRows());
      assertEquals("SLOW_CLICKS", batch.name());
    }
  }

  private static StreamingQueryProgress last(SparkContinuousQuery query) {
    List<StreamingQueryProgress> progress = progress(query);
    return progress.get(progress.size() - 1);
  }

  /** The query's last batches as the engine shows them, under Spark's id and name. */
  private static List<StreamingQueryProgress> progress(SparkContinuousQuery query) {
    return query.recentProgress().stream()
        .map(p -> ExternalExecution.progress(p, p.id(), p.name())).toList();
  }

  /** The query's batches added up as the engine adds them up. */
  private static ProgressTotals totals(SparkContinuousQuery query) {
    ProgressTotals totals = ProgressTotals.NONE;
    for (StreamingQueryProgress p : progress(query)) {
      totals = totals.plus(p);
    }
    return totals;
  }

  private static Object[] click(String user) {
    return new Object[] {user, "/", 1};
  }

  private static Object[] event(long millis) {
    return new Object[] {"a", LocalDateTime.of(1970, 1, 1, 0, 0).plusNanos(millis * 1_000_000), 1};
  }
}
