package dev.freshet.executor.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests {@link Checkpoint}: the directory layout of SEMANTICS.md §7.4 and log retention. */
class CheckpointTest {
  @TempDir Path dir;

  @Test void shouldLayOutTheDirectoryWhenOpened() {
    Path root = dir.resolve("q");

    Checkpoint checkpoint = Checkpoint.open(root);

    assertEquals(root, checkpoint.root());
    assertTrue(Files.isRegularFile(root.resolve("metadata")));
    assertEquals(root.resolve("offsets"), checkpoint.offsetLog().directory());
    assertEquals(root.resolve("commits"), checkpoint.commitLog().directory());
    assertTrue(Files.isDirectory(root.resolve("offsets")));
    assertTrue(Files.isDirectory(root.resolve("commits")));
    assertEquals(root.resolve("state").resolve("0").resolve("3"),
        checkpoint.stateDirectory(0, 3));
    assertThrows(IllegalArgumentException.class, () -> checkpoint.stateDirectory(-1, 0));
  }

  @Test void shouldKeepTheQueryIdAndTheLogsWhenReopened() {
    Checkpoint first = Checkpoint.open(dir);
    first.offsetLog().add(0, new OffsetSeq(0, 1, Map.of(), List.of(SourceOffset.of(1))));
    first.commitLog().add(0, new CommitMetadata(0));

    Checkpoint second = Checkpoint.open(dir);

    assertEquals(first.queryId(), second.queryId());
    assertEquals(List.of(0L), second.offsetLog().batchIds());
    assertEquals(List.of(0L), second.commitLog().batchIds());
  }

  @Test void shouldWriteThePlanOnceAndReplaceItOnlyBeforeTheFirstBatch() throws Exception {
    Checkpoint checkpoint = Checkpoint.open(dir);
    assertEquals(Optional.empty(), checkpoint.readPlan());

    assertTrue(checkpoint.createPlan(bytes("{\"version\":1}")));
    assertFalse(checkpoint.createPlan(bytes("{\"version\":2}")));
    assertEquals(sealed("{\"version\":1}"), Files.readString(dir.resolve("plan")));
    assertEquals("{\"version\":1}", new String(checkpoint.readPlan().orElseThrow(),
        StandardCharsets.UTF_8));

    checkpoint.deletePlanBeforeFirstBatch();
    assertEquals(Optional.empty(), checkpoint.readPlan());
    assertTrue(checkpoint.createPlan(bytes("{\"version\":1}")));
    checkpoint.offsetLog().add(0, new OffsetSeq(0, 1, Map.of(), List.of(SourceOffset.of(1))));
    assertThrows(IllegalStateException.class, checkpoint::deletePlanBeforeFirstBatch);
    assertEquals(sealed("{\"version\":1}"), Files.readString(dir.resolve("plan")));
  }

  @Test void shouldDeleteAPlanTempFileACrashLeftWhenOpened() throws Exception {
    Checkpoint.open(dir);
    Path temp = dir.resolve(".plan.0f7c.tmp");
    Files.writeString(temp, "{\"vers");

    Checkpoint.open(dir);

    assertFalse(Files.exists(temp));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test void shouldKeepTheLastKBatchesBeforeTheLatestWhenRetaining() {
    Checkpoint checkpoint = Checkpoint.open(dir);
    for (long n = 0; n <= 10; n++) {
      addBatch(checkpoint, n);
    }
    checkpoint.offsetLog().add(11, new OffsetSeq(0, 0, Map.of(), List.of(SourceOffset.of(11))));

    // As Spark after adding offsets/11 with minBatchesToRetain 3: purge(11 - 3).
    checkpoint.retain(3);

    assertEquals(List.of(8L, 9L, 10L, 11L), checkpoint.offsetLog().batchIds());
    assertEquals(List.of(8L, 9L, 10L), checkpoint.commitLog().batchIds());
  }

  @Test void shouldPurgeNothingWhenThereAreNoMoreBatchesThanK() {
    Checkpoint checkpoint = Checkpoint.open(dir);
    checkpoint.retain(Checkpoint.DEFAULT_MIN_BATCHES_TO_RETAIN);
    for (long n = 0; n <= 3; n++) {
      addBatch(checkpoint, n);
    }

    checkpoint.retain(3);
    assertEquals(List.of(0L, 1L, 2L, 3L), checkpoint.offsetLog().batchIds());
    checkpoint.retain(Checkpoint.DEFAULT_MIN_BATCHES_TO_RETAIN);
    assertEquals(List.of(0L, 1L, 2L, 3L), checkpoint.commitLog().batchIds());

    addBatch(checkpoint, 4);
    checkpoint.retain(3);
    assertEquals(List.of(1L, 2L, 3L, 4L), checkpoint.offsetLog().batchIds());
    assertThrows(IllegalArgumentException.class, () -> checkpoint.retain(0));
  }

  @Test void shouldKeepTheDefaultNumberOfBatchesWhenRetainingWithTheDefault() {
    Checkpoint checkpoint = Checkpoint.open(dir);
    for (long n = 0; n <= 150; n++) {
      addBatch(checkpoint, n);
    }

    checkpoint.retain(Checkpoint.DEFAULT_MIN_BATCHES_TO_RETAIN);

    assertEquals(LongStream.rangeClosed(50, 150).boxed().toList(),
        checkpoint.offsetLog().batchIds());
    assertEquals(LongStream.rangeClosed(50, 150).boxed().toList(),
        checkpoint.commitLog().batchIds());
  }

  private static void addBatch(Checkpoint checkpoint, long n) {
    assertTrue(checkpoint.offsetLog().add(n,
        new OffsetSeq(0, 0, Map.of(), List.of(SourceOffset.of(n)))));
    assertTrue(checkpoint.commitLog().add(n, new CommitMetadata(0)));
  }

  /** {@code content} as a checkpoint file holds it: with its CRC32C line after it. */
  private static String sealed(String content) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(content.getBytes(StandardCharsets.UTF_8));
    return content + "\ncrc32c " + String.format("%08x", crc.getValue()) + "\n";
  }
}
