package dev.freshet.engine.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * Makes the data directory and the database file readable by the server's user only: mode
 * {@code 0700} for the directory, {@code 0600} for the files of the engine's database, which
 * hold the catalog and the secrets. Where the file system has no POSIX modes, nothing is done.
 *
 * <pre>{@code
 * OwnerOnlyFiles.directory(dataDir);              // drwx------
 * OwnerOnlyFiles.files(dataDir, "catalog.");      // -rw------- catalog.mv.db, catalog.trace.db
 * }</pre>
 *
 * <p>H2 creates its files with the process's umask, and may write a file anew under another
 * name and rename it; the directory's mode keeps every user but the owner out of such a file
 * too, and the files' modes are set again each time the database is opened and closed.
 */
public final class OwnerOnlyFiles {
  private static final Set<PosixFilePermission> DIRECTORY = EnumSet.of(
      PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
      PosixFilePermission.OWNER_EXECUTE);
  private static final Set<PosixFilePermission> FILE = EnumSet.of(
      PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

  private OwnerOnlyFiles() {
  }

  /**
   * Gives {@code directory} mode {@code 0700}.
   *
   * @throws UncheckedIOException if the mode cannot be set
   */
  public static void directory(Path directory) {
    set(directory, DIRECTORY);
  }

  /**
   * Gives each file in {@code directory} whose name starts with {@code prefix} mode
   * {@code 0600}.
   *
   * @throws UncheckedIOException if the directory cannot be listed or a mode cannot be set
   */
  public static void files(Path directory, String prefix) {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, prefix + "*")) {
      for (Path file : files) {
        if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
          set(file, FILE);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + directory + " to make its files " + prefix
          + "* readable by their owner only: " + e, e);
    }
  }

  private static void set(Path path, Set<PosixFilePermission> permissions) {
    // Links followed: a data directory may be a link to where the data lives.
    PosixFileAttributeView view = Files.getFileAttributeView(path,
        PosixFileAttributeView.class);
    if (view == null) {
      return;
    }
    try {
      if (!view.readAttributes().permissions().equals(permissions)) {
        view.setPermissions(permissions);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot make " + path + " readable by its owner only"
          + " (chmod " + (permissions.equals(DIRECTORY) ? "700" : "600") + "): " + e, e);
    }
  }
}
