package dev.freshet.engine.powerloss;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The provider of a {@link SimulatedDiskFileSystem}: does every operation on the real file, and
 * tells the {@link SimulatedDisk} first (which may lose power instead) and after.
 */
final class SimulatedDiskProvider extends FileSystemProvider {
  private final SimulatedDiskFileSystem fileSystem;
  private final FileSystemProvider real;

  SimulatedDiskProvider(SimulatedDiskFileSystem fileSystem) {
    this.fileSystem = fileSystem;
    this.real = java.nio.file.FileSystems.getDefault().provider();
  }

  private SimulatedDisk disk() {
    return fileSystem.disk();
  }

  private static Path real(Path path) {
    return SimulatedDisk.real(path);
  }

  @Override public String getScheme() {
    return SimulatedDiskFileSystem.SCHEME;
  }

  @Override public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
    throw new UnsupportedOperationException("made by SimulatedDisk");
  }

  @Override public FileSystem getFileSystem(URI uri) {
    return fileSystem;
  }

  @Override public Path getPath(URI uri) {
    return fileSystem.getPath(uri.getPath());
  }

  @Override public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options,
      FileAttribute<?>... attrs) throws IOException {
    Path file = real(path);
    boolean writes = options.contains(StandardOpenOption.WRITE)
        || options.contains(StandardOpenOption.APPEND);
    boolean exists = Files.exists(file);
    boolean creates = writes && !exists && (options.contains(StandardOpenOption.CREATE)
        || options.contains(StandardOpenOption.CREATE_NEW));
    if (creates) {
      disk().operation("create", file);
    } else if (writes && exists && options.contains(StandardOpenOption.TRUNCATE_EXISTING)) {
      disk().operation("truncate", file);
    }
    Set<OpenOption> readable = new HashSet<>(options);
    if (!readable.contains(StandardOpenOption.APPEND)) {
      // A force reads the file's bytes back through the channel, which may have been renamed.
      readable.add(StandardOpenOption.READ);
    }
    FileChannel channel = real.newFileChannel(file, readable, attrs);
    try {
      if (Files.isDirectory(file)) {
        return new SimulatedDiskChannel(disk(), file, null, channel);
      }
      return new SimulatedDiskChannel(disk(), file,
          creates ? disk().created(file) : disk().inodeOf(file), channel);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  @Override public SeekableByteChannel newByteChannel(Path path,
      Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
    return newFileChannel(path, options, attrs);
  }

  @Override public DirectoryStream<Path> newDirectoryStream(Path dir,
      DirectoryStream.Filter<? super Path> filter) throws IOException {
    DirectoryStream<Path> entries = real.newDirectoryStream(real(dir),
        entry -> filter.accept(fileSystem.wrap(entry)));
    return new DirectoryStream<>() {
      @Override public Iterator<Path> iterator() {
        Iterator<Path> it = entries.iterator();
        return new Iterator<>() {
          @Override public boolean hasNext() {
            return it.hasNext();
          }

          @Override public Path next() {
            return fileSystem.wrap(it.next());
          }
        };
      }

      @Override public void close() throws IOException {
        entries.close();
      }
    };
  }

  @Override public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    Path directory = real(dir);
    disk().operation("mkdir", directory);
    real.createDirectory(directory, attrs);
    disk().createdDirectory(directory);
  }

  @Override public void createLink(Path link, Path existing) throws IOException {
    disk().operation("link", real(link));
    real.createLink(real(link), real(existing));
    disk().linked(real(link), real(existing));
  }

  @Override public void delete(Path path) throws IOException {
    Path file = real(path);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      // Nothing changes: not a crash point.
      throw new NoSuchFileException(file.toString());
    }
    disk().operation("delete", file);
    real.delete(file);
    disk().deleted(file);
  }

  @Override public void copy(Path source, Path target, CopyOption... options) {
    throw new UnsupportedOperationException("Freshet does not copy files");
  }

  @Override public void move(Path source, Path target, CopyOption... options)
      throws IOException {
    if (Files.isDirectory(real(source))) {
      throw new UnsupportedOperationException("a simulated disk renames files only");
    }
    disk().operation("rename", real(target));
    real.move(real(source), real(target), options);
    disk().moved(real(source), real(target));
  }

  @Override public boolean isSameFile(Path path, Path path2) throws IOException {
    return real.isSameFile(real(path), real(path2));
  }

  @Override public boolean isHidden(Path path) throws IOException {
    return real.isHidden(real(path));
  }

  @Override public FileStore getFileStore(Path path) throws IOException {
    return real.getFileStore(real(path));
  }

  @Override public void checkAccess(Path path, AccessMode... modes) throws IOException {
    real.checkAccess(real(path), modes);
  }

  @Override public <V extends FileAttributeView> V getFileAttributeView(Path path,
      Class<V> type, LinkOption... options) {
    return real.getFileAttributeView(real(path), type, options);
  }

  @Override public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type,
      LinkOption... options) throws IOException {
    return real.readAttributes(real(path), type, options);
  }

  @Override public Map<String, Object> readAttributes(Path path, String attributes,
      LinkOption... options) throws IOException {
    return real.readAttributes(real(path), attributes, options);
  }

  @Override public void setAttribute(Path path, String attribute, Object value,
      LinkOption... options) {
    throw new UnsupportedOperationException("Freshet sets no file attributes");
  }
}
