package dev.freshet.executor.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.checkpoint.OffsetSeq;
import dev.freshet.executor.checkpoint.SourceOffset;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.source.MemoryStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests that a checkpointed query whose source is behind its checkpoint fails with both offsets,
 * rather than waiting for the source to catch up and skipping the rows it hands out meanwhile.
 */
class SourceBehindCheckpointTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final List<Long> batches = new CopyOnWriteArrayList<>();

  private MicroBatchExecution query(MemoryStream stream, Trigger trigger) {
    CollectOperator collect = new CollectOperator();
    return MicroBatchExecution.builder("q", "q", StreamingPipeline.of(stream, collect, collect),
        (batchId, rows) -> batches.add(batchId)).trigger(trigger)
        .checkpoint(Checkpoint.open(dir), Map.of()).build();
  }

  private static MemoryStream streamWith(int offsets) {
    MemoryStream stream = new MemoryStream("clicks", 1);
    for (int i = 1; i <= offsets; i++) {
      stream.addData(List.<Object[]>of(new Object[] {i}));
    }
    return stream;
  }

  @Test void shouldFailWhenTheCommittedOffsetIsAheadOfTheSource() throws Exception {
    MicroBatchExecution first = query(streamWith(3), Trigger.ONCE);
    first.start();
    assertTrue(first.awaitTermination(TIMEOUT));
    assertEquals(QueryStatus.STOPPED, first.status());

    // The source starts over with one offset: offsets 2 and 3 of the checkpoint are gone.
    MemoryStream smaller = streamWith(1);
    MicroBatchExecution second = query(smaller, Trigger.DEFAULT);
    second.start();
    assertTrue(second.awaitTermination(TIMEOUT));
    assertEquals(QueryStatus.FAILED, second.status());
    CheckpointException e = assertInstanceOf(CheckpointException.class,
        second.exception().orElseThrow());
    assertEquals(CheckpointException.Reason.INCONSISTENT, e.reason());
    assertEquals("Checkpoint file " + dir.resolve("offsets").resolve("0") + " records offset 3"
        + " of MemoryStream[clicks], which is ahead of the source's latest offset 1: the source"
        + " lost offsets 2 to 3 (its files were replaced or moved away) or went backwards."
        + " Freshet does not skip the rows that will come at those offsets: restore the"
        + " source's files, or drop the view (or query) and create it again to start from the"
        + " source's beginning", e.getMessage());
    assertEquals(List.of(0L), batches, "no batch ran on the smaller source");
  }

  @Test void shouldFailWhenABatchToRunAgainEndsAheadOfTheSource() throws Exception {
    Checkpoint checkpoint = Checkpoint.open(dir);
    // Batch 0 planned up to offset 5, never committed: it would run again on (0, 5].
    assertTrue(checkpoint.offsetLog().add(0,
        new OffsetSeq(0, 1000, Map.of(), List.of(SourceOffset.of(5)))));
    MicroBatchExecution q = query(streamWith(4), Trigger.DEFAULT);
    q.start();
    assertTrue(q.awaitTermination(TIMEOUT));
    assertEquals(QueryStatus.FAILED, q.status());
    String message = q.exception().orElseThrow().getMessage();
    assertTrue(message.startsWith("Checkpoint file " + dir.resolve("offsets").resolve("0")
        + " records offset 5 of MemoryStream[clicks], which is ahead of the source's latest"
        + " offset 4: "), message);
    assertEquals(List.of(), batches);
  }
}
