package dev.freshet.connectors.filesystem;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.source.QueryReader;
import dev.freshet.executor.source.SupportsQueryReaders;

/**
 * A directory whose files are a stream's rows: it describes the directory and hands each
 * continuous query a {@link FileQueryReader} of its own, which keeps the list of the files that
 * query has read (Spark's file source is per query too). It has no offsets itself: a plain query
 * cannot read it, since more files may come.
 *
 * <pre>{@code
 * FileSystemSource orders = new FileSystemSource(spec);
 * QueryReader reader = orders.newQueryReader();   // for one query; the query closes it
 * }</pre>
 */
public final class FileSystemSource implements SupportsQueryReaders {
  private final FileSourceSpec spec;

  /** The directory of {@code spec}; nothing is listed until a query reads it. */
  public FileSystemSource(FileSourceSpec spec) {
    this.spec = requireNonNull(spec, "spec");
  }

  /** What the stream reads and how. */
  public FileSourceSpec spec() {
    return spec;
  }

  @Override public String description() {
    return "FileSource[" + spec.directory() + "]";
  }

  @Override public QueryReader newQueryReader() {
    return new FileQueryReader(spec);
  }
}
