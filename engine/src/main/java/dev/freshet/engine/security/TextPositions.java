package dev.freshet.engine.security;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Turns the parser's positions (line and column, from 1) in a text into offsets, to replace
 * exactly the text of a node. The parser ends a line at {@code \n}, {@code \r} or {@code \r\n},
 * and counts a tab as one column.
 *
 * <pre>{@code
 * TextPositions text = new TextPositions(sql);
 * sql.substring(text.start(pos), text.end(pos));   // the node's text
 * }</pre>
 */
final class TextPositions {
  /** The offset of each line's first character; line 1 at index 0. */
  private final List<Integer> lineStarts = new ArrayList<>();

  TextPositions(String text) {
    lineStarts.add(0);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n'))) {
        lineStarts.add(i + 1);
      }
    }
  }

  /** The offset of the first character {@code pos} spans. */
  int start(SqlParserPos pos) {
    return lineStarts.get(pos.getLineNum() - 1) + pos.getColumnNum() - 1;
  }

  /** The offset after the last character {@code pos} spans. */
  int end(SqlParserPos pos) {
    return lineStarts.get(pos.getEndLineNum() - 1) + pos.getEndColumnNum();
  }
}
