package dev.freshet.sql;

import dev.freshet.sql.parser.FreshetConformance;
import dev.freshet.sql.parser.impl.FreshetSqlParserImpl;

import java.util.concurrent.atomic.LongAdder;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * Entry point that parses Freshet SQL with Calcite's default lexical rules.
 *
 * <pre>
 * SqlNode node = FreshetSqlParser.parse(
 *     "SELECT k, COUNT(*) FROM clicks GROUP BY k EMIT UPDATE");
 * // node is a SqlEmit
 * </pre>
 *
 * <p>Identifiers are quoted with double quotes, unquoted identifiers are
 * upper-cased, quoted ones keep their case, and the conformance is
 * {@link FreshetConformance}: Calcite's default, as in {@link SqlParser#config()}, plus
 * {@code a % b}.
 * Use {@link #config()} to build a {@link SqlParser} with other settings.
 *
 * <p>It sits above both the dialect's nodes ({@code dev.freshet.sql.parser}) and the parser
 * generated from them ({@code dev.freshet.sql.parser.impl}), which needs those nodes: in either
 * package it would close a package cycle.
 */
public final class FreshetSqlParser {
  private static final SqlParser.Config CONFIG =
      SqlParser.config()
          .withParserFactory(FreshetSqlParserImpl.FACTORY)
          .withConformance(FreshetConformance.INSTANCE);
  /** Generated parsers built by {@link #parse} and {@link #parseStatements}. */
  private static final LongAdder PARSERS_BUILT = new LongAdder();
  /** {@link #CONFIG}, counting the parsers it builds. */
  private static final SqlParser.Config COUNTING = CONFIG.withParserFactory(reader -> {
    PARSERS_BUILT.increment();
    return FreshetSqlParserImpl.FACTORY.getParser(reader);
  });

  private FreshetSqlParser() {
  }

  /** Returns Calcite's default parser configuration with Freshet's parser
   * factory. */
  public static SqlParser.Config config() {
    return CONFIG;
  }

  /**
   * How many generated (JavaCC) parsers {@link #parse} and {@link #parseStatements} have built
   * in this JVM: a test's way to check that a path, such as
   * a stream of one-row INSERTs, builds none per statement.
   */
  public static long parsersBuilt() {
    return PARSERS_BUILT.sum();
  }

  /**
   * Parses one statement. A trailing semicolon is not allowed.
   *
   * <p>{@code INSERT INTO name [(columns)] VALUES (literal, ...), ...} is built without the
   * generated parser (a new one allocates tens of kilobytes, which a client writing one row per
   * statement turns into collector pauses); the tree is the same, and any text the recognizer
   * is not sure of goes to the parser.
   *
   * @param sql statement text
   * @return parse tree
   * @throws SqlParseException if the text is not valid; its
   *     {@link SqlParseException#getPos() position} gives line and column
   */
  public static SqlNode parse(String sql) throws SqlParseException {
    SqlInsert insert = ValuesInsertRecognizer.recognize(sql);
    if (insert != null) {
      return insert;
    }
    return SqlParser.create(sql, COUNTING).parseStmt();
  }

  /**
   * Parses statements separated by semicolons; the last one may end with a
   * semicolon too.
   *
   * @param sql text of the statements
   * @return parse trees, one per statement
   * @throws SqlParseException if the text is not valid; its
   *     {@link SqlParseException#getPos() position} gives line and column
   */
  public static SqlNodeList parseStatements(String sql)
      throws SqlParseException {
    return SqlParser.create(sql, COUNTING).parseStmtList();
  }
}
