package dev.freshet.connectors.filesystem;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.freshet.connectors.format.RecordDecoder;
import dev.freshet.executor.source.QueryReader;
import dev.freshet.executor.source.SourceRecordException;
import dev.freshet.executor.source.SourceUnavailableException;
import dev.freshet.executor.source.SupportsAdmissionControl;
import dev.freshet.executor.source.SupportsDroppedRecords;
import dev.freshet.executor.source.SupportsJsonOffsets;
import dev.freshet.executor.source.SupportsMetadataDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * One query's reader of a directory: each file that appears in it is read once, as Spark's
 * {@code FileStreamSource} reads files.
 *
 * <p><b>Discovery.</b> When the query first asks for an offset, the reader lists the directory
 * on the caller's thread (so a bounded query, or {@code processAllAvailable}, sees the files
 * there now), then a watcher thread of its own lists it again whenever the file system reports a
 * new name ({@link WatchService}) and at least every {@link FileSourceSpec#monitorInterval()}
 * (a file system that reports nothing, a missed event): no busy polling. A listing takes the
 * regular files it has not taken before, by modification time then path, and adds them to the
 * {@link FileSourceLog} as new entries of at most {@code 'source.max-files-per-batch'} files
 * each; then it wakes the query. Names starting with {@code .} or {@code _} are skipped, as
 * Spark and Hadoop skip them, and so are subdirectories. A file is known by its path: one that
 * is replaced under a name already taken is not read again.
 *
 * <p><b>Only whole files.</b> A file is read once, as it is when its batch runs, so a writer
 * must put a finished file into the directory in one step: write it elsewhere on the same file
 * system (or under a name starting with {@code .} or {@code _}) and move it in
 * ({@code mv}, {@code Files.move(..., ATOMIC_MOVE)}). A file must stay until every query over
 * the stream has read it, and never change: a batch that runs again after a crash reads it
 * again.
 *
 * <p><b>Offsets.</b> The {@code long} offsets are the log's offsets: offset {@code N} stands for
 * the files of entries {@code 1..N}; the offset log holds {@code {"logOffset":N}} as Spark's. An
 * entry is durable before the offset is handed out, so before the offset log can name it; after
 * a crash the log's entries tell which files were taken, and the files of entries past the last
 * committed offset are read by the next batches. Files that appeared while the query was down
 * are found by the first listing. In a query's checkpoint the log is {@code sources/0/}
 * ({@link SupportsMetadataDirectory}); a query without checkpoint keeps it in memory, and so
 * reads every file in the directory when it starts.
 *
 * <p><b>Lines.</b> Each line of a file (UTF-8, {@code \n} or {@code \r\n}) is one row: a JSON
 * object, or a CSV record (a quoted field cannot span lines); empty lines are skipped. A line
 * that is not a row of the stream fails the query naming the file and line
 * ({@link SourceRecordException}), or is skipped and counted ({@link SupportsDroppedRecords})
 * with {@code 'format.ignore-parse-errors'}. {@code 'source.max-files-per-batch'} limits the
 * files one batch reads (at least one entry, and entries are no larger than the limit).
 */
final class FileQueryReader implements QueryReader, SupportsJsonOffsets, SupportsAdmissionControl,
    SupportsDroppedRecords, SupportsMetadataDirectory {
  private static final JsonFactory JSON = new JsonFactory();
  /** How large a buffer one file is read through. */
  private static final int READ_BUFFER = 64 * 1024;

  private final FileSourceSpec spec;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final LongAdder dropped = new LongAdder();

  /** Guards the fields below; the watcher waits on it where there is no watch service. */
  private final Object lock = new Object();
  /** Where the log lives, for a checkpointed query; null for one in memory. */
  private Path metadataDirectory;
  /** Null until the first offset is asked for. */
  private FileSourceLog log;
  /** Why the watcher stopped, if it failed: the query fails with it. */
  private RuntimeException failure;
  private Thread watcher;
  private volatile boolean closed;
  private volatile WatchService watchService;

  /** The batch thread's; made at the first read. */
  private RecordDecoder decoder;

  FileQueryReader(FileSourceSpec spec) {
    this.spec = spec;
  }

  @Override public String description() {
    return "FileSource[" + spec.directory() + "]";
  }

  @Override public void useMetadataDirectory(Path directory) {
    synchronized (lock) {
      if (log != null) {
        throw new IllegalStateException(description() + " was read before it was given its"
            + " checkpoint directory " + directory);
      }
      metadataDirectory = directory;
    }
  }

  @Override public long latestOffset() {
    return log().latest();
  }

  @Override public long latestOffset(long startOffset) {
    FileSourceLog files = log();
    long latest = files.latest();
    if (spec.maxFilesPerBatch().isEmpty() || latest <= startOffset) {
      return latest;
    }
    int max = spec.maxFilesPerBatch().getAsInt();
    long end = startOffset;
    int taken = 0;
    for (long n = startOffset + 1; n <= latest; n++) {
      int more = files.get(n).size();
      if (end > startOffset && taken + more > max) {
        break;
      }
      taken += more;
      end = n;
    }
    return end;
  }

  @Override public String offsetJson(long offset) {
    if (offset < 0) {
      throw new IllegalArgumentException("no log offset " + offset);
    }
    return "{\"logOffset\":" + offset + "}";
  }

  @Override public long restoreOffset(String json) {
    long offset = parseLogOffset(json);
    log();
    return offset;
  }

  @Override public void restoreInitialOffset(String json) {
    if (parseLogOffset(json) != 0) {
      throw new IllegalArgumentException("a file source starts at {\"logOffset\":0}, not "
          + json);
    }
  }

  @Override public long droppedRecords() {
    return dropped.sum();
  }

  @Override public AutoCloseable onNewData(Runnable listener) {
    listeners.add(listener);
    log();
    return () -> listeners.remove(listener);
  }

  @Override public void readRange(long start, long end, Consumer<Object[]> rows) {
    FileSourceLog files = log();
    if (decoder == null) {
      decoder = spec.format().decoder(spec.columns());
    }
    for (long n = start + 1; n <= end; n++) {
      for (LoggedFile file : files.get(n)) {
        readFile(Path.of(file.path()), rows);
      }
    }
  }

  @Override public void close() {
    Thread thread;
    synchronized (lock) {
      closed = true;
      thread = watcher;
      lock.notifyAll();
    }
    WatchService watching = watchService;
    if (watching != null) {
      try {
        watching.close();
      } catch (IOException e) {
        // Closing only ends the watcher's wait; nothing was written.
      }
    }
    if (thread != null && thread != Thread.currentThread()) {
      try {
        thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The log, opened, listed once and watched from the first call on; throws what stopped the
   * watcher, if something did.
   */
  private FileSourceLog log() {
    synchronized (lock) {
      if (failure != null) {
        throw failure;
      }
      if (log == null) {
        FileSourceLog opened = metadataDirectory == null ? FileSourceLog.inMemory()
            : FileSourceLog.open(metadataDirectory);
        // No listener to wake: whoever asked sees the files in the answer (and waking the query
        // here, under this lock, could deadlock with a query asking for an offset).
        discover(opened, false);
        log = opened;
        if (!closed) {
          watcher = new Thread(() -> watch(opened), "freshet-files-" + spec.stream());
          watcher.setDaemon(true);
          watcher.start();
        }
      }
      return log;
    }
  }

  /**
   * Lists the directory and logs the files it has not taken yet, at most
   * {@code 'source.max-files-per-batch'} to an entry; if there were any and {@code wake}, wakes
   * the query. Only one thread at a time: the first caller of {@link #log()}, then the watcher.
   */
  private void discover(FileSourceLog files, boolean wake) {
    List<LoggedFile> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(spec.directory())) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.startsWith(".") || name.startsWith("_") || files.contains(entry.toString())) {
          continue;
        }
        BasicFileAttributes attributes;
        try {
          // Without following a link, a link is no regular file, and so is not taken.
          attributes = Files.readAttributes(entry, BasicFileAttributes.class, linkOptions());
        } catch (NoSuchFileException gone) {
          continue;   // moved away between the listing and now
        }
        if (attributes.isRegularFile()) {
          found.add(new LoggedFile(entry.toString(), attributes.lastModifiedTime().toMillis()));
        }
      }
    } catch (NoSuchFileException e) {
      throw new SourceUnavailableException("The directory " + spec.directory() + " of stream "
          + spec.stream() + " does not exist. Create it, or declare the stream with another"
          + " 'path'", e);
    } catch (IOException e) {
      throw new SourceUnavailableException("The directory " + spec.directory() + " of stream "
          + spec.stream() + " cannot be listed: " + e, e);
    }
    if (found.isEmpty()) {
      return;
    }
    // Spark's order: oldest first; the path breaks ties, so that a listing's order is stable.
    found.sort(Comparator.comparingLong(LoggedFile::modificationTimeMs)
        .thenComparing(LoggedFile::path));
    int perEntry = spec.maxFilesPerBatch().orElse(found.size());
    for (int from = 0; from < found.size(); from += perEntry) {
      files.add(files.latest() + 1, found.subList(from, Math.min(found.size(), from + perEntry)));
    }
    if (wake) {
      for (Runnable listener : listeners) {
        listener.run();
      }
    }
  }

  /** The watcher's loop: a listing after each change the file system reports, or each interval. */
  private void watch(FileSourceLog files) {
    WatchService watching = null;
    try {
      watching = spec.directory().getFileSystem().newWatchService();
      spec.directory().register(watching, ENTRY_CREATE, ENTRY_MODIFY);
      watchService = watching;
    } catch (IOException | UnsupportedOperationException e) {
      // Listing every interval alone still finds every file, only later.
      closeQuietly(watching);
      watching = null;
    }
    long intervalMs = Math.max(1, spec.monitorInterval().toMillis());
    try {
      while (!closed) {
        if (watching != null) {
          WatchKey key = watching.poll(intervalMs, TimeUnit.MILLISECONDS);
          if (key != null) {
            key.pollEvents();
            key.reset();
          }
        } else {
          synchronized (lock) {
            if (!closed) {
              lock.wait(intervalMs);
            }
          }
        }
        if (!closed) {
          discover(files, true);
        }
      }
    } catch (ClosedWatchServiceException | InterruptedException e) {
      // close() ended the wait.
    } catch (RuntimeException e) {
      synchronized (lock) {
        failure = e;
      }
      // The query asks for an offset and fails with it.
      for (Runnable listener : listeners) {
        listener.run();
      }
    } finally {
      closeQuietly(watching);
    }
  }

  private static void closeQuietly(WatchService watching) {
    if (watching != null) {
      try {
        watching.close();
      } catch (IOException e) {
        // Nothing to do: it only watched.
      }
    }
  }

  /** How entries are looked at and opened: see {@link FileSourceSpec#followLinks}. */
  private LinkOption[] linkOptions() {
    return spec.followLinks() ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
  }

  /** Hands every line of {@code file} to {@code rows} as a row. */
  private void readFile(Path file, Consumer<Object[]> rows) {
    // Opened without following a link too: a file replaced by a link since it was found.
    try (InputStream in = Files.newInputStream(file, linkOptions())) {
      byte[] buffer = new byte[READ_BUFFER];
      byte[] line = new byte[256];
      int length = 0;
      long lineNumber = 0;
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        for (int i = 0; i < n; i++) {
          byte b = buffer[i];
          if (b == '\n') {
            emit(file, ++lineNumber, line, length, rows);
            length = 0;
            continue;
          }
          if (length == line.length) {
            line = Arrays.copyOf(line, line.length * 2);
          }
          line[length++] = b;
        }
      }
      if (length > 0) {
        emit(file, ++lineNumber, line, length, rows);
      }
    } catch (NoSuchFileException e) {
      throw new SourceUnavailableException("The file " + file + " of stream " + spec.stream()
          + " was taken for reading but is gone. A file must stay in the directory until every"
          + " query over the stream has read it", e);
    } catch (IOException e) {
      throw new SourceUnavailableException("The file " + file + " of stream " + spec.stream()
          + " cannot be read: " + e, e);
    }
  }

  /** Hands one line to {@code rows} as a row, skips it if empty, or counts it as dropped. */
  private void emit(Path file, long lineNumber, byte[] line, int length,
      Consumer<Object[]> rows) {
    int end = length;
    if (end > 0 && line[end - 1] == '\r') {
      end--;
    }
    if (isBlank(line, end)) {
      return;
    }
    Object[] row = new Object[spec.columns().size()];
    try {
      decoder.decode(Arrays.copyOf(line, end), row);
    } catch (IllegalArgumentException e) {
      if (spec.ignoreParseErrors()) {
        dropped.increment();
        return;
      }
      throw new SourceRecordException("Line " + lineNumber + " of file " + file + " is not a row"
          + " of stream " + spec.stream() + " (format " + spec.format().text() + "): "
          + e.getMessage() + ". Fix the file, or skip such lines with"
          + " 'format.ignore-parse-errors' = 'true' (they are counted in sys.query_progress)", e);
    }
    rows.accept(row);
  }

  private static boolean isBlank(byte[] line, int length) {
    for (int i = 0; i < length; i++) {
      if (line[i] != ' ' && line[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  /** {@code N} of {@code {"logOffset":N}}. */
  private static long parseLogOffset(String json) {
    try (JsonParser parser = JSON.createParser(json)) {
      if (parser.nextToken() == JsonToken.START_OBJECT
          && parser.nextToken() == JsonToken.FIELD_NAME
          && parser.currentName().equals("logOffset")
          && parser.nextToken() == JsonToken.VALUE_NUMBER_INT) {
        long offset = parser.getLongValue();
        if (offset >= 0 && parser.nextToken() == JsonToken.END_OBJECT
            && parser.nextToken() == null) {
          return offset;
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("not a file source offset ({\"logOffset\":N}): " + json,
          e);
    }
    throw new IllegalArgumentException("not a file source offset ({\"logOffset\":N}): " + json);
  }
}
