package dev.freshet.engine.powerloss;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Objects;

/**
 * A path of a {@link SimulatedDiskFileSystem}: a real path of the default file system, kept
 * inside so that every operation on it goes through the simulated disk. {@code toFile()} fails,
 * as for any path off the default file system, which catches code that goes around it.
 */
final class SimulatedDiskPath implements Path {
  private final SimulatedDiskFileSystem fileSystem;
  private final Path real;

  SimulatedDiskPath(SimulatedDiskFileSystem fileSystem, Path real) {
    this.fileSystem = fileSystem;
    this.real = real;
  }

  Path real() {
    return real;
  }

  private Path wrap(Path path) {
    return path == null ? null : new SimulatedDiskPath(fileSystem, path);
  }

  private Path unwrap(Path other) {
    if (!(other instanceof SimulatedDiskPath path) || path.fileSystem != fileSystem) {
      throw new IllegalArgumentException("not a path of " + fileSystem + ": " + other);
    }
    return path.real;
  }

  @Override public SimulatedDiskFileSystem getFileSystem() {
    return fileSystem;
  }

  @Override public boolean isAbsolute() {
    return real.isAbsolute();
  }

  @Override public Path getRoot() {
    return wrap(real.getRoot());
  }

  @Override public Path getFileName() {
    return wrap(real.getFileName());
  }

  @Override public Path getParent() {
    return wrap(real.getParent());
  }

  @Override public int getNameCount() {
    return real.getNameCount();
  }

  @Override public Path getName(int index) {
    return wrap(real.getName(index));
  }

  @Override public Path subpath(int beginIndex, int endIndex) {
    return wrap(real.subpath(beginIndex, endIndex));
  }

  @Override public boolean startsWith(Path other) {
    return other instanceof SimulatedDiskPath path && real.startsWith(path.real);
  }

  @Override public boolean endsWith(Path other) {
    return other instanceof SimulatedDiskPath path && real.endsWith(path.real);
  }

  @Override public Path normalize() {
    return wrap(real.normalize());
  }

  @Override public Path resolve(Path other) {
    return wrap(real.resolve(unwrap(other)));
  }

  @Override public Path resolve(String other) {
    return wrap(real.resolve(other));
  }

  @Override public Path relativize(Path other) {
    return wrap(real.relativize(unwrap(other)));
  }

  @Override public URI toUri() {
    try {
      return new URI(SimulatedDiskFileSystem.SCHEME, null, real.toAbsolutePath().toString(),
          null);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override public Path toAbsolutePath() {
    return wrap(real.toAbsolutePath());
  }

  @Override public Path toRealPath(LinkOption... options) throws IOException {
    return wrap(real.toRealPath(options));
  }

  @Override public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events,
      WatchEvent.Modifier... modifiers) {
    throw new UnsupportedOperationException("no watch service on a simulated disk");
  }

  @Override public int compareTo(Path other) {
    return real.compareTo(unwrap(other));
  }

  @Override public boolean equals(Object other) {
    return other instanceof SimulatedDiskPath path && path.fileSystem == fileSystem
        && path.real.equals(real);
  }

  @Override public int hashCode() {
    return Objects.hash(fileSystem, real);
  }

  @Override public String toString() {
    return real.toString();
  }
}
