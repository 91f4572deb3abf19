package dev.freshet.executor.checkpoint;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every checkpoint file ends with the CRC32C of its content: a byte flipped so that the JSON stays
 * valid is a corrupt file naming itself, never another value; a file written before checksums
 * reads as it did.
 */
class FileChecksumTest {
  private static final Path FILE = Path.of("/ckpt/commits/7");

  @TempDir Path dir;

  @Test void shouldWriteTheContentThenItsCrc32cLine() {
    // CRC32C("123456789") is e3069283, the check value of the Castagnoli polynomial.
    assertEquals("123456789\ncrc32c e3069283\n",
        new String(FileChecksum.seal("123456789".getBytes(UTF_8)), UTF_8));
    assertArrayEquals("123456789".getBytes(UTF_8),
        FileChecksum.open("123456789\ncrc32c e3069283\n".getBytes(UTF_8), FILE));
  }

  @Test void shouldGiveTheContentBackExactlyWhenItEndsWithANewlineOrIsEmpty() {
    for (String content : List.of("", "\n", "v1\n{\"a\":1}\n", "crc32c 00000000")) {
      byte[] bytes = content.getBytes(UTF_8);
      assertArrayEquals(bytes, FileChecksum.open(FileChecksum.seal(bytes), FILE), content);
    }
  }

  @Test void shouldFailNamingTheFileWhenADigitOfTheContentChanged() {
    byte[] sealed = FileChecksum.seal("v1\n{\"nextBatchWatermarkMs\":15000}".getBytes(UTF_8));
    sealed[new String(sealed, UTF_8).indexOf("15000")] = '2';   // still valid JSON

    CheckpointException e = assertThrows(CheckpointException.class,
        () -> FileChecksum.open(sealed, FILE));

    assertEquals(CheckpointException.Reason.CORRUPT, e.reason());
    assertEquals(FILE, e.file());
    assertTrue(e.getMessage().startsWith("Checkpoint file " + FILE + " is corrupt or truncated:"
        + " its content does not match its CRC32C checksum"), e.getMessage());
  }

  @Test void shouldFailWhenTheChecksumItselfChanged() {
    byte[] sealed = FileChecksum.seal("{\"id\":\"x\"}".getBytes(UTF_8));
    sealed[sealed.length - 2] = (byte) (sealed[sealed.length - 2] == '0' ? '1' : '0');

    assertEquals(CheckpointException.Reason.CORRUPT,
        assertThrows(CheckpointException.class, () -> FileChecksum.open(sealed, FILE)).reason());
  }

  @Test void shouldReadAFileWithoutChecksumAsItIs() {
    byte[] legacy = "v1\n{\"nextBatchWatermarkMs\":15000}".getBytes(UTF_8);

    assertArrayEquals(legacy, FileChecksum.open(legacy, FILE));
  }

  @Test void shouldReadEveryLogEntryWrittenBeforeChecksums() throws Exception {
    Checkpoint checkpoint = Checkpoint.open(dir);
    String queryId = checkpoint.queryId();
    Files.writeString(dir.resolve("metadata"), "{\"id\":\"" + queryId + "\"}");
    Files.writeString(dir.resolve("offsets").resolve("0"), "v1\n{\"batchWatermarkMs\":0,"
        + "\"batchTimestampMs\":1,\"conf\":{}}\n42");
    Files.writeString(dir.resolve("commits").resolve("0"), "v1\n{\"nextBatchWatermarkMs\":7}");
    Files.writeString(dir.resolve("plan"), "{\"version\":1}");

    Checkpoint reopened = Checkpoint.open(dir);

    assertEquals(queryId, reopened.queryId());
    assertEquals(Optional.of(new OffsetSeq(0, 1, Map.of(), List.of(SourceOffset.of(42)))),
        reopened.offsetLog().get(0));
    assertEquals(Optional.of(new CommitMetadata(7)), reopened.commitLog().get(0));
    assertEquals("{\"version\":1}", new String(reopened.readPlan().orElseThrow(), UTF_8));
  }
}
