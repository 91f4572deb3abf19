package dev.freshet.engine;

import dev.freshet.sql.FreshetSqlParser;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;

/**
 * A view's definition as SQL's {@code INFORMATION_SCHEMA.VIEWS} gives it: the text of its query,
 * as the user wrote it, cut from the {@code CREATE MATERIALIZED VIEW} statement the catalog keeps.
 *
 * <pre>{@code
 * ViewDefinition.of("CREATE MATERIALIZED VIEW v AS SELECT k, COUNT(*) AS n FROM s GROUP BY k");
 * // "SELECT k, COUNT(*) AS n FROM s GROUP BY k"
 * }</pre>
 *
 * <p>The query is the statement's last part, so its text runs from where the parser found the
 * query to the end of the statement; the text, not the parsed tree unparsed, so that comments,
 * case and layout stay as written.
 */
final class ViewDefinition {
  private ViewDefinition() {
  }

  /** The query of {@code createStatement}, or the statement itself if it cannot be cut. */
  static String of(String createStatement) {
    String statement = createStatement.strip();
    if (statement.endsWith(";")) {
      statement = statement.substring(0, statement.length() - 1);
    }
    SqlNode node;
    try {
      node = FreshetSqlParser.parse(statement);
    } catch (SqlParseException e) {
      // The catalog holds statements that parsed when they ran; say what is kept rather than fail.
      return createStatement;
    }
    if (!(node instanceof SqlCreateMaterializedView create)) {
      return createStatement;
    }
    SqlParserPos pos = create.query.getParserPosition();
    if (pos.getLineNum() <= 0) {
      return createStatement;
    }
    int start = SqlParserUtil.lineColToIndex(statement, pos.getLineNum(), pos.getColumnNum());
    return statement.substring(start).strip();
  }
}
