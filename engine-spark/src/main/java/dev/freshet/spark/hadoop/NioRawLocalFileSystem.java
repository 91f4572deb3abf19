package dev.freshet.spark.hadoop;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.FileSystemException;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's raw local file system, its permissions set and read and its links read with
 * {@code java.nio} (the {@code unix} attribute view, one system call each) where Hadoop without
 * its native library runs {@code chmod}, {@code ls -ld} and {@code readlink} in child processes.
 * The results are Hadoop's: the same mode bits (sticky bit included), owner and group names,
 * sizes and times; where the {@code unix} view is missing (not Linux or macOS), Hadoop's own
 * code runs.
 *
 * <pre>{@code
 * FileSystem raw = new NioRawLocalFileSystem();
 * raw.initialize(URI.create("file:///"), conf);
 * raw.mkdirs(new Path("/tmp/ckpt/offsets"));   // 0755 under umask 022, as Hadoop makes it
 * }</pre>
 */
public class NioRawLocalFileSystem extends RawLocalFileSystem {
  /** The bits of a mode that Hadoop's permissions hold: rwx for all three, the sticky bit. */
  private static final int PERMISSION_BITS = 01777;
  /** Set-user-ID and set-group-ID, which chmod keeps on a directory given a 4-digit mode. */
  private static final int SET_ID_BITS = 06000;
  /**
   * What Hadoop reads of a file, a link followed: {@code File.length()} and the like, and
   * {@code ls -ld} of its canonical path.
   */
  private static final String ATTRIBUTES =
      "unix:size,lastModifiedTime,lastAccessTime,isDirectory,mode,owner,group";

  /**
   * Hadoop's {@code chmod %04o}: the permission's bits and sticky bit set; a directory's
   * set-id bits kept (GNU chmod keeps them given four digits; a directory in a set-group-ID
   * directory has that bit), a file's cleared.
   */
  @Override public void setPermission(Path p, FsPermission permission) throws IOException {
    java.nio.file.Path file = pathToFile(p).getCanonicalFile().toPath();
    try {
      Map<String, Object> now = Files.readAttributes(file, "unix:mode,isDirectory");
      int kept = (Boolean) now.get("isDirectory") ? (Integer) now.get("mode") & SET_ID_BITS : 0;
      Files.setAttribute(file, "unix:mode", permission.toShort() & PERMISSION_BITS | kept);
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      super.setPermission(p, permission);
    } catch (FileSystemException e) {
      throw missing(file.toFile(), p, e);
    }
  }

  /** The status of {@code f}, a link followed, its permission, owner and group read too. */
  @Override public FileStatus getFileStatus(Path f) throws IOException {
    File file = pathToFile(f);
    Map<String, Object> attributes;
    try {
      attributes = Files.readAttributes(file.toPath(), ATTRIBUTES);
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return super.getFileStatus(f);
    } catch (FileSystemException e) {
      throw missing(file, f, e);
    }
    return new FileStatus((Long) attributes.get("size"), (Boolean) attributes.get("isDirectory"),
        1, getDefaultBlockSize(f), millis(attributes.get("lastModifiedTime")),
        millis(attributes.get("lastAccessTime")),
        new FsPermission((short) ((Integer) attributes.get("mode") & PERMISSION_BITS)),
        name(attributes.get("owner")), name(attributes.get("group")),
        new Path(file.getPath()).makeQualified(getUri(), getWorkingDirectory()));
  }

  /**
   * Every entry of a directory, or the file itself, each as {@link #getFileStatus} gives it
   * (Hadoop's statuses of files read their permissions with {@code ls -ld} when asked).
   */
  @Override public FileStatus[] listStatus(Path f) throws IOException {
    File file = pathToFile(f);
    if (file.exists() && !file.isDirectory()) {
      return new FileStatus[] {getFileStatus(f)};
    }
    return super.listStatus(f);
  }

  /**
   * As Hadoop's: the status of the link itself if {@code f} is one, its target qualified; the
   * link is looked up, as Hadoop does, at the path's string (so a {@code file:} URI names none).
   */
  @Override public FileStatus getFileLinkStatus(Path f) throws IOException {
    FileStatus status = linkStatus(f);
    if (status.isSymlink()) {
      status.setSymlink(org.apache.hadoop.fs.FSLinkResolver.qualifySymlinkTarget(getUri(),
          status.getPath(), status.getSymlink()));
    }
    return status;
  }

  @Override public Path getLinkTarget(Path f) throws IOException {
    return linkStatus(f).getSymlink();
  }

  private FileStatus linkStatus(Path f) throws IOException {
    String target = readLink(f);
    try {
      FileStatus status = getFileStatus(f);
      if (target.isEmpty()) {
        return status;
      }
      return new FileStatus(status.getLen(), false, status.getReplication(),
          status.getBlockSize(), status.getModificationTime(), status.getAccessTime(),
          status.getPermission(), status.getOwner(), status.getGroup(), new Path(target), f);
    } catch (FileNotFoundException e) {
      if (!target.isEmpty()) {
        return new FileStatus(0, false, 0, 0, 0, 0, FsPermission.getDefault(), "", "",
            new Path(target), f);
      }
      throw e;
    }
  }

  /** Hadoop's {@code FileUtil.readLink}: the link's target, or empty if it is none. */
  private static String readLink(Path f) {
    try {
      return Files.readSymbolicLink(new File(f.toString()).toPath()).toString();
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return "";
    }
  }

  /**
   * Hadoop's FileNotFoundException where {@code File.exists()} is false (a missing file, or a
   * path through a file: "Not a directory"), as Hadoop checks; the error itself otherwise.
   */
  private static IOException missing(File file, Path p, FileSystemException e) {
    if (!file.exists()) {
      return new FileNotFoundException("File " + p + " does not exist");
    }
    return e;
  }

  private static long millis(Object time) {
    return ((FileTime) time).toMillis();
  }

  private static String name(Object principal) {
    return ((UserPrincipal) principal).getName();
  }
}
