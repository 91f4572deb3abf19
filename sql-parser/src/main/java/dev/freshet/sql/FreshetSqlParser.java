package dev.freshet.sql;

import dev.freshet.sql.parser.FreshetConformance;
import dev.freshet.sql.parser.impl.FreshetSqlParserImpl;

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

  private FreshetSqlParser() {
  }

  /** Returns Calcite's default parser configuration with Freshet's parser
   * factory. */
  public static SqlParser.Config config() {
    return CONFIG;
  }

  /**
   * Parses one statement. A trailing semicolon is not allowed.
   *
   * @param sql statement text
   * @return parse tree
   * @throws SqlParseException if the text is not valid; its
   *     {@link SqlParseException#getPos() position} gives line and column
   */
  public static SqlNode parse(String sql) throws SqlParseException {
    return SqlParser.create(sql, CONFIG).parseStmt();
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
    return SqlParser.create(sql, CONFIG).parseStmtList();
  }
}
