package dev.freshet.executor.source;

/**
 * One query's reader of a {@link SupportsQueryReaders} source: its own positions and connections.
 * The query that reads it closes it when it stops, on any path.
 *
 * <pre>{@code
 * QueryReader reader = topic.newQueryReader();
 * ... reader.readRange(start, end, rows) ...
 * reader.close();
 * }</pre>
 */
public interface QueryReader extends Source, AutoCloseable {
  /** Closes the reader's connections and threads; it never fails. */
  @Override void close();
}
