package dev.freshet.executor.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * Creates checkpoint files so that a reader, or a restart after a crash, sees either the whole
 * file or none of it, and never replaces a file that exists.
 *
 * <p>The bytes go to a temp file {@code .<name>.<uuid>.tmp} in the target's directory (as Spark's
 * {@code CheckpointFileManager.createAtomic}), which is forced to disk and then published under
 * the target name; finally the directory is forced so that the new name survives a power loss. A
 * name starting with a dot is never a batch id, so logs skip temp files a crash left behind, and
 * {@link #deleteTempFiles} removes them.
 *
 * <p>Publishing uses a hard link: unlike a rename, which on POSIX silently replaces an existing
 * target, {@code link(2)} fails if the target exists, so two runs racing for the same batch id
 * cannot overwrite each other's entry. Where the file system has no hard links it falls back to
 * an {@link StandardCopyOption#ATOMIC_MOVE atomic move} after checking that the target is absent;
 * that check and the move are not one step, so there only a single writer is safe.
 */
final class AtomicFiles {
  private static final String TEMP_SUFFIX = ".tmp";
  /** Windows cannot open a directory as a channel; NTFS journals the rename itself. */
  private static final boolean CAN_FORCE_DIRECTORY =
      !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

  private AtomicFiles() {
  }

  /**
   * Writes {@code bytes} to {@code target} atomically and durably.
   *
   * @return false, leaving {@code target} untouched, if it already existed
   * @throws CheckpointException if the file system fails
   */
  static boolean create(Path target, byte[] bytes) {
    Path directory = target.toAbsolutePath().getParent();
    Path temp = directory.resolve("." + target.getFileName() + "." + UUID.randomUUID()
        + TEMP_SUFFIX);
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      if (!publish(temp, target)) {
        return false;
      }
      forceDirectory(directory);
      return true;
    } catch (IOException e) {
      throw CheckpointException.io(target, "write", e);
    } finally {
      // After a link the temp name is a second name of the published file; after a move or a
      // failure it may not exist. Either way it must not outlive this call.
      try {
        Files.deleteIfExists(temp);
      } catch (IOException e) {
        // A leftover temp file is harmless: readers skip it and the next open deletes it.
      }
    }
  }

  /** Gives {@code temp}'s file the name {@code target}; false if {@code target} exists. */
  private static boolean publish(Path temp, Path target) throws IOException {
    try {
      Files.createLink(target, temp);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (UnsupportedOperationException | IOException noLinks) {
      // No hard links here (or not for this file): an atomic move, which may replace the target,
      // so look first. If the move fails too, its error is the one to report.
      if (Files.exists(target)) {
        return false;
      }
      try {
        // No plain move as a last resort: a crash during it could leave a half-written entry.
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        e.addSuppressed(noLinks);
        throw e;
      }
      return true;
    }
  }

  /** Forces {@code directory}'s entries (new and renamed names) to disk, where that is possible. */
  static void forceDirectory(Path directory) throws IOException {
    if (!CAN_FORCE_DIRECTORY) {
      return;
    }
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /** The contents of {@code file}, or empty if it does not exist. */
  static Optional<byte[]> read(Path file) {
    try {
      return Optional.of(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw CheckpointException.io(file, "read", e);
    }
  }

  /** Whether {@code fileName} is a temp file of {@link #create}. */
  static boolean isTempFile(String fileName) {
    return fileName.startsWith(".") && fileName.endsWith(TEMP_SUFFIX);
  }

  /**
   * Deletes the temp files of {@code prefix} (a target's name) that a crash left in
   * {@code directory}, or every temp file if {@code prefix} is null.
   */
  static void deleteTempFiles(Path directory, String prefix) {
    String start = prefix == null ? "." : "." + prefix + ".";
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (isTempFile(name) && name.startsWith(start)) {
          Files.deleteIfExists(file);
        }
      }
    } catch (IOException e) {
      throw CheckpointException.io(directory, "clean temp files in", e);
    }
  }
}
