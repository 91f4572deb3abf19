package dev.freshet.sql;

import dev.freshet.sql.parser.impl.FreshetSqlParserImpl;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Builds the parse tree of the commonest write, {@code INSERT INTO name [(columns)] VALUES
 * (literal, ...)[, (...)]}, without the generated parser: a new JavaCC parser (and its buffers,
 * tens of kilobytes) per one-row INSERT was most of what an ingesting client made the collector
 * clean up.
 *
 * <pre>
 * SqlNode n = ValuesInsertRecognizer.recognize("INSERT INTO clicks VALUES ('ann', 3)");
 * // the same SqlInsert, node for node and position for position, as FreshetSqlParser.parse
 * ValuesInsertRecognizer.recognize("INSERT INTO clicks SELECT * FROM t");   // null
 * </pre>
 *
 * <p>It recognizes only text whose tree it can build exactly as the parser would: the target and
 * the columns plain identifiers (unquoted ones neither keywords nor longer than 128 characters,
 * quoted ones without a dot), each row parenthesized, each value an unsigned number, a
 * single-fragment string without prefix, {@code DATE}, {@code TIME} or {@code TIMESTAMP} and a
 * string, {@code TRUE}, {@code FALSE} or {@code NULL}; tokens
 * separated by spaces and line breaks only. Anything else (a comment, a tab, a sign, a
 * {@code CAST}, a second string fragment, a trailing semicolon, an error) gives null, and the
 * caller parses the text as before, so that every error is still the parser's. Equality of the
 * trees is checked by {@code ValuesInsertRecognizerTest} against the parser itself.
 */
final class ValuesInsertRecognizer {
  /** The longest identifier Calcite's parser accepts (its default {@code identifierMaxLength}). */
  private static final int MAX_IDENTIFIER = 128;
  private static final SqlAbstractParserImpl.Metadata KEYWORDS =
      FreshetSqlParserImpl.FACTORY.getParser(new StringReader("")).getMetadata();

  private final String sql;
  private int at;
  private int line = 1;
  private int column = 1;

  // The current token: its kind, text, and first and last character's line and column.
  private Kind kind;
  private String image;
  private int beginLine;
  private int beginColumn;
  private int endLine;
  private int endColumn;

  private enum Kind { WORD, QUOTED_ID, INTEGER, DECIMAL, APPROX, STRING, LPAREN, RPAREN, COMMA,
    END }

  private ValuesInsertRecognizer(String sql) {
    this.sql = sql;
  }

  /** The statement's tree if it is a plain {@code INSERT ... VALUES} of literals, else null. */
  static @Nullable SqlInsert recognize(String sql) {
    // Cheap refusal first: most other statements do not start with INSERT.
    if (sql.length() < 6 || !sql.regionMatches(true, firstNonBlank(sql), "INSERT", 0, 6)) {
      return null;
    }
    try {
      return new ValuesInsertRecognizer(sql).insert();
    } catch (NotRecognized e) {
      return null;
    }
  }

  private static int firstNonBlank(String sql) {
    int i = 0;
    while (i < sql.length() && (sql.charAt(i) == ' ' || sql.charAt(i) == '\n'
        || sql.charAt(i) == '\r')) {
      i++;
    }
    return i;
  }

