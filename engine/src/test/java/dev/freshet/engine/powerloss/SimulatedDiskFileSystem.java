package dev.freshet.engine.powerloss;

import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.List;
import java.util.Set;

/**
 * The file system of a {@link SimulatedDisk}: the default file system's paths, with every
 * operation going through the disk's model of what a power loss leaves.
 */
final class SimulatedDiskFileSystem extends FileSystem {
  /** The scheme of its paths, and of H2 file names on it ({@link SimulatedDiskH2Path}). */
  static final String SCHEME = "simdisk";

  private final SimulatedDisk disk;
  private final SimulatedDiskProvider provider;
  private final FileSystem real = FileSystems.getDefault();

  SimulatedDiskFileSystem(SimulatedDisk disk) {
    this.disk = disk;
    this.provider = new SimulatedDiskProvider(this);
  }

  SimulatedDisk disk() {
    return disk;
  }

  Path wrap(Path realPath) {
    return new SimulatedDiskPath(this, realPath);
  }

  @Override public SimulatedDiskProvider provider() {
    return provider;
  }

  @Override public void close() {
    throw new UnsupportedOperationException();
  }

  @Override public boolean isOpen() {
    return true;
  }

  @Override public boolean isReadOnly() {
    return false;
  }

  @Override public String getSeparator() {
    return real.getSeparator();
  }

  @Override public Iterable<Path> getRootDirectories() {
    return List.of(wrap(real.getRootDirectories().iterator().next()));
  }

  @Override public Iterable<FileStore> getFileStores() {
    return real.getFileStores();
  }

  @Override public Set<String> supportedFileAttributeViews() {
    return real.supportedFileAttributeViews();
  }

  @Override public Path getPath(String first, String... more) {
    return wrap(real.getPath(first, more));
  }

  @Override public PathMatcher getPathMatcher(String syntaxAndPattern) {
    PathMatcher matcher = real.getPathMatcher(syntaxAndPattern);
    return path -> matcher.matches(SimulatedDisk.real(path));
  }

  @Override public UserPrincipalLookupService getUserPrincipalLookupService() {
    return real.getUserPrincipalLookupService();
  }

  @Override public WatchService newWatchService() {
    throw new UnsupportedOperationException("no watch service on a simulated disk");
  }

  @Override public String toString() {
    return SCHEME + ":" + disk.root();
  }
}
