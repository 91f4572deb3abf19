package dev.freshet.executor.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests {@link CheckpointMetadata}: the query id is made once and then read back. */
class CheckpointMetadataTest {
  @TempDir Path dir;

  @Test void shouldReturnTheSameIdWhenLoadedAgain() throws IOException {
    Path root = dir.resolve("q1");

    String id = CheckpointMetadata.loadOrCreateQueryId(root);

    assertEquals(id, UUID.fromString(id).toString());
    assertEquals(sealed("{\"id\":\"" + id + "\"}"), Files.readString(root.resolve("metadata")));
    assertEquals(id, CheckpointMetadata.loadOrCreateQueryId(root));
    assertEquals(id, CheckpointMetadata.loadOrCreateQueryId(root));
    assertNotEquals(id, CheckpointMetadata.loadOrCreateQueryId(dir.resolve("q2")));
  }

  @Test void shouldReadTheIdWhenTheFileHasOtherFields() throws IOException {
    Files.writeString(dir.resolve("metadata"), "{\"id\":\"abc\",\"addedLater\":1}\n");

    assertEquals("abc", CheckpointMetadata.loadOrCreateQueryId(dir));
  }

  @Test void shouldDeleteTheTempFileWhenACrashLeftOne() throws IOException {
    Path temp = dir.resolve(".metadata.5e1f2a3b-0000-4000-8000-000000000000.tmp");
    Files.writeString(temp, "{\"id\":");

    String id = CheckpointMetadata.loadOrCreateQueryId(dir);

    assertFalse(Files.exists(temp));
    assertEquals(id, CheckpointMetadata.loadOrCreateQueryId(dir));
  }

  @Test void shouldNameTheFileWhenItIsCorrupt() throws IOException {
    Path file = dir.resolve("metadata");
    String prefix = "Checkpoint file " + file + " is corrupt or truncated: the query metadata ";

    assertCorrupt("", prefix + "is empty");
    assertCorrupt("{\"id\":\"4b1", prefix + "is not valid JSON");
    assertCorrupt("{}", prefix + "has no \"id\"");
    assertCorrupt("{\"id\":7}", prefix + "has \"id\" that is not a string");
    assertCorrupt("{\"id\":\"\"}", prefix + "has an empty \"id\"");
  }

  private void assertCorrupt(String content, String message) throws IOException {
    Files.writeString(dir.resolve("metadata"), content);

    CheckpointException e = assertThrows(CheckpointException.class,
        () -> CheckpointMetadata.loadOrCreateQueryId(dir), content);

    assertEquals(CheckpointException.Reason.CORRUPT, e.reason(), content);
    assertEquals(message, e.getMessage(), content);
    // A corrupt id is never replaced by a new one: state and sinks are keyed by it.
    assertEquals(content, Files.readString(dir.resolve("metadata")));
  }

  /** {@code content} as a checkpoint file holds it: with its CRC32C line after it. */
  private static String sealed(String content) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(content.getBytes(StandardCharsets.UTF_8));
    return content + "\ncrc32c " + String.format("%08x", crc.getValue()) + "\n";
  }
}
