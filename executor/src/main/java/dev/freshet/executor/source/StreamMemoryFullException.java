package dev.freshet.executor.source;

/**
 * An {@code INSERT} refused because a stream kept in memory only (no data directory) holds as
 * many bytes of rows as its memory bound allows, and a query reading it has not committed past
 * them: the stream has no log to let them go to, and dropping them would lose them silently.
 *
 * <pre>{@code
 * try {
 *   stream.addData(rows);
 * } catch (StreamMemoryFullException e) {
 *   e.laggingQuery();   // the query whose position keeps the rows, e.g. "TOTALS"
 * }
 * }</pre>
 */
public final class StreamMemoryFullException extends RuntimeException {
  private final String stream;
  private final String laggingQuery;

  StreamMemoryFullException(String stream, String laggingQuery, long heldBytes, long maxBytes) {
    super("Stream " + stream + " keeps " + heldBytes + " bytes of rows in memory, its bound"
        + " 'memory.max' = " + maxBytes + ", and query " + laggingQuery + " has not read past"
        + " them yet; the stream has no data directory to keep them on disk. Insert more"
        + " slowly, speed up or stop query " + laggingQuery + ", give the stream a larger"
        + " 'memory.max', or run the engine with a data directory");
    this.stream = stream;
    this.laggingQuery = laggingQuery;
  }

  /** The stream's name. */
  public String stream() {
    return stream;
  }

  /** The query that has read the least of the stream. */
  public String laggingQuery() {
    return laggingQuery;
  }
}
