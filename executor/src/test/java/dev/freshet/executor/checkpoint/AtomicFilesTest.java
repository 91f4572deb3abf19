package dev.freshet.executor.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests {@link AtomicFiles#create} directly, without the existence check {@link MetadataLog#add}
 * makes first: this is the path a second run racing for the same batch id takes.
 */
class AtomicFilesTest {
  @TempDir Path dir;

  @Test void shouldWriteTheBytesAndLeaveNoTempFileWhenTheTargetIsNew() throws IOException {
    Path target = dir.resolve("0");

    assertTrue(AtomicFiles.create(target, "v1\nabc".getBytes(StandardCharsets.UTF_8)));

    assertEquals("v1\nabc", Files.readString(target));
    assertEquals(List.of("0"), fileNames());
  }

  @Test void shouldNotReplaceTheTargetWhenItAppearedAfterTheCheck() throws IOException {
    Path target = dir.resolve("7");
    Files.writeString(target, "first run");

    assertFalse(AtomicFiles.create(target, "second run".getBytes(StandardCharsets.UTF_8)));

    assertEquals("first run", Files.readString(target));
    assertEquals(List.of("7"), fileNames());
  }

  @Test void shouldDeleteOnlyTheTempFilesOfTheGivenNameWhenCleaning() throws IOException {
    for (String name : List.of(".metadata.1.tmp", ".3.2.tmp", "metadata", ".keep")) {
      Files.writeString(dir.resolve(name), "");
    }

    AtomicFiles.deleteTempFiles(dir, "metadata");
    assertEquals(List.of(".3.2.tmp", ".keep", "metadata"), fileNames());

    AtomicFiles.deleteTempFiles(dir, null);
    assertEquals(List.of(".keep", "metadata"), fileNames());
  }

  private List<String> fileNames() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }
}
