package dev.freshet.sql.parser;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.impl.FreshetSqlParserImpl;
import java.io.StringReader;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.Litmus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tests of the secrets' syntax: {@code CREATE SECRET}, {@code DROP SECRET}, {@code SHOW SECRETS}
 * and option values written {@code SECRET name}, with the positions that let the engine replace
 * exactly the text of a value.
 */
class SecretSyntaxTest {
  /** Parses a statement, checks that unparsing it and parsing the result again gives the same
   * text, and returns the node. */
  private static SqlNode parse(String sql) throws SqlParseException {
    SqlNode node = FreshetSqlParser.parse(sql);
    String unparsed = unparse(node);
    SqlNode reparsed = FreshetSqlParser.parse(unparsed);
    assertEquals(unparsed, unparse(reparsed), () -> "round trip of " + sql);
    assertEquals(node.getClass(), reparsed.getClass(), () -> "class after round trip of " + sql);
    return node;
  }

  private static String unparse(SqlNode node) {
    return node.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
  }

  private static SqlParseException parseError(String sql) {
    return assertThrows(SqlParseException.class, () -> FreshetSqlParser.parse(sql),
        () -> "should not parse: " + sql);
  }

  /** The text that {@code pos} spans in {@code sql}, which has no tabs. */
  private static String spanned(String sql, SqlParserPos pos) {
    String[] lines = sql.split("\n", -1);
    StringBuilder text = new StringBuilder();
    for (int line = pos.getLineNum(); line <= pos.getEndLineNum(); line++) {
      String whole = lines[line - 1];
      int from = line == pos.getLineNum() ? pos.getColumnNum() - 1 : 0;
      int to = line == pos.getEndLineNum() ? pos.getEndColumnNum() : whole.length();
      text.append(whole, from, to);
      if (line < pos.getEndLineNum()) {
        text.append('\n');
      }
    }
    return text.toString();
  }

  // ---------------------------------------------------------------- CREATE SECRET

  @Test void shouldParseCreateSecretWhenIfNotExistsGiven() throws Exception {
    String sql = "create secret if not exists pg_pass as 'hunter2'";
    SqlCreateSecret create = assertInstanceOf(SqlCreateSecret.class, parse(sql));

    assertEquals("PG_PASS", create.name().getSimple());
    assertEquals("hunter2", create.value());
    assertTrue(create.ifNotExists());
    assertFalse(create.getReplace());
    assertEquals(SqlKind.OTHER_DDL, create.getKind());
    assertEquals("'hunter2'", spanned(sql, create.valueLiteral().getParserPosition()));
  }

  @Test void shouldNeverUnparseTheValueWhenCreateSecretIsWrittenOut() throws Exception {
    SqlNode create = parse("CREATE SECRET \"Pg pass\" AS 'hunter2'");

    assertEquals("CREATE SECRET \"Pg pass\" AS '***'", unparse(create));
    assertFalse(create.toString().contains("hunter2"), create::toString);
  }

  @Test void shouldKeepTheValueWhenItSpansFragmentsAndQuotes() throws Exception {
    String sql = "CREATE SECRET s AS 'it''s'\n  ' more'";
    SqlCreateSecret create = (SqlCreateSecret) parse(sql);

    assertEquals("it's more", create.value());
    assertEquals("'it''s'\n  ' more'", spanned(sql, create.valueLiteral().getParserPosition()));
  }

  @Test void shouldRefuseCreateOrReplaceSecret() {
    SqlParseException e = parseError("CREATE OR REPLACE SECRET s AS 'x'");

    assertEquals("Secret 'S' cannot be replaced: DROP SECRET S, then CREATE SECRET S AS '...'",
        e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "CREATE SECRET s",
      "CREATE SECRET s AS x",
      "CREATE SECRET s AS 1",
      "CREATE SECRET a.b AS 'x'",
  })
  void shouldRefuseCreateSecretWhenNotANameAndAString(String sql) {
    parseError(sql);
  }

  // ---------------------------------------------------------------- DROP and SHOW

  @Test void shouldParseDropSecretWhenIfExistsGiven() throws Exception {
    SqlDropSecret drop = assertInstanceOf(SqlDropSecret.class,
        parse("drop secret if exists pg_pass"));

    assertEquals("PG_PASS", drop.name().getSimple());
    assertTrue(drop.ifExists());
    assertEquals("DROP SECRET IF EXISTS \"PG_PASS\"", unparse(drop));
  }

  @Test void shouldParseDropSecretWhenIfExistsOmitted() throws Exception {
    SqlDropSecret drop = (SqlDropSecret) parse("DROP SECRET \"if\"");

    assertEquals("if", drop.name().getSimple());
    assertFalse(drop.ifExists());
  }

  @Test void shouldParseShowSecrets() throws Exception {
    assertEquals("SHOW SECRETS", unparse(assertInstanceOf(SqlShowSecrets.class,
        parse("show secrets"))));
  }

  // ---------------------------------------------------------------- SECRET name in WITH

