package dev.freshet.engine.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.spi.BatchProgress;
import dev.freshet.engine.spi.RunningView;
import dev.freshet.engine.spi.ViewProgressListener;
import dev.freshet.engine.spi.ViewStatus;
import dev.freshet.executor.runtime.MicroBatchExecution;
import dev.freshet.executor.runtime.ProgressTotals;
import dev.freshet.executor.runtime.QueryStatus;
import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A view run by another engine as the engine shows it: the SPI's progress under the view's query
 * id and name with the executor's names, the last {@value MicroBatchExecution#PROGRESS_RETAINED}
 * batches kept and every batch in the totals, the SPI's status as the executor's.
 */
class ExternalExecutionTest {
  private final AtomicReference<ViewStatus> status = new AtomicReference<>(ViewStatus.ACTIVE);

  @Test void shouldShowTheEnginesProgressUnderTheViewsIdAndName() throws Exception {
    ExternalExecution execution = ExternalExecution.prepare("q-1", "PER_USER", this::view);
    execution.onBatch(new BatchProgress("spark-id", "PER_USER-q-1", "run-1", 0, 1_000, 5,
        10_000, 12, -1, 2.5, 400, Map.of("watermark", "1970-01-01T00:00:10.000Z"),
        List.of(new BatchProgress.StateOperator("stateStoreSave", 3, 2, 1, 4, 200)),
        List.of(new BatchProgress.Source("MemoryStream[CLICKS]", "0", "{\"t\":{\"0\":42}}", 5,
            2.5, 400)), "ForeachBatchSink"));

    StreamingQueryProgress p = execution.lastProgress().orElseThrow();
    assertEquals("q-1", p.id());
    assertEquals("PER_USER", p.name());
    assertEquals("run-1", p.runId());
    assertEquals(5, p.numInputRows());
    assertEquals(10_000, p.batchWatermarkMs());
    assertEquals(12, p.durationMs());
    assertEquals(-1, p.numOutputRows());
    assertEquals(0, p.numRowsDroppedByError());
    assertEquals(Map.of("watermark", "1970-01-01T00:00:10.000Z"), p.eventTime());
    assertEquals(new StateOperatorProgress("stateStoreSave", 3, 2, 1, 4, 200),
        p.stateOperators().get(0));
    assertEquals("0", p.sources().get(0).startOffset().json());
    assertEquals("{\"t\":{\"0\":42}}", p.sources().get(0).endOffset().json());
    assertEquals("ForeachBatchSink", p.sink().description());
    assertEquals(-1, p.sink().numOutputRows());
    assertEquals(4, execution.progressTotals().lateRows());
  }

  @Test void shouldKeepTheLastBatchesAndCountEveryBatch() throws Exception {
    ExternalExecution execution = ExternalExecution.prepare("q-1", "V", this::view);
    int batches = MicroBatchExecution.PROGRESS_RETAINED + 20;
    for (int b = 0; b < batches; b++) {
      execution.onBatch(batch(b, 2));
    }
    List<StreamingQueryProgress> recent = execution.recentProgress();
    assertEquals(MicroBatchExecution.PROGRESS_RETAINED, recent.size());
    assertEquals(20, recent.get(0).batchId());
    assertEquals(batches - 1, recent.get(recent.size() - 1).batchId());
    ProgressTotals totals = execution.progressTotals();
    assertEquals(batches, totals.batches());
    assertEquals(2L * batches, totals.inputRows());
  }

  @Test void shouldShowTheEnginesStatusAsTheExecutors() throws Exception {
    ExternalExecution execution = ExternalExecution.prepare("q-1", "V", this::view);
    assertTrue(execution.recentProgress().isEmpty());
    assertEquals(ProgressTotals.NONE, execution.progressTotals());
    assertEquals(QueryStatus.ACTIVE, execution.status());
    status.set(ViewStatus.FAILED);
    assertEquals(QueryStatus.FAILED, execution.status());
    status.set(ViewStatus.STOPPED);
    assertEquals(QueryStatus.STOPPED, execution.status());
    assertSame(execution, execution.start());
  }

  private static BatchProgress batch(long batchId, long rows) {
    return new BatchProgress("spark-id", "V", "run", batchId, batchId, rows, 0, 1, -1, 0, 0,
        Map.of(), List.of(), List.of(), "ForeachBatchSink");
  }

  /** The other engine's query, reporting nothing by itself: the tests report for it. */
  private RunningView view(ViewProgressListener progress) {
    return new RunningView() {
      @Override public String engine() {
        return "fake";
      }

      @Override public void start() {
      }

      @Override public ViewStatus status() {
        return status.get();
      }

      @Override public long lastBatchId() {
        return -1;
      }

      @Override public Optional<Throwable> exception() {
        return Optional.empty();
      }

      @Override public boolean processAllAvailable(Duration timeout) {
        return true;
      }

      @Override public boolean awaitTermination(Duration timeout) {
        return true;
      }

      @Override public String explain() {
        return "";
      }

      @Override public void stop() {
      }

      @Override public void deleteCheckpoint() {
      }
    };
  }
}
