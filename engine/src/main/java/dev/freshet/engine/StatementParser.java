package dev.freshet.engine;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.errors.Failures;
import dev.freshet.sql.FreshetSqlParser;
import java.sql.SQLException;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Parses one statement with Freshet's grammar, reporting what cannot be parsed as a syntax
 * error (42601) at its line and column, and a statement nested too deeply to parse as too
 * complex (54001).
 *
 * <pre>{@code
 * SqlNode node = StatementParser.parse("SELECT * FROM clicks");
 * }</pre>
 */
final class StatementParser {
  private StatementParser() {
  }

  /**
   * The statement {@code sql} holds.
   *
   * @throws SQLException if it is empty or cannot be parsed
   */
  static SqlNode parse(String sql) throws SQLException {
    if (sql.isBlank()) {
      throw Errors.of(SqlState.SYNTAX_ERROR, "The statement is empty. Send one SQL statement,"
          + " such as SELECT 1");
    }
    try {
      return FreshetSqlParser.parse(sql);
    } catch (StackOverflowError e) {
      throw Failures.tooComplex(e);
    } catch (SqlParseException e) {
      for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
        if (t instanceof StackOverflowError) {
          throw Failures.tooComplex(e);
        }
      }
      SqlParserPos pos = e.getPos();
      String message = e.getMessage() == null ? "the statement cannot be parsed"
          : e.getMessage();
      int newline = message.indexOf('\n');
      String first = newline < 0 ? message : message.substring(0, newline);
      // Calcite ends its first line with the position, which the error names already.
      first = first.replaceFirst(" at line \\d+, column \\d+\\.?$", ".");
      throw Errors.parseError(first, pos == null ? 0 : pos.getLineNum(),
          pos == null ? 0 : pos.getColumnNum(), e);
    }
  }
}
