package dev.freshet.executor.limits;

/**
 * A query whose estimated memory would exceed its own budget or its engine's: the batch that
 * asked for it fails, and with it the query, while the other queries go on.
 */
public final class MemoryBudgetExceededException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Which budget was exceeded. */
  public enum Scope {
    /** The query's own budget. */
    QUERY,
    /** The budget of all the engine's queries together. */
    ENGINE
  }

  private final String query;
  private final Scope scope;
  private final long budgetBytes;
  private final long neededBytes;

  MemoryBudgetExceededException(String query, Scope scope, long budgetBytes, long neededBytes) {
    super(scope == Scope.QUERY
        ? "Query " + query + " needs an estimated " + neededBytes + " bytes for its state and"
          + " batch, more than its memory budget of " + budgetBytes + " bytes"
        : "Query " + query + " would take the estimated memory of all the engine's queries to "
          + neededBytes + " bytes, more than the engine's memory budget of " + budgetBytes
          + " bytes");
    this.query = query;
    this.scope = scope;
    this.budgetBytes = budgetBytes;
    this.neededBytes = neededBytes;
  }

  /** The name of the query that failed. */
  public String query() {
    return query;
  }

  public Scope scope() {
    return scope;
  }

  /** The budget that was exceeded, in bytes. */
  public long budgetBytes() {
    return budgetBytes;
  }

  /** The estimate that exceeded it: the query's own, or for the engine's, the sum with it. */
  public long neededBytes() {
    return neededBytes;
  }
}
