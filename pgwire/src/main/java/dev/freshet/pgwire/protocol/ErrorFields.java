package dev.freshet.pgwire.protocol;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The fields of an ErrorResponse or NoticeResponse: severity, SQLSTATE, message, and the detail
 * and hint PostgreSQL's clients show on lines of their own ({@code HINT: ...} in psql,
 * {@code ServerErrorMessage.getHint()} in pgjdbc).
 *
 * <pre>{@code
 * ErrorFields.of(new SQLException("Stream 'X' does not exist. Create it with CREATE STREAM",
 *     "42P01"));   // message "Stream 'X' does not exist", hint "Create it with CREATE STREAM"
 * }</pre>
 *
 * @param severity ERROR, FATAL, WARNING, NOTICE
 * @param sqlState five characters
 * @param message the primary message
 * @param detail more on the problem, or null
 * @param hint how to fix it, or null
 */
record ErrorFields(String severity, String sqlState, String message, @Nullable String detail,
    @Nullable String hint) {
  /** The state of an error that carries none: PostgreSQL's internal_error. */
  static final String INTERNAL_ERROR = "XX000";

  ErrorFields {
    requireNonNull(severity, "severity");
    requireNonNull(sqlState, "sqlState");
    requireNonNull(message, "message");
  }

  /** An ERROR for {@code e}. */
  static ErrorFields of(SQLException e) {
    return of("ERROR", e);
  }

  /**
   * {@code e} with {@code severity}. Freshet's messages say what is wrong, then how to fix it:
   * the first sentence is the message, the rest the hint.
   */
  static ErrorFields of(String severity, SQLException e) {
    String state = e.getSQLState() != null && e.getSQLState().length() == 5 ? e.getSQLState()
        : INTERNAL_ERROR;
    String text = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int split = sentenceEnd(text);
    if (split < 0) {
      return new ErrorFields(severity, state, text, null, null);
    }
    return new ErrorFields(severity, state, text.substring(0, split),
        null, text.substring(split + 2).trim());
  }

  /** A message of {@code severity} and {@code state}, without hint. */
  static ErrorFields of(String severity, String state, String message) {
    return new ErrorFields(severity, state, message, null, null);
  }

  /**
   * Where the first sentence of {@code text} ends: a period followed by a space and a capital
   * letter, outside quotes (a quoted statement may hold periods); -1 if it is one sentence.
   */
  private static int sentenceEnd(String text) {
    char quote = 0;
    for (int i = 0; i + 2 < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == quote && !Character.isLetterOrDigit(text.charAt(i + 1))) {
          quote = 0;
        }
      } else if ((c == '\'' || c == '"')
          && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)))) {
        // An opening quote, not the apostrophe of "doesn't".
        quote = c;
      } else if (c == '.' && text.charAt(i + 1) == ' '
          && Character.isUpperCase(text.charAt(i + 2))) {
        return i;
      }
    }
    return -1;
  }
}
