package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A stream log that lost or damaged an acknowledged record while the engine was down fails the
 * stream, its INSERTs and its views with the file and the offsets: nothing truncated, no offset
 * handed out twice. A torn write that was never acknowledged is still cut off silently.
 */
class StreamLogDamageTest extends DataDirDamage {
  @Test void shouldFailTheStreamWhenAnAcknowledgedRecordWasCutAtItsStart() throws Exception {
    threeInserts();
    List<Integer> starts = recordStarts();
    byte[] cut = Arrays.copyOf(Files.readAllBytes(log()), starts.get(2));
    Files.write(log(), cut);

    SQLException e = insertFails();
    assertEquals("XX001", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Stream CLICKS could not be declared again when the"
        + " engine started: Stream log " + log() + " ends after offset 2 (byte " + starts.get(2)
        + "), but offsets up to 3 (byte " + starts.get(3) + ") were acknowledged"),
        e.getMessage());
    assertArrayEquals(cut, Files.readAllBytes(log()), "nothing truncated, offset 3 not reused");
    try (Connection c = connect(); Statement s = c.createStatement()) {
      SQLException select = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT * FROM per_user"));
      assertEquals("XX001", select.getSQLState());
      assertTrue(select.getMessage().contains("ends after offset 2"), select.getMessage());
      // Declaring the stream again tries again, and says why it cannot.
      SQLException create = assertThrows(SQLException.class, () -> s.execute(STREAM));
      assertEquals("XX001", create.getSQLState());
    }
  }

  @Test void shouldFailTheStreamWhenTheLastAcknowledgedRecordHasAFlippedBit() throws Exception {
    threeInserts();
    byte[] flipped = Files.readAllBytes(log());
    flipped[flipped.length - 1] ^= 0x01;
    Files.write(log(), flipped);

    SQLException e = insertFails();
    assertEquals("XX001", e.getSQLState());
    assertTrue(e.getMessage().contains("Stream log " + log() + " is corrupt at offset 3 (byte "
        + recordStarts().get(2) + "): the checksum of the record does not match"),
        e.getMessage());
    assertArrayEquals(flipped, Files.readAllBytes(log()));
  }

  @Test void shouldCutATornUnacknowledgedTailSilentlyAndLoseNoRow() throws Exception {
    threeInserts();
    // What a crash in the middle of a fourth INSERT leaves: a record header and half a payload.
    byte[] log = Files.readAllBytes(log());
    byte[] torn = Arrays.copyOf(log, log.length + 20);
    ByteBuffer.wrap(torn, log.length, 8).putInt(40).putInt(~40);
    Files.write(log(), torn);

    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO clicks VALUES ('a')");
      awaitCount(s, 4);
      assertEquals(List.of(List.of(4L)), rows(s, "SELECT COUNT(*) FROM clicks"));
    }
  }
}
