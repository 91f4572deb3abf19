package dev.freshet.planner.errors;

import dev.freshet.common.errors.SqlState;

/**
 * Factory of the errors the planner reports, each with a {@link SqlState}, what is wrong and how
 * to fix it.
 *
 * <pre>{@code
 * throw PlannerErrors.notValidOnStream("OFFSET is not supported on a stream", "Remove OFFSET");
 * }</pre>
 */
public final class PlannerErrors {
  private PlannerErrors() {
  }

  /** A validation error reported by Calcite's validator, with its position. */
  public static PlanningException validationError(String message, SqlState state,
      Throwable cause) {
    return new PlanningException(state, message, cause);
  }

  /** A stream that does not exist. */
  public static PlanningException streamNotFound(String name) {
    return new PlanningException(SqlState.OBJECT_NOT_FOUND, "Stream '" + name + "' not found."
        + " See SHOW STREAMS, or create it with CREATE STREAM " + name + " (...) WITH (connector"
        + " = 'memory').");
  }

  /**
   * An output mode that a query cannot run in; {@code rule} names the rule, {@code fix} the fix.
   */
  public static PlanningException outputModeNotSupported(String rule, String fix) {
    return new PlanningException(SqlState.NOT_VALID_ON_STREAM, rule + ". " + fix);
  }

  /**
   * An operation that a continuous query cannot have in any output mode, as Spark rejects it on a
   * stream; {@code rule} names the rule, {@code fix} the fix.
   */
  public static PlanningException notValidOnStream(String rule, String fix) {
    return new PlanningException(SqlState.NOT_VALID_ON_STREAM, rule + ". " + fix);
  }

  /** A statement, query shape or option Freshet does not support. */
  public static PlanningException notSupported(String what) {
    return new PlanningException(SqlState.FEATURE_NOT_SUPPORTED, what);
  }

  /**
   * A query shape Freshet does not support yet; {@code what} names it, {@code fix} says how to
   * change the query.
   */
  public static PlanningException notSupported(String what, String fix) {
    return new PlanningException(SqlState.FEATURE_NOT_SUPPORTED, what + ". " + fix);
  }

  /**
   * A HOP window that puts each row in more windows than {@code limit}: {@code windows} is
   * {@code ceil(size / slide)}.
   */
  public static PlanningException tooManyWindowsPerRow(long sizeMs, long slideMs, long windows,
      int limit) {
    long slideNeeded = (sizeMs + limit - 1) / limit;
    return new PlanningException(SqlState.PROGRAM_LIMIT_EXCEEDED, "A HOP window of size "
        + sizeMs + " ms and slide " + slideMs + " ms puts each row in " + windows
        + " windows (size / slide), more than the limit of " + limit + " windows per row."
        + " Use a slide of at least " + slideNeeded + " ms (or a smaller size), or raise the"
        + " limit with SET 'max.windows.per.row' = '" + Math.min(windows, Integer.MAX_VALUE)
        + "' before starting the query");
  }

  /**
   * A SESSION window whose gap is not a positive interval literal; {@code gap} says what it is
   * ({@code 0 ms}, or the expression).
   */
  public static PlanningException sessionGapNotPositive(String gap) {
    return new PlanningException(SqlState.INVALID_PARAMETER_VALUE, "The gap of a SESSION window"
        + " must be a positive interval literal, but it is " + gap + ". Use a gap such as"
        + " INTERVAL '5' MINUTE");
  }
}
