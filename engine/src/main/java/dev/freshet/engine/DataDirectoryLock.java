package dev.freshet.engine;

import dev.freshet.engine.store.OwnerOnlyFiles;
import dev.freshet.executor.storage.DurableFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The OS file lock on {@code <dataDir>/lock} an engine holds while it uses its data directory:
 * two engines appending to one stream log would interleave their records and corrupt it.
 *
 * <pre>{@code
 * DataDirectoryLock lock = DataDirectoryLock.acquire(dataDir);   // fails if another engine has it
 * ...
 * lock.release();
 * }</pre>
 */
final class DataDirectoryLock {
  private final Path dataDir;
  private final FileLock lock;

  private DataDirectoryLock(Path dataDir, FileLock lock) {
    this.dataDir = dataDir;
    this.lock = lock;
  }

  /**
   * Creates {@code dataDir} if needed (its owner's alone) and locks it.
   *
   * @throws UncheckedIOException if it cannot be created, or another engine (in this process or
   *     another) holds it; its message says which and what to do
   */
  static DataDirectoryLock acquire(Path dataDir) {
    Path file = dataDir.resolve("lock");
    FileChannel channel = null;
    try {
      DurableFiles.createDirectories(dataDir);
      // It holds the catalog, the secrets and every stream's rows: its owner's alone.
      OwnerOnlyFiles.directory(dataDir);
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        channel.close();
        String message = "Data directory " + dataDir + " is in use by another Freshet engine,"
            + " which holds " + file + ". Stop that engine, or use another data directory";
        throw new UncheckedIOException(message, new IOException(message));
      }
      // For whoever looks: which process holds the lock. The OS lock is what counts.
      channel.truncate(0);
      channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n")
          .getBytes(StandardCharsets.US_ASCII)));
      return new DataDirectoryLock(dataDir, lock);
    } catch (IOException e) {
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw new UncheckedIOException("Cannot use data directory " + dataDir + " (" + e + ")", e);
    }
  }

  /** Releases the lock; idempotent. */
  void release() {
    if (lock.channel().isOpen()) {
      try {
        lock.channel().close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot release " + dataDir.resolve("lock"), e);
      }
    }
  }
}
