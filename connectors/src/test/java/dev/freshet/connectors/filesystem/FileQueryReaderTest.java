package dev.freshet.connectors.filesystem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.connectors.format.FieldType;
import dev.freshet.connectors.format.RecordFormat;
import dev.freshet.connectors.format.SourceColumn;
import dev.freshet.executor.source.SourceRecordException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests {@link FileQueryReader}: files taken once each in Spark's order, entries durable before
 * their offset, a restarted reader takes only new files, lines and their errors.
 */
class FileQueryReaderTest {
  private static final List<SourceColumn> COLUMNS = List.of(
      new SourceColumn("ID", FieldType.BIGINT, false, Optional.empty()),
      new SourceColumn("ITEM", FieldType.VARCHAR, true, Optional.empty()));

  @TempDir Path input;
  @TempDir Path checkpoint;

  private FileSourceSpec spec(RecordFormat format, OptionalInt maxFiles, boolean ignore) {
    return new FileSourceSpec("ORDERS", input, format, COLUMNS, ignore, maxFiles,
        Duration.ofSeconds(1));
  }

  /** Writes {@code text} as {@code name}, moved in at once, with modification time {@code ms}. */
  private Path drop(String name, String text, long ms) throws IOException {
    Path temp = input.resolve("_" + name);
    Files.writeString(temp, text);
    Files.setLastModifiedTime(temp, FileTime.fromMillis(ms));
    return Files.move(temp, input.resolve(name), StandardCopyOption.ATOMIC_MOVE);
  }

  private static List<String> read(FileQueryReader reader, long start, long end) {
    List<String> rows = new ArrayList<>();
    reader.readRange(start, end, row -> rows.add(Arrays.toString(row)));
    return rows;
  }

  @Test void shouldTakeFilesByModificationTimeThenNameAndSkipHiddenOnes() throws IOException {
    drop("b.csv", "2,b\n", 5_000);
    drop("a.csv", "1,a\r\n\n3,c\n", 5_000);
    drop("z.csv", "0,z", 1_000);
    Files.writeString(input.resolve(".hidden.csv"), "9,x\n");
    Files.writeString(input.resolve("_temporary"), "9,x\n");
    Files.createDirectory(input.resolve("sub"));

    try (FileQueryReader reader = new FileQueryReader(spec(RecordFormat.CSV,
        OptionalInt.empty(), false))) {
      assertEquals(1, reader.latestOffset());
      assertEquals(List.of("[0, z]", "[1, a]", "[3, c]", "[2, b]"), read(reader, 0, 1));
      assertEquals("{\"logOffset\":1}", reader.offsetJson(1));
    }
  }

  /**
   * A link in the directory is read where it leads, as the process would read it; a server's
   * stream ({@code followLinks} false) skips it, since it could lead out of the allowed roots.
   */
  @Test void shouldReadALinkOnlyWhenFollowingLinks(@TempDir Path elsewhere) throws Exception {
    drop("a.csv", "1,a\n", 1_000);
    Path secret = Files.writeString(elsewhere.resolve("secret.csv"), "9,secret\n");
    Files.setLastModifiedTime(secret, FileTime.fromMillis(2_000));
    Files.createSymbolicLink(input.resolve("b.csv"), secret);

    try (FileQueryReader reader = new FileQueryReader(spec(RecordFormat.CSV,
        OptionalInt.empty(), false))) {
      assertEquals(1, reader.latestOffset());
      assertEquals(List.of("[1, a]", "[9, secret]"), read(reader, 0, 1));
    }
    FileSourceSpec server = new FileSourceSpec("ORDERS", input, RecordFormat.CSV, COLUMNS,
        false, OptionalInt.empty(), Duration.ofSeconds(1), false);
    try (FileQueryReader reader = new FileQueryReader(server)) {
      assertEquals(1, reader.latestOffset());
      assertEquals(List.of("[1, a]"), read(reader, 0, 1));
    }
  }

