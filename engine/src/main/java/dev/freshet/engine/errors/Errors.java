package dev.freshet.engine.errors;

import dev.freshet.common.errors.SqlErrors;
import dev.freshet.common.errors.SqlState;
import dev.freshet.planner.errors.PlanningException;
import java.sql.SQLException;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The one factory of the {@link SQLException}s that the engine and the embedded driver report:
 * each has a {@link SqlState}, what is wrong and how to fix it, and is of the JDBC subclass that
 * its state's class calls for. The planner's errors become SQLExceptions here, at the engine's
 * calls into the planner.
 *
 * <pre>{@code
 * throw Errors.of(SqlState.INVALID_PARAMETER_VALUE, "Version 7 is not kept. ...");
 * PlannedQuery plan = Errors.fromPlanner(() -> planner.planQuery(query, emit, 1));
 * }</pre>
 */
public final class Errors {
  /** The longest message an error carries; see {@link SqlErrors#MAX_MESSAGE_LENGTH}. */
  public static final int MAX_MESSAGE_LENGTH = SqlErrors.MAX_MESSAGE_LENGTH;

  private Errors() {
  }

  /** {@code message}, cut to {@link #MAX_MESSAGE_LENGTH} characters, saying how much was cut. */
  static String capped(String message) {
    return SqlErrors.capped(message);
  }

  /** A call into the planner, which reports what it cannot plan as a PlanningException. */
  @FunctionalInterface
  public interface PlannerCall<T> {
    T call() throws PlanningException;
  }

  /** The value of {@code call}, whose planning error becomes the SQLException with its state. */
  public static <T> T fromPlanner(PlannerCall<T> call) throws SQLException {
    try {
      return call.call();
    } catch (PlanningException e) {
      throw toSqlException(e);
    }
  }

  /** The planner's error as JDBC reports it: same state and message, the planner's as cause. */
  public static SQLException toSqlException(PlanningException e) {
    return of(e.state(), e.getMessage(), e);
  }

  /** An error with {@code state}; {@code message} says what is wrong and how to fix it. */
  public static SQLException of(SqlState state, String message) {
    return of(state, message, null);
  }

  /** An error with {@code state} and the failure that showed it: see {@link SqlErrors#of}. */
  public static SQLException of(SqlState state, String message, @Nullable Throwable cause) {
    return SqlErrors.of(state, message, cause);
  }

  /** A parse error at a position. */
  public static SQLException parseError(String message, int line, int column, Throwable cause) {
    return of(SqlState.SYNTAX_ERROR, "Syntax error at line " + line + ", column " + column + ": "
        + message, cause);
  }

  /** A statement, query shape or option Freshet does not support. */
  public static SQLException notSupported(String what) {
    return of(SqlState.FEATURE_NOT_SUPPORTED, what);
  }

  /** A query Freshet does not support, with the failure that showed it. */
  public static SQLException notSupported(String what, Throwable cause) {
    return of(SqlState.FEATURE_NOT_SUPPORTED, what, cause);
  }

  /**
   * A plain query whose result would hold more rows than the session's {@code 'pull.max.rows'}
   * (54000): it fails rather than fill the server's memory.
   */
  public static SQLException resultTooLarge(int maxRows) {
    return of(SqlState.PROGRAM_LIMIT_EXCEEDED, "The query's result has more than " + maxRows
        + " rows, the limit of option 'pull.max.rows'. Add a WHERE or a LIMIT, aggregate, or"
        + " raise the limit with SET 'pull.max.rows' = '...'");
  }

  /** A malformed value, e.g. in an option or a watermark declaration. */
  public static SQLException invalidDefinition(String message) {
    return of(SqlState.SYNTAX_ERROR, message);
  }
}
