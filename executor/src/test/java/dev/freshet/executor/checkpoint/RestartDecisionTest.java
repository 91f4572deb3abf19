package dev.freshet.executor.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests {@link RestartDecision}: each case of Spark's {@code populateStartOffsets} (§7.2). */
class RestartDecisionTest {
  private static final Map<String, String> SESSION =
      Map.of(OffsetSeq.STATE_PARTITIONS, "8", OffsetSeq.STATE_STORE_PROVIDER, "memory");
  private static final Map<String, String> PINNED = Map.of(OffsetSeq.STATE_PARTITIONS, "4");
  private static final Map<String, String> RESTORED =
      Map.of(OffsetSeq.STATE_PARTITIONS, "4", OffsetSeq.STATE_STORE_PROVIDER, "memory");

  @TempDir Path dir;
  private Checkpoint checkpoint;

  @BeforeEach void open() {
    checkpoint = Checkpoint.open(dir);
  }

  @Test void shouldStartAtBatchZeroWhenTheCheckpointIsNew() {
    RestartDecision next = RestartDecision.decide(checkpoint, 2, SESSION);

    assertEquals(new RestartDecision(0, false, at(0, 0), Optional.empty(), 0, 0,
        OptionalLong.empty(), SESSION), next);
    assertTrue(next.isFreshStart());
    assertEquals(0, next.stateVersion());
  }

  @Test void shouldRunTheNextBatchFromWhereTheLastEndedWhenItWasCommitted() {
    offsets(0, 0, 1_000, 5L, 2L);
    commit(0, 4_000);
    offsets(1, 4_000, 2_000, 9L, 2L);
    commit(1, 7_000);

    RestartDecision next = RestartDecision.decide(checkpoint, 2, SESSION);

    // Batch 2 evicts at the watermark batch 1's data produced and drops rows late for batch 1's.
    assertEquals(new RestartDecision(2, false, at(9, 2), Optional.empty(), 7_000, 4_000,
        OptionalLong.empty(), RESTORED), next);
    assertEquals(2, next.stateVersion());
    assertFalse(next.isFreshStart());
  }

  @Test void shouldKeepTheRecordedWatermarkWhenTheCommitHasALowerOne() {
    offsets(0, 9_000, 1_000, 5L);
    commit(0, 6_000);

    RestartDecision next = RestartDecision.decide(checkpoint, 1, SESSION);

    assertEquals(1, next.batchId());
    assertEquals(9_000, next.watermarkMs());
    assertEquals(9_000, next.previousBatchWatermarkMs());
  }

  @Test void shouldRerunTheLastBatchExactlyWhenItWasNotCommitted() {
    offsets(0, 0, 1_000, 5L, 2L);
    commit(0, 4_000);
    offsets(1, 4_000, 2_000, 9L, 2L);
    commit(1, 7_000);
    offsets(2, 7_000, 3_000, 12L, 6L);

    RestartDecision next = RestartDecision.decide(checkpoint, 2, SESSION);

    assertEquals(new RestartDecision(2, true, at(9, 2), Optional.of(at(12, 6)),
        7_000, 4_000, OptionalLong.of(3_000), RESTORED), next);
    assertEquals(2, next.stateVersion());
  }

  @Test void shouldRerunBatchZeroFromOffsetZeroWhenItWasNotCommitted() {
    checkpoint.offsetLog().add(0,
        new OffsetSeq(0, 1_000, PINNED, Arrays.asList(null, SourceOffset.of(3))));

    RestartDecision next = RestartDecision.decide(checkpoint, 2, SESSION);

    // A source without an offset ("-") reads from and to offset 0: nothing.
    assertEquals(new RestartDecision(0, true, at(0, 0), Optional.of(at(0, 3)), 0,
        0, OptionalLong.of(1_000), RESTORED), next);
    assertFalse(next.isFreshStart());
  }

  @Test void shouldRerunTheLastBatchWhenCommitsLagBehindByMoreThanOne() {
    offsets(0, 0, 1_000, 1L);
    commit(0, 100);
    offsets(1, 100, 2_000, 2L);
    offsets(2, 200, 3_000, 3L);

    RestartDecision next = RestartDecision.decide(checkpoint, 1, SESSION);

    assertEquals(new RestartDecision(2, true, at(2), Optional.of(at(3)), 200, 100,
        OptionalLong.of(3_000), RESTORED), next);
  }

