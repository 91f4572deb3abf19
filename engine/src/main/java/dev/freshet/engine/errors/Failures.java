package dev.freshet.engine.errors;

import dev.freshet.common.errors.SqlState;
import dev.freshet.connectors.sink.SinkException;
import dev.freshet.executor.source.ReferenceDataException;
import dev.freshet.executor.source.SourceRecordException;
import dev.freshet.executor.source.SourceUnavailableException;
import java.sql.SQLException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a throwable that escaped a statement means to its user: the {@link SQLException} with the
 * SQLSTATE of the condition behind it, however deep Calcite, Janino or H2 wrapped it. A statement
 * nested so deeply that parsing or planning overflows the stack is {@code 54001}; a division by
 * zero {@code 22012}; an arithmetic overflow {@code 22003}; text that is not a number
 * {@code 22018}; anything else is an internal error, {@code XX000}, naming what failed.
 *
 * <pre>{@code
 * try {
 *   return run(sql);
 * } catch (RuntimeException | StackOverflowError | ExceptionInInitializerError e) {
 *   throw Failures.toSqlException(e);
 * }
 * }</pre>
 */
public final class Failures {
  /** How deep a cause chain is searched; cycles and absurd chains end there. */
  private static final int MAX_CAUSES = 32;
  /** How Calcite's DateTimeUtils refuses a text it cannot read as a date or time. */
  private static final Pattern DATETIME_TEXT =
      Pattern.compile("Invalid (DATE|TIME|TIMESTAMP) value, '.*'", Pattern.DOTALL);

  private Failures() {
  }

  /**
   * {@code failure} as a user reads it where a query's last error is shown ({@code
   * sys.queries.last_error}, the web UI): its SQLSTATE and message, e.g. {@code 22012: Division
   * by zero. Guard the divisor, ...} rather than Java's {@code ArithmeticException: / by zero}.
   */
  public static String describe(Throwable failure) {
    SQLException e = toSqlException(failure);
    return e.getSQLState() + ": " + (e.getMessage() == null ? failure.toString()
        : e.getMessage());
  }

  /** The SQLException {@code failure} stands for; a SQLException with a SQLSTATE is kept. */
  public static SQLException toSqlException(Throwable failure) {
    Throwable t = failure;
    for (int depth = 0; t != null && depth < MAX_CAUSES; depth++, t = t.getCause()) {
      if (t instanceof SQLException e && e.getSQLState() != null) {
        return e;
      }
      if (t instanceof SourceRecordException) {
        // The message names the record and says what to do.
        return Errors.of(SqlState.DATA_EXCEPTION, t.getMessage(), failure);
      }
      if (t instanceof SinkException || t instanceof ReferenceDataException) {
        // The target's own condition where it gave one (a constraint, a lost connection); the
        // message names the sink or table.
        SqlState state = t.getCause() instanceof SQLException target
            && target.getSQLState() != null
            ? SqlState.of(target.getSQLState()).orElse(SqlState.IO_ERROR) : SqlState.IO_ERROR;
        return Errors.of(state, t.getMessage(), failure);
      }
      if (t instanceof SourceUnavailableException) {
        return Errors.of(SqlState.UNABLE_TO_CONNECT, t.getMessage(), failure);
      }
      if (t instanceof StackOverflowError) {
        return tooComplex(failure);
      }
      if (t instanceof ArithmeticException) {
        return arithmetic(t, failure);
      }
      if (t instanceof IllegalArgumentException && t.getMessage() != null
          && DATETIME_TEXT.matcher(t.getMessage()).matches()) {
        // Calcite's reading of a text literal where a DATE, TIME or TIMESTAMP is compared,
        // e.g. ts > '2026-12-07T22:00:00Z' (ISO 8601, as Grafana writes it).
        return Errors.of(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST, "A text value cannot be"
            + " read as a date or time (" + t.getMessage() + "). Write a TIMESTAMP as"
            + " 'yyyy-MM-dd HH:mm:ss[.fff]' (no T, no zone), a DATE as 'yyyy-MM-dd' and a TIME"
            + " as 'HH:mm:ss[.fff]', or compare with a TIMESTAMP '...' literal", failure);
      }
      if (t instanceof NumberFormatException) {
        return Errors.of(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST, "A text value cannot be read"
            + " as a number (" + t.getMessage() + "). Compare and compute numbers with numbers,"
            + " or CAST only text that holds a number", failure);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return Errors.of(SqlState.INTERNAL_ERROR, "Freshet failed on this statement with an internal"
        + " error: " + failure + ". This is a bug: please report it with the statement", failure);
  }

  /**
   * What a continuous query's failure means to its reader, as the SQLSTATE of the condition and
   * its message (22012 for a division by zero, ...); empty when it is an internal failure, which
   * the caller reports in its own words.
   */
  public static Optional<Condition> condition(Throwable failure) {
    SQLException e = toSqlException(failure);
    return SqlState.of(e.getSQLState()).filter(state -> state != SqlState.INTERNAL_ERROR)
        .map(state -> new Condition(state, e.getMessage()));
  }

  /** A failure's condition: its SQLSTATE and the message that says what to do. */
  public record Condition(SqlState state, String message) {
  }

  /** The error of a statement whose parsing or planning overflowed the stack. */
  public static SQLException tooComplex(Throwable cause) {
    return Errors.of(SqlState.STATEMENT_TOO_COMPLEX, "The statement is too complex: it nests too"
        + " deeply to be parsed or planned (hundreds of nested parentheses or subqueries, or an"
        + " expression of thousands of terms). Split it into smaller statements or views", cause);
  }

  private static SQLException arithmetic(Throwable arithmetic, Throwable failure) {
    String message = String.valueOf(arithmetic.getMessage());
    if (message.contains("by zero") || message.contains("Division undefined")) {
      return Errors.of(SqlState.DIVISION_BY_ZERO, "Division by zero. Guard the divisor, e.g."
          + " x / NULLIF(y, 0), which gives NULL where y is 0", failure);
    }
    if (message.contains("overflow") || message.contains("out of range")) {
      return Errors.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "A number is out of the range of its"
          + " type (" + message + "). CAST to a wider type, e.g. BIGINT or DECIMAL(38, 0), before"
          + " computing", failure);
    }
    return Errors.of(SqlState.DATA_EXCEPTION, "An arithmetic operation failed: " + message
        + ". Check the values the expression computes with", failure);
  }
}