  private SqlInsert insert() {
    next();
    SqlParserPos insertPos = expectKeyword("INSERT");
    expectKeyword("INTO");
    SqlIdentifier table = identifier();
    SqlNodeList columns = null;
    if (kind == Kind.LPAREN) {
      SqlParserPos open = pos();
      List<SqlNode> names = new ArrayList<>();
      next();
      names.add(identifier());
      while (kind == Kind.COMMA) {
        next();
        names.add(identifier());
      }
      SqlParserPos close = expect(Kind.RPAREN);
      columns = new SqlNodeList(names, open.plus(close));
    }
    SqlParserPos values = expectKeyword("VALUES");
    List<SqlNode> rows = new ArrayList<>(1);
    SqlParserPos last = values;
    do {
      if (!rows.isEmpty()) {
        next();
      }
      SqlParserPos open = expect(Kind.LPAREN);
      List<SqlNode> row = new ArrayList<>();
      row.add(literal());
      while (kind == Kind.COMMA) {
        next();
        row.add(literal());
      }
      last = expect(Kind.RPAREN);
      SqlParserPos rowPos = open.plus(last);
      // The parser's row is ROW(...) over a SqlNodeList spanning the parentheses.
      rows.add(SqlStdOperatorTable.ROW.createCall(rowPos, row));
    } while (kind == Kind.COMMA);
    if (kind != Kind.END) {
      throw NotRecognized.INSTANCE;
    }
    SqlNode source = SqlStdOperatorTable.VALUES.createCall(values.plus(last), rows);
    return new SqlInsert(insertPos.plus(source.getParserPosition()),
        new SqlNodeList(List.of(), insertPos), table, source, columns);
  }

  private SqlIdentifier identifier() {
    String name;
    SqlParserPos pos;
    if (kind == Kind.WORD) {
      name = image.toUpperCase(Locale.ROOT);
      if (KEYWORDS.isKeyword(name)) {
        throw NotRecognized.INSTANCE;
      }
      pos = pos();
    } else if (kind == Kind.QUOTED_ID) {
      name = image.substring(1, image.length() - 1).replace("\"\"", "\"");
      if (name.isEmpty() || name.indexOf('.') >= 0) {
        throw NotRecognized.INSTANCE;
      }
      pos = pos().withQuoting(true);
    } else {
      throw NotRecognized.INSTANCE;
    }
    if (name.length() > MAX_IDENTIFIER) {
      throw NotRecognized.INSTANCE;
    }
    next();
    return new SqlIdentifier(List.of(name), null, pos, List.of(pos));
  }

  private SqlNode literal() {
    SqlParserPos pos = pos();
    SqlNode literal;
    switch (kind) {
    case INTEGER:
    case DECIMAL:
      literal = SqlLiteral.createExactNumeric(image, pos);
      break;
    case APPROX:
      literal = SqlLiteral.createApproxNumeric(image, pos);
      break;
    case STRING:
      literal = SqlLiteral.createCharString(SqlParserUtil.parseString(image), null, pos);
      break;
    case WORD:
      if (image.equalsIgnoreCase("TRUE") || image.equalsIgnoreCase("FALSE")) {
        literal = SqlLiteral.createBoolean(image.equalsIgnoreCase("TRUE"), pos);
      } else if (image.equalsIgnoreCase("NULL")) {
        literal = SqlLiteral.createNull(pos);
      } else if (image.equalsIgnoreCase("DATE") || image.equalsIgnoreCase("TIME")
          || image.equalsIgnoreCase("TIMESTAMP")) {
        // DATE '2024-01-31': the parser leaves the text for the validator to check.
        String type = image.toUpperCase(Locale.ROOT);
        next();
        if (kind != Kind.STRING) {
          throw NotRecognized.INSTANCE;
        }
        literal = SqlLiteral.createUnknown(type, SqlParserUtil.parseString(image),
            pos.plus(pos()));
      } else {
        throw NotRecognized.INSTANCE;
      }
      break;
    default:
      throw NotRecognized.INSTANCE;
    }
    next();
    // A string followed by another would be one continued literal; anything but , or ) is not
    // a plain value.
    if (kind != Kind.COMMA && kind != Kind.RPAREN) {
      throw NotRecognized.INSTANCE;
    }
    return literal;
  }

  private SqlParserPos expectKeyword(String keyword) {
    if (kind != Kind.WORD || !image.equalsIgnoreCase(keyword)) {
      throw NotRecognized.INSTANCE;
    }
    SqlParserPos pos = pos();
    next();
    return pos;
  }

