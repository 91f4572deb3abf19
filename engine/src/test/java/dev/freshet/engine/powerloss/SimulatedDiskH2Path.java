package dev.freshet.engine.powerloss;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.h2.store.fs.FilePath;

/**
 * H2's view of a {@link SimulatedDisk}: the {@link FilePath} of scheme
 * {@value SimulatedDiskFileSystem#SCHEME}, so that H2 (the engine's database and the MVStore state
 * stores) reads and writes through the same disk as the rest of the engine. Freshet names its H2
 * files {@code simdisk:/path} on such a disk ({@code DurableFiles.h2FileName}).
 *
 * <pre>{@code
 * FilePath.register(new SimulatedDiskH2Path(disk.fileSystem(), ""));
 * }</pre>
 */
final class SimulatedDiskH2Path extends FilePath {
  private static final String PREFIX = SimulatedDiskFileSystem.SCHEME + ":";

  private final SimulatedDiskFileSystem fileSystem;

  SimulatedDiskH2Path(SimulatedDiskFileSystem fileSystem, String name) {
    this.fileSystem = fileSystem;
    this.name = name.startsWith(PREFIX) ? name : PREFIX + name;
  }

  private Path path() {
    return fileSystem.getPath(name.substring(PREFIX.length()));
  }

  private SimulatedDiskH2Path of(Path path) {
    return new SimulatedDiskH2Path(fileSystem, path.toString());
  }

  @Override public String getScheme() {
    return SimulatedDiskFileSystem.SCHEME;
  }

  @Override public FilePath getPath(String path) {
    return new SimulatedDiskH2Path(fileSystem, path);
  }

  @Override public long size() {
    try {
      return Files.size(path());
    } catch (IOException e) {
      return 0;
    }
  }

  @Override public void moveTo(FilePath newName, boolean atomicReplace) {
    try {
      Path target = ((SimulatedDiskH2Path) newName).path();
      if (atomicReplace) {
        Files.move(path(), target, StandardCopyOption.ATOMIC_MOVE);
      } else {
        Files.move(path(), target);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override public boolean createFile() {
    try {
      Files.createFile(path());
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override public boolean exists() {
    return Files.exists(path());
  }

  @Override public void delete() {
    try {
      Files.deleteIfExists(path());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override public List<FilePath> newDirectoryStream() {
    List<FilePath> children = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(path())) {
      for (Path entry : entries) {
        children.add(of(entry));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return children;
  }

  @Override public FilePath toRealPath() {
    return of(path().toAbsolutePath().normalize());
  }

  @Override public FilePath getParent() {
    Path parent = path().getParent();
    return parent == null ? null : of(parent);
  }

  @Override public boolean isDirectory() {
    return Files.isDirectory(path());
  }

  @Override public boolean isRegularFile() {
    return Files.isRegularFile(path());
  }

  @Override public boolean isAbsolute() {
    return path().isAbsolute();
  }

  @Override public long lastModified() {
    try {
      return Files.getLastModifiedTime(path()).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }

  @Override public boolean canWrite() {
    return Files.isWritable(path());
  }

  @Override public void createDirectory() {
    try {
      Files.createDirectory(path());
    } catch (FileAlreadyExistsException e) {
      // As H2's own file systems: an existing directory is fine.
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override public FileChannel open(String mode) throws IOException {
    if (mode.equals("r")) {
      return FileChannel.open(path(), StandardOpenOption.READ);
    }
    return FileChannel.open(path(), StandardOpenOption.READ, StandardOpenOption.WRITE,
        StandardOpenOption.CREATE);
  }

  @Override public boolean setReadOnly() {
    return false;
  }
}