  @Test void shouldNameTheFileWhenThePreviousOffsetsAreMissing() {
    offsets(3, 0, 1_000, 5L);
    Path missing = checkpoint.offsetLog().batchFile(2);
    String message = "Checkpoint file " + missing + " does not exist, but batch 3 (the latest in "
        + checkpoint.offsetLog().directory() + ") starts where batch 2 ended";

    CheckpointException rerun = assertThrows(CheckpointException.class,
        () -> RestartDecision.decide(checkpoint, 1, SESSION));
    assertEquals(CheckpointException.Reason.MISSING, rerun.reason());
    assertEquals(missing, rerun.file());
    assertEquals(message, rerun.getMessage());

    commit(3, 0);
    CheckpointException resume = assertThrows(CheckpointException.class,
        () -> RestartDecision.decide(checkpoint, 1, SESSION));
    assertEquals(message, resume.getMessage());
  }

  @Test void shouldRefuseWhenTheNumberOfSourcesChanged() {
    offsets(0, 0, 1_000, 5L, 6L);
    Path file = checkpoint.offsetLog().batchFile(0);

    CheckpointException e = assertThrows(CheckpointException.class,
        () -> RestartDecision.decide(checkpoint, 1, SESSION));

    assertEquals(CheckpointException.Reason.INCONSISTENT, e.reason());
    assertEquals("Checkpoint file " + file + " is inconsistent: it records offsets of 2 sources,"
        + " but the query has 1; a query's sources cannot change while it keeps its checkpoint",
        e.getMessage());
  }

  @Test void shouldRefuseWhenABatchIsCommittedThatHasNoOffsets() {
    commit(0, 0);
    Path commit0 = checkpoint.commitLog().batchFile(0);

    CheckpointException noOffsets = assertThrows(CheckpointException.class,
        () -> RestartDecision.decide(checkpoint, 1, SESSION));
    assertEquals(CheckpointException.Reason.INCONSISTENT, noOffsets.reason());
    assertEquals("Checkpoint file " + commit0 + " is inconsistent: batch 0 is committed, but the"
        + " latest entry in " + checkpoint.offsetLog().directory() + " is none",
        noOffsets.getMessage());

    offsets(0, 0, 1_000, 1L);
    commit(1, 0);
    CheckpointException ahead = assertThrows(CheckpointException.class,
        () -> RestartDecision.decide(checkpoint, 1, SESSION));
    assertEquals(checkpoint.commitLog().batchFile(1), ahead.file());
  }

  @Test void shouldNameTheFileWhenTheLatestOffsetsAreCorrupt() throws Exception {
    offsets(0, 0, 1_000, 1L);
    Path file = checkpoint.offsetLog().batchFile(1);
    Files.writeString(file, "v1\n{\"batchWatermarkMs\":0,");

    CheckpointException e = assertThrows(CheckpointException.class,
        () -> RestartDecision.decide(checkpoint, 1, SESSION));

    assertEquals(CheckpointException.Reason.CORRUPT, e.reason());
    assertEquals(file, e.file());
  }

  @Test void shouldRejectAnInconsistentDecisionWhenConstructed() {
    assertThrows(IllegalArgumentException.class, () -> new RestartDecision(1, true, at(0),
        Optional.empty(), 0, 0, OptionalLong.of(1), Map.of()));
    assertThrows(IllegalArgumentException.class, () -> new RestartDecision(1, false, at(0),
        Optional.of(at(1)), 0, 0, OptionalLong.empty(), Map.of()));
    assertThrows(IllegalArgumentException.class, () -> new RestartDecision(1, true, at(0),
        Optional.of(at(1, 2)), 0, 0, OptionalLong.of(1), Map.of()));
  }

  private void offsets(long batchId, long watermarkMs, long timestampMs, Long... ends) {
    assertTrue(checkpoint.offsetLog().add(batchId,
        new OffsetSeq(watermarkMs, timestampMs, PINNED,
            Arrays.stream(ends).map(e -> e == null ? null : SourceOffset.of(e)).toList())));
  }

  private void commit(long batchId, long nextWatermarkMs) {
    assertTrue(checkpoint.commitLog().add(batchId, new CommitMetadata(nextWatermarkMs)));
  }

  private static List<SourceOffset> at(long... offsets) {
    return java.util.Arrays.stream(offsets).mapToObj(SourceOffset::of).toList();
  }
}
