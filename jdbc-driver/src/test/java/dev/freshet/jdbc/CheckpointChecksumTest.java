package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A byte of a view's checkpoint file changed on disk so that the file is still valid JSON (one
 * digit for another) is found by the file's CRC32C when the engine opens the data directory
 * again: the view fails with XX001 naming the file, for each kind of checkpoint file, never a
 * view that runs on from a silently different offset, watermark, id or plan.
 */
class CheckpointChecksumTest extends DataDirDamage {
  @Test void shouldFailTheViewWhenADigitOfItsMetadataFileChanged() throws Exception {
    threeInserts();
    assertCorruptAfterFlip(checkpoint().resolve("metadata"));
  }

  @Test void shouldFailTheViewWhenADigitOfItsLatestOffsetsFileChanged() throws Exception {
    threeInserts();
    assertCorruptAfterFlip(latest(checkpoint().resolve("offsets")));
  }

  @Test void shouldFailTheViewWhenADigitOfItsLatestCommitsFileChanged() throws Exception {
    threeInserts();
    assertCorruptAfterFlip(latest(checkpoint().resolve("commits")));
  }

  @Test void shouldFailTheViewWhenADigitOfItsStoredPlanChanged() throws Exception {
    threeInserts();
    assertCorruptAfterFlip(checkpoint().resolve("plan"));
  }

  @Test void shouldFailTheViewWhenADigitOfItsSourcesInitialOffsetChanged() throws Exception {
    fileStreamWithOneFile();
    assertCorruptAfterFlip(checkpoint().resolve("sources").resolve("0").resolve("0"));
  }

  @Test void shouldFailTheViewWhenADigitOfItsFileSourceLogChanged() throws Exception {
    fileStreamWithOneFile();
    assertCorruptAfterFlip(checkpoint().resolve("sources").resolve("0").resolve("1"));
  }

  /** A view over a filesystem stream that has read one file (of three rows); engine closed. */
  private void fileStreamWithOneFile() throws Exception {
    Path input = Files.createDirectories(dataDir.resolveSibling(dataDir.getFileName() + "-in"));
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (user_id VARCHAR) WITH (connector = 'filesystem',"
          + " 'path' = '" + input + "', 'format' = 'csv')");
      s.execute(VIEW);
      Path staged = Files.writeString(input.resolveSibling("part-0.csv"), "a\na\na\n");
      Files.move(staged, input.resolve("part-0.csv"));
      awaitCount(s, 3);
    }
    engine().close();
  }

  /** The file of the highest batch id in a log directory. */
  private static Path latest(Path log) throws Exception {
    try (var files = Files.list(log)) {
      long id = files.map(f -> f.getFileName().toString()).filter(n -> n.matches("[0-9]+"))
          .mapToLong(Long::parseLong).max().orElseThrow();
      return log.resolve(Long.toString(id));
    }
  }

  /**
   * Changes the first digit inside the JSON of {@code file} to another digit, reopens the engine
   * and waits for the view to fail: with XX001 and a message naming the file and its checksum.
   */
  private void assertCorruptAfterFlip(Path file) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    String text = new String(bytes, StandardCharsets.UTF_8);
    assertTrue(text.contains("\ncrc32c "), "no checksum line in " + file + ": " + text);
    int at = text.indexOf('{');
    while (!Character.isDigit(text.charAt(at))) {
      at++;
    }
    assertTrue(at < text.indexOf("\ncrc32c "), "no digit in the content of " + file);
    bytes[at] = (byte) (bytes[at] == '9' ? '0' : bytes[at] + 1);
    Files.write(file, bytes);

    String expected = "Checkpoint file " + file + " is corrupt or truncated: its content does"
        + " not match its CRC32C checksum";
    try (Connection c = connect(); Statement s = c.createStatement()) {
      // A damaged id or plan stops the view's declaration; offsets and commits, its query's
      // start on its own thread: wait for either.
      long deadline = System.nanoTime() + 30_000_000_000L;
      SQLException failure = null;
      while (failure == null) {
        try {
          rows(s, "SELECT * FROM per_user");
          assertTrue(System.nanoTime() < deadline, "the view did not fail: " + file);
          ViewResults.betweenPolls();
        } catch (SQLException e) {
          failure = e;
        }
      }
      assertEquals("XX001", failure.getSQLState(), failure.getMessage());
      assertTrue(failure.getMessage().contains(expected), failure.getMessage());
      List<List<Object>> queries = rows(s, "SELECT status, last_error FROM sys.queries");
      for (List<Object> query : queries) {
        assertEquals("FAILED", query.get(0), queries.toString());
        assertTrue(String.valueOf(query.get(1)).contains(expected), queries.toString());
      }
    }
  }
}
