package dev.freshet.executor.limits;

/**
 * Ends a batch that was running when its query was asked to stop: the batch is aborted, not
 * committed, and the query stops without a failure (a restart runs the batch again).
 */
public final class QueryCancelledException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  QueryCancelledException(String query) {
    super("Query " + query + " was stopped while a batch ran", null, false, false);
  }
}