  @Test void shouldKeepSecretReferenceInItsPlaceWhenOptionValueIsSecret() throws Exception {
    String sql = "CREATE SINK pg_out FROM totals WITH (connector = 'jdbc',\n"
        + "  'url' = 'jdbc:postgresql://db/app', 'password' = SECRET pg_pass,\n"
        + "  'table-name' = 'totals')";
    SqlCreateSink create = (SqlCreateSink) parse(sql);

    List<WithOption> options = create.optionEntries();
    assertEquals(List.of("connector", "url", "password", "table-name"),
        options.stream().map(WithOption::key).toList());
    WithOption password = options.get(2);
    assertEquals(Optional.of("PG_PASS"), password.secret());
    assertEquals(Optional.empty(), password.literal());
    assertEquals("SECRET pg_pass", spanned(sql, password.value().getParserPosition()));
    assertEquals("'password'", spanned(sql, password.keyLiteral().getParserPosition()));
    WithOption url = options.get(1);
    assertEquals(Optional.of("jdbc:postgresql://db/app"), url.literal());
    assertEquals("'jdbc:postgresql://db/app'", spanned(sql, url.value().getParserPosition()));
    assertEquals("CREATE SINK \"PG_OUT\" FROM \"TOTALS\" WITH ('connector' = 'jdbc',"
        + " 'url' = 'jdbc:postgresql://db/app', 'password' = SECRET \"PG_PASS\","
        + " 'table-name' = 'totals')", unparse(create));
  }

  @Test void shouldRefuseOptionsAsAMapWhenAValueIsASecret() throws Exception {
    SqlCreateTable create = (SqlCreateTable) parse("CREATE TABLE t (a INT)"
        + " WITH (connector = 'jdbc', password = SECRET \"p\")");

    IllegalStateException e = assertThrows(IllegalStateException.class, create::options);
    assertTrue(e.getMessage().startsWith("Option 'password' is the secret p,"), e::getMessage);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "CREATE STREAM s (a INT) WITH (connector = 'kafka', 'sasl.jaas.config' = SECRET j)",
      "CREATE TABLE t (a INT) WITH (connector = 'jdbc', password = SECRET j)",
      "CREATE SINK k AS SELECT a FROM s WITH (connector = 'jdbc', password = SECRET j)",
      "CREATE MATERIALIZED VIEW v WITH (engine = SECRET j) AS SELECT a FROM t",
      "EXPLAIN PLAN FOR CREATE MATERIALIZED VIEW v WITH (engine = SECRET j) AS SELECT a FROM t",
  })
  void shouldAcceptSecretWhereverAnOptionValueGoes(String sql) throws Exception {
    SqlNode node = parse(sql);
    SqlWithOptions statement = (SqlWithOptions) (node instanceof SqlExplain explain
        ? explain.getExplicandum() : node);

    WithOption last = statement.optionEntries().get(statement.optionEntries().size() - 1);
    assertEquals(Optional.of("J"), last.secret());
    assertEquals("SECRET j", spanned(sql, last.value().getParserPosition()));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "CREATE STREAM s WITH (password = SECRET)",
      "CREATE STREAM s WITH (password = SECRET 'p')",
      "CREATE STREAM s WITH (password = SECRET a.b)",
      "CREATE STREAM s WITH (password = p)",
  })
  void shouldRefuseOptionValueWhenNeitherStringNorSecretName(String sql) {
    parseError(sql);
  }

  @Test void shouldRefuseOptionWhenKeyGivenTwiceOnceAsSecret() {
    SqlParseException e = parseError("CREATE STREAM s WITH (password = SECRET a, password = 'b')");

    assertEquals("Option 'password' is given more than once", e.getMessage());
  }

  // ---------------------------------------------------------------- keywords, nodes

  @Test void shouldKeepSecretWordsUsableAsNamesWhenNotReserved() throws Exception {
    SqlAbstractParserImpl.Metadata metadata =
        FreshetSqlParserImpl.FACTORY.getParser(new StringReader("")).getMetadata();
    for (String word : List.of("SECRET", "SECRETS")) {
      assertTrue(metadata.isNonReservedKeyword(word), word);
      assertFalse(metadata.isReservedWord(word), word);
    }

    SqlSelect select = (SqlSelect) parse("SELECT secret, secrets FROM secret");
    assertEquals("SECRET", ((SqlIdentifier) select.getSelectList().get(0)).getSimple());
    SqlCreateSecret named = (SqlCreateSecret) parse("CREATE SECRET secret AS 'x'");
    assertEquals("SECRET", named.name().getSimple());
    SqlCreateStream stream = (SqlCreateStream) parse(
        "CREATE STREAM s WITH (secret = SECRET secret)");
    assertEquals(Optional.of("SECRET"), stream.optionEntries().get(0).secret());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "CREATE SECRET IF NOT EXISTS s AS 'x'",
      "DROP SECRET IF EXISTS s",
      "SHOW SECRETS",
      "CREATE STREAM s WITH (password = SECRET p)",
  })
  void shouldKeepClassAndTextWhenClonedOrRebuilt(String sql) throws Exception {
    SqlCall call = (SqlCall) parse(sql);
    SqlNode clone = call.clone(SqlParserPos.ZERO);
    SqlNode rebuilt = call.getOperator().createCall(null, call.getParserPosition(),
        call.getOperandList().toArray(new SqlNode[0]));

    assertAll(
        () -> assertEquals(call.getClass(), clone.getClass()),
        () -> assertEquals(unparse(call), unparse(clone)),
        () -> assertTrue(call.equalsDeep(clone, Litmus.THROW)),
        () -> assertEquals(call.getClass(), rebuilt.getClass()));
  }
}