  private SqlParserPos expect(Kind expected) {
    if (kind != expected) {
      throw NotRecognized.INSTANCE;
    }
    SqlParserPos pos = pos();
    next();
    return pos;
  }

  private SqlParserPos pos() {
    return new SqlParserPos(beginLine, beginColumn, endLine, endColumn);
  }

  /** Reads the next token. */
  private void next() {
    skipBlanks();
    beginLine = line;
    beginColumn = column;
    if (at >= sql.length()) {
      kind = Kind.END;
      image = "";
      endLine = line;
      endColumn = column;
      return;
    }
    int start = at;
    char c = sql.charAt(at);
    if (isAsciiLetter(c)) {
      while (at < sql.length() && (isAsciiLetter(sql.charAt(at)) || isDigit(sql.charAt(at))
          || sql.charAt(at) == '_')) {
        at++;
      }
      // A $, a non-ASCII letter or a dot would continue the name differently.
      if (at < sql.length() && !isDelimiter(sql.charAt(at))) {
        throw NotRecognized.INSTANCE;
      }
      kind = Kind.WORD;
    } else if (isDigit(c)) {
      number();
    } else if (c == '\'') {
      at = closing('\'', at + 1);
      kind = Kind.STRING;
    } else if (c == '"') {
      at = closing('"', at + 1);
      kind = Kind.QUOTED_ID;
    } else if (c == '(' || c == ')' || c == ',') {
      at++;
      kind = c == '(' ? Kind.LPAREN : c == ')' ? Kind.RPAREN : Kind.COMMA;
    } else {
      throw NotRecognized.INSTANCE;
    }
    image = sql.substring(start, at);
    // Tokens never span lines here: a line break inside a string is refused in closing().
    column += at - start;
    endLine = line;
    endColumn = column - 1;
  }

  /** An unsigned number as the parser's lexer splits it: digits, an optional fraction, exponent. */
  private void number() {
    kind = Kind.INTEGER;
    digits();
    if (at < sql.length() && sql.charAt(at) == '.') {
      at++;
      kind = Kind.DECIMAL;
      while (at < sql.length() && isDigit(sql.charAt(at))) {
        at++;
      }
    }
    if (at < sql.length() && (sql.charAt(at) == 'e' || sql.charAt(at) == 'E')) {
      at++;
      if (at < sql.length() && (sql.charAt(at) == '+' || sql.charAt(at) == '-')) {
        at++;
      }
      if (at >= sql.length() || !isDigit(sql.charAt(at))) {
        throw NotRecognized.INSTANCE;
      }
      digits();
      kind = Kind.APPROX;
    }
    if (at < sql.length() && !isDelimiter(sql.charAt(at))) {
      throw NotRecognized.INSTANCE;
    }
  }

  private void digits() {
    while (at < sql.length() && isDigit(sql.charAt(at))) {
      at++;
    }
  }

  /** The index after the quote that closes a quoted token ({@code ''} and {@code ""} escape). */
  private int closing(char quote, int from) {
    int i = from;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      if (c == '\n' || c == '\r' || Character.isSurrogate(c)) {
        // Positions would need the lexer's own line and column counting.
        throw NotRecognized.INSTANCE;
      }
      i++;
    }
    throw NotRecognized.INSTANCE;
  }

  private void skipBlanks() {
    while (at < sql.length()) {
      char c = sql.charAt(at);
      if (c == ' ') {
        column++;
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && at + 1 < sql.length() && sql.charAt(at + 1) == '\n') {
          at++;
        }
        line++;
        column = 1;
      } else {
        return;
      }
      at++;
    }
  }

  private static boolean isDelimiter(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == ',';
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** The text is not one the recognizer builds; thrown without a stack trace. */
  private static final class NotRecognized extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final NotRecognized INSTANCE = new NotRecognized();

    private NotRecognized() {
      super(null, null, false, false);
    }
  }
}
