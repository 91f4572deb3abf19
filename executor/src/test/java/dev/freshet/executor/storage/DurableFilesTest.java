package dev.freshet.executor.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
 * Tests {@link DurableFiles}; {@link DurableFiles#createAtomically} directly, without the
 * existence check {@code MetadataLog.add} makes first: this is the path a second run racing for
 * the same batch id takes.
 */
class DurableFilesTest {
  @TempDir Path dir;

  @Test void shouldWriteTheBytesAndLeaveNoTempFileWhenTheTargetIsNew() throws IOException {
    Path target = dir.resolve("0");

    assertTrue(DurableFiles.createAtomically(target, "v1\nabc".getBytes(StandardCharsets.UTF_8)));

    assertEquals("v1\nabc", Files.readString(target));
    assertEquals(List.of("0"), fileNames());
  }

  @Test void shouldNotReplaceTheTargetWhenItAppearedAfterTheCheck() throws IOException {
    Path target = dir.resolve("7");
    Files.writeString(target, "first run");

    assertFalse(DurableFiles.createAtomically(target,
        "second run".getBytes(StandardCharsets.UTF_8)));

    assertEquals("first run", Files.readString(target));
    assertEquals(List.of("7"), fileNames());
  }

  @Test void shouldDeleteOnlyTheTempFilesOfTheGivenNameWhenCleaning() throws IOException {
    for (String name : List.of(".metadata.1.tmp", ".3.2.tmp", "metadata", ".keep")) {
      Files.writeString(dir.resolve(name), "");
    }

    DurableFiles.deleteTempFiles(dir, "metadata");
    assertEquals(List.of(".3.2.tmp", ".keep", "metadata"), fileNames());

    DurableFiles.deleteTempFiles(dir, null);
    assertEquals(List.of(".keep", "metadata"), fileNames());
  }

  @Test void shouldReplaceTheTargetWhenReplacingAtomically() throws IOException {
    Path target = dir.resolve("metadata");
    Files.writeString(target, "old");

    DurableFiles.replaceAtomically(target, "new".getBytes(StandardCharsets.UTF_8));

    assertEquals("new", Files.readString(target));
    assertEquals(List.of("metadata"), fileNames());
  }

  @Test void shouldCreateEveryMissingParentWhenCreatingDirectories() {
    Path nested = dir.resolve("a").resolve("b").resolve("c");

    DurableFiles.createDirectories(nested);
    DurableFiles.createDirectories(nested);

    assertTrue(Files.isDirectory(nested));
  }

  @Test void shouldNameTheActionAndTheFileWhenTheFileSystemFails() throws IOException {
    Path file = dir.resolve("plain");
    Files.writeString(file, "");

    StorageException e = assertThrows(StorageException.class,
        () -> DurableFiles.createDirectories(file.resolve("sub")));

    // The file in the way is the one named.
    assertEquals("create directory", e.action());
    assertEquals(file, e.file());
    assertTrue(e.getMessage().startsWith("Cannot create directory " + file + " ("),
        e.getMessage());
  }

  @Test void shouldPrefixTheSchemeOnlyOffTheDefaultFileSystemWhenNamingAnH2File() {
    Path file = dir.resolve("state.mv.db");

    assertEquals(file.toAbsolutePath().toString(), DurableFiles.h2FileName(file));
  }

  private List<String> fileNames() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }
}
