package dev.freshet.executor.source;

/**
 * Source of which each streaming query reads through an instance of its own, with its own read
 * positions and connections, as each Spark query gets its own {@code MicroBatchStream}: the
 * stream's source describes the data; its readers read it. A reader is closed when its query
 * stops.
 *
 * <pre>{@code
 * Source reader = stream instanceof SupportsQueryReaders shared ? shared.newQueryReader() : stream;
 * // ... run the query on reader; MicroBatchExecution closes a QueryReader when the query stops
 * }</pre>
 */
public interface SupportsQueryReaders extends Source {
  /** A new reader for one query; whoever runs the query closes it. */
  QueryReader newQueryReader();
}
