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
    this("Stream " + stream + " keeps " + heldBytes + " bytes of rows in memory, its bound"
        + " 'memory.max' = " + maxBytes + ", and query " + laggingQuery + " has not read past"
        + " them yet; the stream has no data directory to keep them on disk. Insert more"
        + " slowly, speed up or stop query " + laggingQuery + ", give the stream a larger"
        + " 'memory.max', or run the engine with a data directory", stream, laggingQuery);
  }

  private StreamMemoryFullException(String message, String stream, String laggingQuery) {
    super(message);
    this.stream = stream;
    this.laggingQuery = laggingQuery;
  }

  /**
   * The refusal when the engine's streams together keep their bound ({@link StreamMemoryPool})
   * and this stream's rows are still needed by {@code laggingQuery}.
   */
  static StreamMemoryFullException ofAllStreams(String stream, String laggingQuery,
      long heldBytes, long poolUsedBytes, long poolMaxBytes) {
    return new StreamMemoryFullException("The engine's streams keep " + poolUsedBytes
        + " bytes of rows in memory together, their bound of " + poolMaxBytes + " bytes (a fifth"
        + " of the heap); stream " + stream + " keeps " + heldBytes + " of them, which query "
        + laggingQuery + " has not read past yet, and has no data directory to keep them on"
        + " disk. Insert more slowly, speed up or stop query " + laggingQuery + ", give the"
        + " streams whose readers lag a smaller 'memory.max', run the engine with a larger heap,"
        + " or with a data directory", stream, laggingQuery);
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
