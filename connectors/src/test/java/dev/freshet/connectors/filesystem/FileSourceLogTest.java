package dev.freshet.connectors.filesystem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.checkpoint.CheckpointException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests {@link FileSourceLog}: Spark's {@code sources/0/N} entries, durable and reopened. */
class FileSourceLogTest {
  @TempDir Path dir;

  private static final LoggedFile A = new LoggedFile("/data/in/a.csv", 1_000);
  private static final LoggedFile B = new LoggedFile("/data/in/b \"quoted\".csv", 2_000);
  private static final LoggedFile C = new LoggedFile("/data/in/c.csv", 3_000);

  @Test void shouldWriteOneFilePerEntryWhenAdding() throws IOException {
    FileSourceLog log = FileSourceLog.open(dir);
    log.add(1, List.of(A, B));
    log.add(2, List.of(C));

    assertEquals(sealed("v1\n{\"path\":\"/data/in/a.csv\",\"timestamp\":1000}\n"
        + "{\"path\":\"/data/in/b \\\"quoted\\\".csv\",\"timestamp\":2000}\n"),
        Files.readString(dir.resolve("1")));
    assertEquals(sealed("v1\n{\"path\":\"/data/in/c.csv\",\"timestamp\":3000}\n"),
        Files.readString(dir.resolve("2")));
    assertEquals(2, log.latest());
    assertEquals(List.of(A, B), log.get(1));
    assertTrue(log.contains(B.path()));
  }

  @Test void shouldHaveEveryEntryWhenReopened() {
    FileSourceLog first = FileSourceLog.open(dir);
    first.add(1, List.of(A));
    first.add(2, List.of(B, C));

    FileSourceLog reopened = FileSourceLog.open(dir);

    assertEquals(2, reopened.latest());
    assertEquals(List.of(A), reopened.get(1));
    assertEquals(List.of(B, C), reopened.get(2));
    assertTrue(reopened.contains(C.path()));
    assertFalse(reopened.contains("/data/in/d.csv"));
  }

  @Test void shouldSkipTheInitialOffsetAndTempFilesWhenOpening() throws IOException {
    // sources/0/0 is the initial offset MicroBatchExecution records; a crash left a temp file.
    Files.writeString(dir.resolve("0"), "{\"logOffset\":0}");
    Files.writeString(dir.resolve(".1.123abc.tmp"), "v1\n{\"path\":\"/x\",\"timestamp\":1}\n");

    FileSourceLog log = FileSourceLog.open(dir);

    assertEquals(0, log.latest());
    assertFalse(Files.exists(dir.resolve(".1.123abc.tmp")));
    log.add(1, List.of(A));
    assertEquals("{\"logOffset\":0}", Files.readString(dir.resolve("0")));
  }

  @Test void shouldRefuseAFileListedAlreadyOrAnEntryOutOfOrder() {
    FileSourceLog log = FileSourceLog.open(dir);
    log.add(1, List.of(A));

    assertThrows(IllegalArgumentException.class, () -> log.add(2, List.of(A)));
    assertThrows(IllegalArgumentException.class, () -> log.add(3, List.of(B)));
    assertThrows(IllegalArgumentException.class, () -> log.add(2, List.of()));
    assertFalse(Files.exists(dir.resolve("2")));
  }

  @Test void shouldRefuseAnEntryAnotherWriterAdded() throws IOException {
    FileSourceLog log = FileSourceLog.open(dir);
    Files.writeString(dir.resolve("1"), "v1\n{\"path\":\"/other\",\"timestamp\":1}\n");

    assertThrows(CheckpointException.class, () -> log.add(1, List.of(A)));
  }

  @Test void shouldRefuseAnUnknownVersionOrAGapWhenOpening() throws IOException {
    Files.writeString(dir.resolve("1"), "v9\n{\"path\":\"/x\",\"timestamp\":1}\n");
    CheckpointException version = assertThrows(CheckpointException.class,
        () -> FileSourceLog.open(dir));
    assertTrue(version.getMessage().contains("v9"), version.getMessage());

    Files.writeString(dir.resolve("1"), "v1\n{\"path\":\"/x\",\"timestamp\":1}\n");
    Files.writeString(dir.resolve("3"), "v1\n{\"path\":\"/y\",\"timestamp\":1}\n");
    CheckpointException gap = assertThrows(CheckpointException.class,
        () -> FileSourceLog.open(dir));
    assertTrue(gap.getMessage().contains("entry 3"), gap.getMessage());

    Files.delete(dir.resolve("3"));
    Files.write(dir.resolve("2"), "v1\nnot json\n".getBytes(StandardCharsets.UTF_8));
    assertThrows(CheckpointException.class, () -> FileSourceLog.open(dir));
  }

  @Test void shouldKeepEntriesInMemoryWithoutADirectory() {
    FileSourceLog log = FileSourceLog.inMemory();
    log.add(1, List.of(A, B));

    assertEquals(1, log.latest());
    assertTrue(log.contains(A.path()));
    assertTrue(log.directory().isEmpty());
  }

  /** {@code content} as a checkpoint file holds it: with its CRC32C line after it. */
  private static String sealed(String content) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(content.getBytes(StandardCharsets.UTF_8));
    return content + "\ncrc32c " + String.format("%08x", crc.getValue()) + "\n";
  }
}
