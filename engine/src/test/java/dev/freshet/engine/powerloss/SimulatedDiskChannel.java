package dev.freshet.engine.powerloss;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * A channel on a file (or, to force it, a directory) of a {@link SimulatedDisk}: reads go to the
 * real file; writes, truncation and {@code force} are crash points, and {@code force} makes the
 * file's bytes (or the directory's entries) durable in the disk's model.
 */
final class SimulatedDiskChannel extends FileChannel {
  private final SimulatedDisk disk;
  private final Path file;
  /** The file's inode; null for a directory. */
  private final SimulatedDisk.Inode inode;
  private final FileChannel real;

  SimulatedDiskChannel(SimulatedDisk disk, Path file, SimulatedDisk.Inode inode,
      FileChannel real) {
    this.disk = disk;
    this.file = file;
    this.inode = inode;
    this.real = real;
  }

  @Override public int read(ByteBuffer dst) throws IOException {
    return real.read(dst);
  }

  @Override public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    return real.read(dsts, offset, length);
  }

  @Override public int read(ByteBuffer dst, long position) throws IOException {
    return real.read(dst, position);
  }

  @Override public int write(ByteBuffer src) throws IOException {
    disk.operation("write", file);
    return disk.tally(file, real.write(src));
  }

  @Override public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    disk.operation("write", file);
    return disk.tally(file, real.write(srcs, offset, length));
  }

  @Override public int write(ByteBuffer src, long position) throws IOException {
    disk.operation("write", file);
    return disk.tally(file, real.write(src, position));
  }

  @Override public long position() throws IOException {
    return real.position();
  }

  @Override public FileChannel position(long newPosition) throws IOException {
    real.position(newPosition);
    return this;
  }

  @Override public long size() throws IOException {
    return real.size();
  }

  @Override public FileChannel truncate(long size) throws IOException {
    disk.operation("truncate", file);
    real.truncate(size);
    return this;
  }

  @Override public void force(boolean metaData) throws IOException {
    disk.operation(inode == null ? "force directory" : "force", file);
    real.force(metaData);
    if (inode == null) {
      disk.forcedDirectory(file);
    } else {
      disk.forced(inode, real);
    }
  }

  @Override public long transferTo(long position, long count, WritableByteChannel target)
      throws IOException {
    return real.transferTo(position, count, target);
  }

  @Override public long transferFrom(ReadableByteChannel src, long position, long count)
      throws IOException {
    disk.operation("write", file);
    return real.transferFrom(src, position, count);
  }

  @Override public MappedByteBuffer map(MapMode mode, long position, long size)
      throws IOException {
    throw new IOException("a simulated disk maps no files: " + file);
  }

  @Override public FileLock lock(long position, long size, boolean shared) throws IOException {
    return real.lock(position, size, shared);
  }

  @Override public FileLock tryLock(long position, long size, boolean shared)
      throws IOException {
    return real.tryLock(position, size, shared);
  }

  @Override protected void implCloseChannel() throws IOException {
    real.close();
  }
}
