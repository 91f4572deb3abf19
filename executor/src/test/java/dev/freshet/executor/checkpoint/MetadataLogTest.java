package dev.freshet.executor.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests the behaviour every {@link MetadataLog} shares (Spark's {@code HDFSMetadataLog}), through
 * the simplest kind, {@link CommitLog}: one file per batch, never overwritten, version line
 * checked, crash leftovers skipped.
 */
class MetadataLogTest {
  @TempDir Path dir;

  private CommitLog log() {
    return new CommitLog(dir.resolve("commits"));
  }

  @Test void shouldReadBackEntriesAndListThemInOrderWhenAdded() {
    CommitLog log = log();
    assertEquals(OptionalLong.empty(), log.latestBatchId());
    assertEquals(List.of(), log.batchIds());
    assertEquals(Optional.empty(), log.get(0));

    // Out of order, and past 9, so that a string sort would get it wrong.
    assertTrue(log.add(10, new CommitMetadata(1000)));
    assertTrue(log.add(2, new CommitMetadata(200)));
    assertTrue(log.add(9, new CommitMetadata(900)));

    assertEquals(Optional.of(new CommitMetadata(200)), log.get(2));
    assertEquals(Optional.of(new CommitMetadata(1000)), log.get(10));
    assertEquals(Optional.empty(), log.get(3));
    assertEquals(OptionalLong.of(10), log.latestBatchId());
    assertEquals(List.of(2L, 9L, 10L), log.batchIds());
    assertEquals(dir.resolve("commits").resolve("9"), log.batchFile(9));
  }

  @Test void shouldSeeEntriesWrittenBeforeWhenReopened() {
    log().add(0, new CommitMetadata(5));

    CommitLog reopened = log();

    assertEquals(Optional.of(new CommitMetadata(5)), reopened.get(0));
    assertEquals(OptionalLong.of(0), reopened.latestBatchId());
  }

  @Test void shouldRefuseAndKeepTheEntryWhenTheBatchIdExists() throws IOException {
    CommitLog log = log();
    assertTrue(log.add(4, new CommitMetadata(1)));
    byte[] before = Files.readAllBytes(log.batchFile(4));

    assertFalse(log.add(4, new CommitMetadata(2)));

    assertEquals(Optional.of(new CommitMetadata(1)), log.get(4));
    assertEquals(new String(before, StandardCharsets.UTF_8),
        Files.readString(log.batchFile(4)));
    assertEquals(List.of("4"), fileNames(log.directory()));
  }

  @Test void shouldDeleteOnlyOlderEntriesWhenPurged() {
    CommitLog log = log();
    for (long id = 0; id < 6; id++) {
      log.add(id, new CommitMetadata(id));
    }

    log.purgeBefore(4);

    assertEquals(List.of(4L, 5L), log.batchIds());
    assertEquals(Optional.empty(), log.get(3));
    assertEquals(Optional.of(new CommitMetadata(4)), log.get(4));
    log.purgeBefore(0);
    assertEquals(List.of(4L, 5L), log.batchIds());
  }

  @Test void shouldSkipAndDeleteTempFilesWhenACrashLeftThem() throws IOException {
    CommitLog log = log();
    log.add(1, new CommitMetadata(1));
    // What a crash between writing the temp file and publishing batch 2 leaves behind.
    Path temp = log.directory().resolve(".2.0b8f5d9e-1c2a-4a57-9a0e-5b6c7d8e9f00.tmp");
    Files.writeString(temp, "v1\n{\"nextBatchWatermarkMs\":");

    assertEquals(OptionalLong.of(1), log.latestBatchId());
    assertEquals(List.of(1L), log.batchIds());
    assertEquals(Optional.empty(), log.get(2));

    CommitLog reopened = log();

    assertFalse(Files.exists(temp));
    assertEquals(List.of(1L), reopened.batchIds());
    assertTrue(reopened.add(2, new CommitMetadata(2)));
  }

  @Test void shouldIgnoreFilesWhenTheirNamesAreNotBatchIds() throws IOException {
    CommitLog log = log();
    log.add(3, new CommitMetadata(3));
    for (String name : List.of("007", "-1", "+4", "5.crc", "x", "99999999999999999999",
        ".DS_Store")) {
      Files.writeString(log.directory().resolve(name), "not an entry");
    }

    assertEquals(List.of(3L), log.batchIds());
    assertEquals(OptionalLong.of(3), log.latestBatchId());
    // Only temp files of this log are cleaned, never files someone else put there.
    assertTrue(Files.exists(log().directory().resolve(".DS_Store")));
  }

  @Test void shouldLeaveNoTempFileWhenAdding() throws IOException {
    CommitLog log = log();
    log.add(0, new CommitMetadata(0));
    log.add(0, new CommitMetadata(1));

    assertEquals(List.of("0"), fileNames(log.directory()));
  }

  @Test void shouldRejectTheFileByNameWhenItsVersionIsNewer() throws IOException {
    CommitLog log = log();
    Path file = log.batchFile(0);
    Files.writeString(file, "v2\n{\"nextBatchWatermarkMs\":0}");

    CheckpointException e = assertThrows(CheckpointException.class, () -> log.get(0));

    assertEquals(CheckpointException.Reason.UNSUPPORTED_VERSION, e.reason());
    assertEquals(file, e.file());
    assertEquals("Checkpoint file " + file + " was written by a newer Freshet: its log version"
        + " is v2, but this Freshet reads up to v1; upgrade Freshet to run this query",
        e.getMessage());
  }

  @Test void shouldCallItCorruptWhenTheVersionLineIsMalformed() throws IOException {
    CommitLog log = log();
    Path file = log.batchFile(0);
    for (String first : List.of("v0", "v", "V1", "1", "v1.0", " v1",
        "{\"nextBatchWatermarkMs\":0}")) {
      Files.writeString(file, first + "\n{\"nextBatchWatermarkMs\":0}");

      CheckpointException e = assertThrows(CheckpointException.class, () -> log.get(0), first);

      assertEquals(CheckpointException.Reason.CORRUPT, e.reason(), first);
      assertEquals("Checkpoint file " + file + " is corrupt or truncated: line 1 is not a log"
          + " version such as v1: '" + first + "'", e.getMessage());
    }
  }

  @Test void shouldCallItCorruptWhenTheFileIsEmpty() throws IOException {
    CommitLog log = log();
    Path file = log.batchFile(5);
    Files.writeString(file, "");

    CheckpointException e = assertThrows(CheckpointException.class, () -> log.get(5));

    assertEquals(CheckpointException.Reason.CORRUPT, e.reason());
    assertEquals("Checkpoint file " + file + " is corrupt or truncated: it is empty",
        e.getMessage());
    // A corrupt latest entry is still listed: the decision to skip it is not the log's.
    assertEquals(OptionalLong.of(5), log.latestBatchId());
  }

  @Test void shouldCallItCorruptWhenTheFileIsNotUtf8() throws IOException {
    CommitLog log = log();
    Path file = log.batchFile(0);
    Files.write(file, new byte[] {'v', '1', '\n', (byte) 0xff, (byte) 0xfe});

    CheckpointException e = assertThrows(CheckpointException.class, () -> log.get(0));

    assertEquals("Checkpoint file " + file + " is corrupt or truncated: it is not UTF-8 text",
        e.getMessage());
  }

  @Test void shouldShortenTheQuotedLineWhenItIsLong() throws IOException {
    CommitLog log = log();
    Path file = log.batchFile(0);
    Files.writeString(file, "x".repeat(100));

    CheckpointException e = assertThrows(CheckpointException.class, () -> log.get(0));

    assertEquals("Checkpoint file " + file + " is corrupt or truncated: line 1 is not a log"
        + " version such as v1: '" + "x".repeat(40) + "...' (100 characters)", e.getMessage());
  }

  @Test void shouldRejectNegativeBatchIds() {
    CommitLog log = log();

    assertThrows(IllegalArgumentException.class, () -> log.add(-1, new CommitMetadata(0)));
    assertThrows(IllegalArgumentException.class, () -> log.get(-1));
  }

  private static List<String> fileNames(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }
}
