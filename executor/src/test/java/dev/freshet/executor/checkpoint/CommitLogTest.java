package dev.freshet.executor.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests {@link CommitLog}: Spark's {@code commits/N} layout, byte for byte, and its errors. */
class CommitLogTest {
  @TempDir Path dir;

  private CommitLog log() {
    return new CommitLog(dir.resolve("commits"));
  }

  @Test void shouldWriteSparksLayoutWhenAdding() throws IOException {
    CommitLog log = log();

    log.add(0, new CommitMetadata(15_000));

    assertEquals(sealed("v1\n{\"nextBatchWatermarkMs\":15000}"),
        Files.readString(log.batchFile(0)));
    assertEquals(Optional.of(new CommitMetadata(15_000)), log.get(0));
  }

  @Test void shouldNameTheFileWhenTheEntryIsTruncatedOrHasExtraLines() throws IOException {
    CommitLog log = log();
    String prefix = "Checkpoint file " + log.batchFile(1) + " is corrupt or truncated: ";

    assertCorrupt(log, "v1", prefix + "line 2 (the commit metadata) is missing");
    assertCorrupt(log, "v1\n{\"nextBatchWatermarkMs\":15",
        prefix + "line 2 (the commit metadata) is not valid JSON");
    assertCorrupt(log, "v1\n{}", prefix + "line 2 (the commit metadata) has no"
        + " \"nextBatchWatermarkMs\"");
    assertCorrupt(log, "v1\n{\"nextBatchWatermarkMs\":\"15\"}", prefix + "line 2 (the commit"
        + " metadata) has \"nextBatchWatermarkMs\" that is not a whole number of type long");
    assertCorrupt(log, "v1\n{\"nextBatchWatermarkMs\":15}\n{}",
        prefix + "it has 3 lines; a commit has 2");
  }

  private static void assertCorrupt(CommitLog log, String content, String message)
      throws IOException {
    Files.writeString(log.batchFile(1), content);

    CheckpointException e = assertThrows(CheckpointException.class, () -> log.get(1), content);

    assertEquals(CheckpointException.Reason.CORRUPT, e.reason(), content);
    assertEquals(message, e.getMessage(), content);
  }

  /** {@code content} as a checkpoint file holds it: with its CRC32C line after it. */
  private static String sealed(String content) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(content.getBytes(StandardCharsets.UTF_8));
    return content + "\ncrc32c " + String.format("%08x", crc.getValue()) + "\n";
  }
}
