package dev.freshet.executor.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The file operations that make Freshet's files survive a power loss: atomic writes, and fsync
 * of files and of the directories whose entries (new, renamed or deleted names) must last.
 *
 * <p>A file's bytes are durable once its channel is forced; its name is durable once its
 * directory is forced. Everything here forces both, in the order a crash needs: the bytes of a
 * file before the name that publishes it, a new directory's parent before anything is written
 * in it. Every failure is a {@link StorageException}.
 *
 * <p>All paths are taken as given, with their own {@link java.nio.file.FileSystem}: nothing here
 * goes through {@code java.io.File} or the default file system, so a test can run Freshet on a
 * file system that simulates power loss.
 *
 * <pre>{@code
 * DurableFiles.createDirectories(root.resolve("commits"));
 * Path commit = root.resolve("commits").resolve("7");
 * boolean written = DurableFiles.createAtomically(commit, bytes);   // never replaces
 * DurableFiles.replaceAtomically(root.resolve("metadata"), text);   // replaces
 * }</pre>
 */
public final class DurableFiles {
  private static final String TEMP_SUFFIX = ".tmp";
  /** Windows cannot open a directory as a channel; NTFS journals the rename itself. */
  private static final boolean CAN_FORCE_DIRECTORY =
      !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

  private DurableFiles() {
  }

  /**
   * Writes {@code bytes} to {@code target} atomically and durably, unless {@code target} exists:
   * a reader, or a restart after a crash, sees the whole file or none of it.
   *
   * <p>The bytes go to a {@link #tempFileOf temp file} beside the target, which is forced and
   * then published under the target name; finally the directory is forced. Publishing uses a
   * hard link: unlike a rename, which on POSIX silently replaces an existing target,
   * {@code link(2)} fails if the target exists, so two writers racing for one name cannot
   * overwrite each other. Where the file system has no hard links it falls back to an atomic move
   * after checking that the target is absent; that check and the move are not one step, so there
   * only a single writer is safe.
   *
   * @return false, leaving {@code target} untouched, if it already existed
   * @throws StorageException if the file system fails
   */
  public static boolean createAtomically(Path target, byte[] bytes) {
    Path temp = tempFileOf(target);
    try {
      writeForced(temp, bytes);
      if (!link(temp, target)) {
        return false;
      }
      forceDirectory(directoryOf(target));
      return true;
    } catch (IOException e) {
      throw StorageException.io("write", target, e);
    } finally {
      // After a link the temp name is a second name of the published file; after a move or a
      // failure it may not exist. Either way it must not outlive this call.
      deleteQuietly(temp);
    }
  }

  /**
   * Writes {@code bytes} to {@code target} atomically and durably, replacing it if it exists:
   * after a crash the target holds the old bytes or the new ones.
   *
   * @throws StorageException if the file system fails
   */
  public static void replaceAtomically(Path target, byte[] bytes) {
    Path temp = tempFileOf(target);
    try {
      writeForced(temp, bytes);
    } catch (IOException e) {
      deleteQuietly(temp);
      throw StorageException.io("write", target, e);
    }
    publishReplacing(temp, target);
  }

