package dev.freshet.engine.powerloss;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A disk that loses, on a simulated power loss, every write that was not forced: the model of
 * what survives, behind {@link SimulatedDiskFileSystem}.
 *
 * <p>Files live in a real directory ({@link #root}), so the code under test runs unchanged; the
 * disk also keeps, as an OS's page cache would not, what a power loss would leave:
 * <ul>
 *   <li>per file (an {@link Inode}, which renames and hard links carry to other names), its bytes
 *       as of its last {@code force}: empty if it was never forced;
 *   <li>per directory, its entries (name to inode, or a subdirectory) as of its last
 *       {@code force}: none if it was never forced, as for a directory created since.
 * </ul>
 * {@link #restoreTo} writes that durable state out as a directory tree.
 *
 * <p>Every operation that changes a file or a directory (create, write, truncate, force, rename,
 * link, delete) is a numbered <em>crash point</em> once {@link #armAt} was called: the operation
 * numbered {@code k} fails, as does every later one, as if the machine lost power just before it.
 * Thread-safe.
 *
 * <pre>{@code
 * SimulatedDisk disk = new SimulatedDisk(tempDir);   // its files, as they are, are durable
 * Path dataDir = disk.root();
 * disk.armAt(7);              // the 7th write from now on loses power
 * ... run the engine on dataDir ...
 * disk.restoreTo(otherDir);   // what the disk holds after the power loss
 * }</pre>
 */
final class SimulatedDisk {
  /** A file's identity, which outlives its names; {@code durable} is guarded by the disk. */
  static final class Inode {
    byte[] durable;

    Inode(byte[] durable) {
      this.durable = durable;
    }
  }

  /** A subdirectory in a directory's durable entries. */
  private static final Object DIRECTORY = new Object();
  private static final byte[] EMPTY = new byte[0];

  private final Path root;
  private final SimulatedDiskFileSystem fileSystem;
  /** Current name of every file under {@link #root} to its inode. */
  private final Map<Path, Inode> files = new HashMap<>();
  /** Durable entries of each directory that was forced or created since the start. */
  private final Map<Path, Map<String, Object>> durableDirectories = new HashMap<>();
  /** Files found under the root that were not written through this disk. */
  private final List<Path> bypassed = new ArrayList<>();
  /** Operations of the armed run, for messages. */
  private final List<String> operations = new ArrayList<>();
  /** Per file, relative to the root: write calls and bytes, while {@link #tallying}. */
  private final Map<Path, long[]> tally = new HashMap<>();
  private boolean tallying;
  private long armedAt = Long.MAX_VALUE;
  private long counted;
  private boolean counting;
  private boolean lost;

  /**
   * A disk whose root is the directory {@code root} (a real one, on the default file system),
   * with everything in it durable as it is.
   */
  SimulatedDisk(Path root) throws IOException {
    this.root = root.toAbsolutePath().normalize();
    adopt(this.root);
    this.fileSystem = new SimulatedDiskFileSystem(this);
  }

  /** Takes {@code directory} and everything in it as durable. */
  private void adopt(Path directory) throws IOException {
    Map<String, Object> entries = new TreeMap<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(directory)) {
      for (Path child : children) {
        if (Files.isDirectory(child)) {
          adopt(child);
          entries.put(child.getFileName().toString(), DIRECTORY);
        } else {
          Inode inode = new Inode(Files.readAllBytes(child));
          files.put(child, inode);
          entries.put(child.getFileName().toString(), inode);
        }
      }
    }
    durableDirectories.put(directory, entries);
  }

  /** The file system whose paths read and write through this disk. */
  SimulatedDiskFileSystem fileSystem() {
    return fileSystem;
  }

  /** The directory this disk keeps its files in, as a path of {@link #fileSystem}. */
  Path root() {
    return fileSystem.wrap(root);
  }

  /**
   * Starts counting operations: the {@code k}-th from now on (1-based) loses power;
   * {@code Long.MAX_VALUE} only counts.
   */
  synchronized void armAt(long k) {
    armedAt = k;
    counted = 0;
    counting = true;
    operations.clear();
  }

  /**
   * Starts counting, per file, the write calls and the bytes they write (from now on, until the
   * next call), for a test of what a workload writes where.
   */
  synchronized void startTally() {
    tally.clear();
    tallying = true;
  }

  /** Per file under the root, relative: {write calls, bytes written} since {@link #startTally}. */
  synchronized Map<Path, long[]> tally() {
    Map<Path, long[]> copy = new HashMap<>();
    tally.forEach((file, counts) -> copy.put(file, counts.clone()));
    return copy;
  }

  /** Counts a write of {@code bytes} to {@code file} if tallying; returns {@code bytes}. */
  synchronized int tally(Path file, int bytes) {
    return (int) tally(file, (long) bytes);
  }

  /** Counts a write of {@code bytes} to {@code file} if tallying; returns {@code bytes}. */
  synchronized long tally(Path file, long bytes) {
    if (tallying) {
      long[] counts = tally.computeIfAbsent(root.relativize(file.toAbsolutePath().normalize()),
          f -> new long[2]);
      counts[0]++;
      counts[1] += bytes;
    }
    return bytes;
  }

  /** Loses power now, if it was not lost already. */
  synchronized void powerOff() {
    lost = true;
  }

  /** Operations counted since {@link #armAt}. */
  synchronized long counted() {
    return counted;
  }

  /** Whether the power was lost. */
  synchronized boolean lost() {
    return lost;
  }

  /** The operations counted since {@link #armAt}, numbered, for a failure message. */
  synchronized List<String> operations() {
    return List.copyOf(operations);
  }

  /** Files found that were written around this disk (through another file system). */
  synchronized List<Path> bypassed() {
    return List.copyOf(bypassed);
  }

  /**
   * Called before an operation that changes {@code file}: counts it, and loses power if it is the
   * armed one.
   *
   * @throws IOException if the power is lost, now or before
   */
  synchronized void operation(String kind, Path file) throws IOException {
    if (lost) {
      throw new IOException("Simulated power loss: the disk is gone (" + kind + " " + file + ")");
    }
    if (!counting) {
      return;
    }
    counted++;
    operations.add(counted + ": " + kind + " " + root.relativize(file));
    if (counted == armedAt) {
      lost = true;
      throw new IOException("Simulated power loss at operation " + counted + ": " + kind + " "
          + file);
    }
  }

  /** The inode of existing file {@code file}, adopting it if it was written around the disk. */
  synchronized Inode inodeOf(Path file) throws IOException {
    Inode inode = files.get(file);
    if (inode == null) {
      bypassed.add(file);
      inode = new Inode(Files.readAllBytes(file));
      files.put(file, inode);
    }
    return inode;
  }

  /** {@code file} was created empty. */
  synchronized Inode created(Path file) {
    Inode inode = new Inode(EMPTY);
    files.put(file, inode);
    return inode;
  }

  /** Directory {@code directory} was created: it holds no durable entry yet. */
  synchronized void createdDirectory(Path directory) {
    durableDirectories.put(directory, new TreeMap<>());
  }

  /** {@code source} was renamed to {@code target}. */
  synchronized void moved(Path source, Path target) {
    Inode inode = files.remove(source);
    if (inode != null) {
      files.put(target, inode);
    }
  }

  /** {@code link} was made a second name of {@code existing}. */
  synchronized void linked(Path link, Path existing) throws IOException {
    files.put(link, inodeOf(existing));
  }

  /** {@code file} was deleted. */
  synchronized void deleted(Path file) {
    files.remove(file);
  }

  /** A channel on {@code inode} was forced: its current bytes are durable. */
  void forced(Inode inode, FileChannel channel) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(channel.size()));
    while (bytes.hasRemaining()) {
      if (channel.read(bytes, bytes.position()) < 0) {
        break;
      }
    }
    byte[] durable = new byte[bytes.position()];
    bytes.flip().get(durable);
    synchronized (this) {
      inode.durable = durable;
    }
  }

  /** Directory {@code directory} was forced: its current entries are durable. */
  synchronized void forcedDirectory(Path directory) throws IOException {
    Map<String, Object> entries = new TreeMap<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(directory)) {
      for (Path child : children) {
        entries.put(child.getFileName().toString(),
            Files.isDirectory(child) ? DIRECTORY : inodeOf(child));
      }
    }
    durableDirectories.put(directory, entries);
  }

  /**
   * Writes what a power loss leaves of the disk into {@code target}, an empty directory: the
   * durable entries of each directory, each file with its durable bytes.
   */
  synchronized void restoreTo(Path target) throws IOException {
    restore(root, target);
  }

  private void restore(Path directory, Path target) throws IOException {
    for (Map.Entry<String, Object> e : durableDirectories.getOrDefault(directory, Map.of())
        .entrySet()) {
      Path to = target.resolve(e.getKey());
      if (e.getValue() == DIRECTORY) {
        Files.createDirectory(to);
        restore(directory.resolve(e.getKey()), to);
      } else {
        Files.write(to, ((Inode) e.getValue()).durable);
      }
    }
  }

  /** The real path behind a path of {@link #fileSystem}. */
  static Path real(Path path) {
    return ((SimulatedDiskPath) requireNonNull(path, "path")).real();
  }
}