  @Test void shouldFindNewFilesAndWakeTheQuery() throws Exception {
    try (FileQueryReader reader = new FileQueryReader(spec(RecordFormat.JSON,
        OptionalInt.empty(), false))) {
      CountDownLatch woken = new CountDownLatch(1);
      reader.onNewData(woken::countDown);
      assertEquals(0, reader.latestOffset());

      drop("a.json", "{\"id\":1,\"item\":\"a\"}\n", 1_000);

      assertTrue(woken.await(10, TimeUnit.SECONDS));
      assertEquals(1, reader.latestOffset());
      assertEquals(List.of("[1, a]"), read(reader, 0, 1));
    }
  }

  @Test void shouldTakeAtMostMaxFilesPerBatch() throws IOException {
    for (int i = 0; i < 5; i++) {
      drop("f" + i + ".csv", i + ",x\n", 1_000 + i);
    }
    try (FileQueryReader reader = new FileQueryReader(spec(RecordFormat.CSV, OptionalInt.of(2),
        false))) {
      assertEquals(3, reader.latestOffset());
      assertEquals(1, reader.latestOffset(0));
      assertEquals(List.of("[0, x]", "[1, x]"), read(reader, 0, 1));
      assertEquals(3, reader.latestOffset(2));
      assertEquals(List.of("[4, x]"), read(reader, 2, 3));
    }
  }

  @Test void shouldTakeOnlyNewFilesAfterARestart() throws IOException {
    drop("a.csv", "1,a\n", 1_000);
    Path log = checkpoint.resolve("sources").resolve("0");
    try (FileQueryReader first = new FileQueryReader(spec(RecordFormat.CSV,
        OptionalInt.empty(), false))) {
      first.useMetadataDirectory(log);
      assertEquals(1, first.latestOffset());
    }
    assertTrue(Files.exists(log.resolve("1")));
    drop("b.csv", "2,b\n", 500);

    try (FileQueryReader second = new FileQueryReader(spec(RecordFormat.CSV,
        OptionalInt.empty(), false))) {
      second.useMetadataDirectory(log);
      second.restoreInitialOffset("{\"logOffset\":0}");
      assertEquals(1, second.restoreOffset("{\"logOffset\":1}"));
      assertEquals(2, second.latestOffset());
      // The batch of offset 1, re-run after a crash, reads what it read before.
      assertEquals(List.of("[1, a]"), read(second, 0, 1));
      assertEquals(List.of("[2, b]"), read(second, 1, 2));
    }
  }

  @Test void shouldNameTheFileAndLineOfAMalformedLine() throws IOException {
    Path file = drop("a.csv", "1,a\n\n2,b,extra\n", 1_000);
    try (FileQueryReader reader = new FileQueryReader(spec(RecordFormat.CSV,
        OptionalInt.empty(), false))) {
      SourceRecordException e = assertThrows(SourceRecordException.class,
          () -> read(reader, 0, reader.latestOffset()));
      assertEquals("Line 3 of file " + file + " is not a row of stream ORDERS (format csv): the"
          + " CSV line has 3 fields, but the stream has 2 columns to fill. Fix the file, or skip"
          + " such lines with 'format.ignore-parse-errors' = 'true' (they are counted in"
          + " sys.query_progress)", e.getMessage());
    }
  }

  @Test void shouldSkipAndCountMalformedLinesWhenAskedTo() throws IOException {
    drop("a.json", "{\"id\":1}\nnot json\n{\"item\":\"no id\"}\n{\"id\":2,\"item\":\"b\"}", 1_000);
    try (FileQueryReader reader = new FileQueryReader(spec(RecordFormat.JSON,
        OptionalInt.empty(), true))) {
      assertEquals(List.of("[1, null]", "[2, b]"), read(reader, 0, reader.latestOffset()));
      assertEquals(2, reader.droppedRecords());
    }
  }

  @Test void shouldRefuseTheCheckpointDirectoryAfterAFirstRead() {
    try (FileQueryReader reader = new FileQueryReader(spec(RecordFormat.CSV,
        OptionalInt.empty(), false))) {
      reader.latestOffset();
      assertThrows(IllegalStateException.class,
          () -> reader.useMetadataDirectory(checkpoint));
      assertThrows(IllegalArgumentException.class,
          () -> reader.restoreInitialOffset("{\"logOffset\":3}"));
      assertThrows(IllegalArgumentException.class, () -> reader.restoreOffset("7"));
    }
  }
}