  /**
   * Renames {@code temp}, a finished and forced file, to {@code target} in one step, replacing
   * it if it exists, and forces the directory so that the new name lasts.
   *
   * @throws StorageException if the file system fails; {@code temp} is left to the caller then
   */
  public static void publishReplacing(Path temp, Path target) {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw StorageException.io("rename " + temp + " to", target, e);
    }
    forceDirectory(directoryOf(target));
  }

  /**
   * Forces {@code file}'s bytes and length to disk through {@code channel}, open on it.
   *
   * @throws StorageException if the file system fails
   */
  public static void force(FileChannel channel, Path file) {
    try {
      channel.force(true);
    } catch (IOException e) {
      throw StorageException.io("force", file, e);
    }
  }

  /**
   * Forces {@code directory}'s entries (new, renamed and deleted names) to disk, where the
   * platform can.
   *
   * @throws StorageException if the file system fails
   */
  public static void forceDirectory(Path directory) {
    if (!CAN_FORCE_DIRECTORY) {
      return;
    }
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      throw StorageException.io("force directory", directory, e);
    }
  }

  /**
   * Creates {@code directory} and its missing parents, each durably: every new directory's
   * parent is forced, so that a file written and forced inside it later cannot lose its
   * directory to a power loss. Does nothing if the directory exists.
   *
   * @throws StorageException if the file system fails or a parent is not a directory
   */
  public static void createDirectories(Path directory) {
    Path absolute = directory.toAbsolutePath();
    Deque<Path> missing = new ArrayDeque<>();
    for (Path d = absolute; d != null && !Files.isDirectory(d); d = d.getParent()) {
      missing.push(d);
    }
    while (!missing.isEmpty()) {
      Path created = missing.pop();
      try {
        Files.createDirectory(created);
      } catch (FileAlreadyExistsException e) {
        if (!Files.isDirectory(created)) {
          throw StorageException.io("create directory", created, e);
        }
        // Created meanwhile by another writer, who forces its parent too.
        continue;
      } catch (IOException e) {
        throw StorageException.io("create directory", created, e);
      }
      forceDirectory(created.getParent());
    }
  }

  /**
   * The contents of {@code file}, or empty if it does not exist.
   *
   * @throws StorageException if it exists but cannot be read
   */
  public static Optional<byte[]> readIfExists(Path file) {
    try {
      return Optional.of(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw StorageException.io("read", file, e);
    }
  }

  /**
   * A new name for a temp file of {@code target}, beside it: {@code .<target>.<random>.tmp}. A
   * name starting with a dot is never one that Freshet reads, so a temp file a crash left behind
   * is skipped by every listing; {@link #deleteTempFiles} removes it.
   */
  public static Path tempFileOf(Path target) {
    return target.resolveSibling("." + target.getFileName() + "."
        + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE)
        + TEMP_SUFFIX);
  }

  /** Whether {@code fileName} is the name of a {@link #tempFileOf temp file}. */
  public static boolean isTempFile(String fileName) {
    return fileName.startsWith(".") && fileName.endsWith(TEMP_SUFFIX);
  }

  /**
   * Deletes the temp files of {@code prefix} (a target's name) that a crash left in
   * {@code directory}, or every temp file if {@code prefix} is null.
   *
   * @throws StorageException if the file system fails
   */
  public static void deleteTempFiles(Path directory, String prefix) {
    String start = prefix == null ? "." : "." + prefix + ".";
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (isTempFile(name) && name.startsWith(start)) {
          Files.deleteIfExists(file);
        }
      }
    } catch (IOException e) {
      throw StorageException.io("clean temp files in", directory, e);
    }
  }

  /**
   * The name under which H2 ({@code org.h2.store.fs.FilePath}) opens {@code file}: its absolute
   * path on the default file system; on another file system, the path after that file system's
   * scheme ({@code scheme:/abs/path}), which H2 resolves through the {@code FilePath} registered
   * for the scheme. This is how a test's file system reaches H2's files too.
   */
  public static String h2FileName(Path file) {
    requireNonNull(file, "file");
    String path = file.toAbsolutePath().toString();
    if (file.getFileSystem() == FileSystems.getDefault()) {
      return path;
    }
    return file.getFileSystem().provider().getScheme() + ":" + path;
  }

  private static void writeForced(Path file, byte[] bytes) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
  }

  /** Gives {@code temp}'s file the name {@code target}; false if {@code target} exists. */
  private static boolean link(Path temp, Path target) throws IOException {
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

  private static Path directoryOf(Path file) {
    return file.toAbsolutePath().getParent();
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A leftover temp file is harmless: readers skip it and the next open deletes it.
    }
  }
}
