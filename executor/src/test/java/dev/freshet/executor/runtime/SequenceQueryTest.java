package dev.freshet.executor.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.checkpoint.CommitMetadata;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.source.SequenceSource;
import dev.freshet.executor.source.SequenceSpec;
import dev.freshet.executor.source.Source;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MicroBatchExecution} over a {@link SequenceSource}: batches as large as the source's
 * admission control allows (all under {@link Trigger#ONCE}), and a paced source waking its query
 * when rows become due, on a manual clock. Nothing sleeps.
 */
class SequenceQueryTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final AtomicLong clock = new AtomicLong(5_000);
  private final Summing sum = new Summing();
  private MicroBatchExecution query;

  @AfterEach void stopQuery() {
    if (query != null) {
      query.stop();
    }
  }

  private MicroBatchExecution start(Source source, Trigger trigger) {
    query = MicroBatchExecution.builder("q", "sequence", StreamingPipeline.of(source, sum,
        new CollectOperator()), (batchId, rows) -> { }).trigger(trigger).build();
    query.start();
    return query;
  }

  /** The offset ranges of the query's batches, as {@code (start, end]}. */
  private List<String> batches() {
    return query.recentProgress().stream().map(p -> p.sources().get(0))
        .map(s -> "(" + s.startOffset() + ", " + s.endOffset() + "]").toList();
  }

  @Test void shouldSplitAvailableRowsIntoBatchesOfRowsPerBatch() throws Exception {
    start(new SequenceSource(SequenceSpec.bounded("NUMS", 100).withRowsPerBatch(30)),
        Trigger.DEFAULT);
    assertTrue(query.processAllAvailable(TIMEOUT));
    assertEquals(List.of("(0, 30]", "(30, 60]", "(60, 90]", "(90, 100]"), batches());
    assertEquals(List.of(100L, 4950L), sum.totals());
    assertEquals("SequenceSource[NUMS]",
        query.lastProgress().orElseThrow().sources().get(0).description());
  }

  @Test void shouldReportOnlyCommittedBatchesInProgress(@TempDir Path dir) throws Exception {
    Checkpoint checkpoint = Checkpoint.open(dir);
    // While batch 1 runs, another writer commits batch 1: this query's batch cannot commit.
    Sink sink = (batchId, rows) -> {
      if (batchId == 1) {
        assertTrue(checkpoint.commitLog().add(1, new CommitMetadata(0)));
      }
    };
    query = MicroBatchExecution.builder("q", "sequence", StreamingPipeline.of(
        new SequenceSource(SequenceSpec.bounded("NUMS", 100).withRowsPerBatch(30)), sum,
        new CollectOperator()), sink).checkpoint(checkpoint, Map.of()).build();
    query.start();
    assertTrue(query.awaitTermination(TIMEOUT));
    assertEquals(QueryStatus.FAILED, query.status());
    // Progress, like Spark's, describes whole batches: offsets, run and commit.
    assertEquals(List.of("(0, 30]"), batches());
  }

  @Test void shouldReadEverythingInOneBatchWhenTheTriggerIsOnce() throws Exception {
    start(new SequenceSource(SequenceSpec.bounded("NUMS", 100).withRowsPerBatch(30)),
        Trigger.ONCE);
    assertTrue(query.awaitTermination(TIMEOUT));
    assertEquals(List.of("(0, 100]"), batches());
    assertEquals(List.of(100L, 4950L), sum.totals());
  }

  @Test void shouldStopAfterTheLimitedBatchesWhenTheTriggerIsAvailableNow() throws Exception {
    start(new SequenceSource(SequenceSpec.bounded("NUMS", 100).withRowsPerBatch(40)),
        Trigger.AVAILABLE_NOW);
    assertTrue(query.awaitTermination(TIMEOUT));
    assertEquals(QueryStatus.STOPPED, query.status());
    assertEquals(List.of("(0, 40]", "(40, 80]", "(80, 100]"), batches());
  }

  @Test void shouldWakeTheQueryWhenPacedRowsBecomeDue() throws Exception {
    // 1000 rows a second on a manual clock: row i is due i ms after the source was created.
    SequenceSource ticks = new SequenceSource(SequenceSpec.paced("TICKS", 1000)
        .withRowsPerBatch(600), clock::get);
    start(ticks, Trigger.DEFAULT);
    assertTrue(query.processAllAvailable(TIMEOUT));
    assertEquals(List.of("(0, 1]"), batches());

    // Nothing signals the query: it finds the rows by asking the source when to look again.
    clock.addAndGet(999);
    assertTrue(query.processAllAvailable(TIMEOUT));
    assertEquals(List.of("(0, 1]", "(1, 601]", "(601, 1000]"), batches());
    assertEquals(List.of(1000L, 499_500L), sum.totals());

    clock.addAndGet(5);
    assertTrue(query.processAllAvailable(TIMEOUT));
    assertEquals("(1000, 1005]", batches().get(3));
    assertEquals(List.of(1005L, 504_510L), sum.totals());
  }

  @Test void shouldEndTheWaitOfAPacedQueryWhenStopped() throws Exception {
    // A row a second and a frozen clock: the query waits a second at a time, until stopped.
    start(new SequenceSource(SequenceSpec.paced("SLOW", 1), clock::get), Trigger.DEFAULT);
    assertTrue(query.processAllAvailable(TIMEOUT));
    query.stop();
    assertEquals(QueryStatus.STOPPED, query.status());
    assertEquals(List.of("(0, 1]"), batches());
  }

  /** Head operator that counts rows and sums their first column; it outputs nothing. */
  private static final class Summing implements Operator {
    private long count;
    private long total;

    @Override public void startBatch(BatchContext batch) {
    }

    @Override public void push(Object[] row) {
      count++;
      total += (Long) row[0];
    }

    @Override public void finishBatch(BatchContext batch) {
    }

    /** Rows and sum so far; read after {@code processAllAvailable}, which orders the reads. */
    List<Long> totals() {
      return List.of(count, total);
    }
  }
}
