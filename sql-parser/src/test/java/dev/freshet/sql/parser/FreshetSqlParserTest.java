package dev.freshet.sql.parser;

import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.impl.FreshetSqlParserImpl;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlExplainFormat;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropMaterializedView;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.util.Litmus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.StringReader;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tests of {@link FreshetSqlParser}: node classes, accessors, unparsed text
 * and round trips of every Freshet statement, errors and reserved words.
 */
class FreshetSqlParserTest {

  /** Parses a statement, checks that unparsing it and parsing the result
   * again gives the same text, and returns the node. */
  private static SqlNode parse(String sql) throws SqlParseException {
    final SqlNode node = FreshetSqlParser.parse(sql);
    final String unparsed = unparse(node);
    final SqlNode reparsed = FreshetSqlParser.parse(unparsed);
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

  private static void assertPos(SqlParserPos pos, int line, int column) {
    assertEquals(line + ":" + column, pos.getLineNum() + ":" + pos.getColumnNum());
  }

  // ---------------------------------------------------------------- CREATE STREAM

  @Test void shouldParseCreateStreamWhenColumnsWatermarkAndOptionsGiven() throws Exception {
    final SqlNode node = parse("create stream if not exists clicks (\n"
        + "  id bigint not null,\n"
        + "  ts timestamp(3),\n"
        + "  url varchar,\n"
        + "  watermark for ts as ts - interval '5' second)\n"
        + "with (connector = 'kafka', 'topic' = 'clicks')");

    final SqlCreateStream create = assertInstanceOf(SqlCreateStream.class, node);
    assertEquals(List.of("CLICKS"), create.name().names);
    assertTrue(create.ifNotExists());
    assertFalse(create.getReplace());
    assertEquals(SqlKind.OTHER_DDL, create.getKind());
    assertEquals(3, create.columns().size());
    final SqlColumnDeclaration id =
        assertInstanceOf(SqlColumnDeclaration.class, create.columns().get(0));
    assertEquals("ID", id.name.getSimple());
    assertEquals("BIGINT", id.dataType.getTypeName().getSimple());
    assertEquals(Boolean.FALSE, id.dataType.getNullable());
    final SqlColumnDeclaration ts = (SqlColumnDeclaration) create.columns().get(1);
    assertEquals(Boolean.TRUE, ts.dataType.getNullable());

    final SqlWatermark watermark = create.watermark();
    assertEquals("TS", watermark.column().getSimple());
    final SqlBasicCall delay = assertInstanceOf(SqlBasicCall.class, watermark.delayExpression());
    assertEquals(SqlKind.MINUS, delay.getKind());
    assertEquals("TS", ((SqlIdentifier) delay.operand(0)).getSimple());
    assertEquals(SqlKind.LITERAL, delay.operand(1).getKind());

    assertEquals(Map.of("connector", "kafka", "topic", "clicks"), create.options());
    assertEquals(List.of("connector", "topic"), List.copyOf(create.options().keySet()));

    assertEquals("CREATE STREAM IF NOT EXISTS \"CLICKS\" (\"ID\" BIGINT NOT NULL, "
        + "\"TS\" TIMESTAMP(3), \"URL\" VARCHAR, "
        + "WATERMARK FOR \"TS\" AS \"TS\" - INTERVAL '5' SECOND) "
        + "WITH ('connector' = 'kafka', 'topic' = 'clicks')", unparse(create));
  }

  @Test void shouldGiveEmptyColumnsWhenColumnListOmitted() throws Exception {
    final SqlCreateStream create = (SqlCreateStream) parse(
        "CREATE STREAM ticks WITH (connector = 'rate', 'rows_per_second' = '10')");

    assertTrue(create.columns().isEmpty());
    assertNull(create.watermark());
    assertFalse(create.ifNotExists());
    assertEquals(Map.of("connector", "rate", "rows_per_second", "10"), create.options());
    assertEquals("CREATE STREAM \"TICKS\" WITH ('connector' = 'rate', 'rows_per_second' = '10')",
        unparse(create));
  }

  @Test void shouldGiveEmptyOptionsWhenWithClauseOmitted() throws Exception {
    final SqlCreateStream create = (SqlCreateStream) parse("CREATE STREAM s.t (a INT NULL)");

    assertEquals(List.of("S", "T"), create.name().names);
    assertEquals(Map.of(), create.options());
    assertNull(create.watermark());
    assertEquals("CREATE STREAM \"S\".\"T\" (\"A\" INTEGER)", unparse(create));
  }

  @Test void shouldKeepReplaceWhenCreateOrReplaceStreamGiven() throws Exception {
    final SqlCreateStream create =
        (SqlCreateStream) parse("CREATE OR REPLACE STREAM s (a INT)");

    assertTrue(create.getReplace());
    assertEquals("CREATE OR REPLACE STREAM \"S\" (\"A\" INTEGER)", unparse(create));
  }

  @Test void shouldKeepOptionKeysAsWrittenWhenKeysAreIdentifiersOrStrings() throws Exception {
    final SqlCreateStream create = (SqlCreateStream) parse("CREATE STREAM s WITH ("
        + "Connector = 'memory', \"Quoted Key\" = 'a', 'rows_per_second' = '10', "
        + "kafka.bootstrap.Servers = 'h:9092', format = 'json', 'value' = 'it''s')");

    assertEquals(List.of("Connector", "Quoted Key", "rows_per_second",
            "kafka.bootstrap.Servers", "format", "value"),
        List.copyOf(create.options().keySet()));
    assertEquals("it's", create.options().get("value"));
  }

  @Test void shouldAcceptWatermarkAsColumnNameWhenNotFollowedByFor() throws Exception {
    final SqlCreateStream create = (SqlCreateStream) parse(
        "CREATE STREAM s (watermark BIGINT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE, v INT)");

    assertEquals(3, create.columns().size());
    assertEquals("WATERMARK", ((SqlColumnDeclaration) create.columns().get(0)).name.getSimple());
    assertEquals("TS", create.watermark().column().getSimple());
    assertEquals("CREATE STREAM \"S\" (\"WATERMARK\" BIGINT, \"TS\" TIMESTAMP, \"V\" INTEGER, "
        + "WATERMARK FOR \"TS\" AS \"TS\" - INTERVAL '1' MINUTE)", unparse(create));
  }

  @Test void shouldKeepWatermarkExpressionWhenItIsNotColumnMinusInterval() throws Exception {
    final SqlCreateStream create = (SqlCreateStream) parse(
        "CREATE STREAM s (ts TIMESTAMP, WATERMARK FOR ts AS ts + INTERVAL '1' SECOND * 2)");

    assertEquals(SqlKind.PLUS, create.watermark().delayExpression().getKind());
  }

  @Test void shouldRejectSecondWatermarkWhenStreamHasOne() {
    final SqlParseException e = parseError("CREATE STREAM s (a TIMESTAMP,\n"
        + "  WATERMARK FOR a AS a - INTERVAL '1' SECOND,\n"
        + "  WATERMARK FOR a AS a - INTERVAL '2' SECOND)");

    assertEquals("Stream 'S' has more than one WATERMARK", e.getMessage());
    assertPos(e.getPos(), 3, 3);
  }

  @Test void shouldRejectOptionWhenKeyGivenTwice() {
    final SqlParseException e =
        parseError("CREATE STREAM s WITH (topic = 'a', 'topic' = 'b')");

    assertEquals("Option 'topic' is given more than once", e.getMessage());
    assertPos(e.getPos(), 1, 36);
  }

  @Test void shouldRejectOptionValueWhenValueIsBinaryString() {
    final SqlParseException e = parseError("CREATE STREAM s WITH (k = X'AB')");

    assertEquals("Character string literal expected, got X'AB'", e.getMessage());
    assertPos(e.getPos(), 1, 27);
  }

  @Test void shouldRejectOptionValueWhenValueIsNumber() {
    final SqlParseException e = parseError("CREATE STREAM s WITH (k = 10)");

    assertTrue(e.getMessage().startsWith("Encountered \"10\" at line 1, column 27."),
        e::getMessage);
  }

  // ---------------------------------------------------------------- errors

  @Test void shouldReportLineAndColumnWhenColumnListHasDoubleComma() {
    final SqlParseException e = parseError("CREATE STREAM s (a INT,, b INT)");

    assertPos(e.getPos(), 1, 24);
    assertTrue(e.getMessage().startsWith("Encountered \",\" at line 1, column 24."),
        e::getMessage);
  }

  @Test void shouldReportSecondLineWhenErrorIsOnLineTwo() {
    final SqlParseException e = parseError("CREATE STREAM s (a INT)\n"
        + "WITH (connector 'kafka')");

    assertPos(e.getPos(), 2, 17);
    assertTrue(e.getMessage().startsWith("Encountered \"\\'kafka\\'\" at line 2, column 17."),
        e::getMessage);
  }

  @Test void shouldReportPositionWhenEmitModeIsUnknown() {
    final SqlParseException e = parseError("SELECT a\nFROM t\nEMIT CHANGES");

    assertPos(e.getPos(), 3, 6);
    assertTrue(e.getMessage().startsWith("Encountered \"CHANGES\" at line 3, column 6."),
        e::getMessage);
  }

  // ---------------------------------------------------------------- EMIT

  @Test void shouldWrapSelectStreamWhenEmitUpdateGiven() throws Exception {
    final SqlEmit emit = (SqlEmit) parse(
        "SELECT STREAM k, COUNT(*) FROM s GROUP BY k EMIT UPDATE");

    assertEquals(EmitMode.UPDATE, emit.mode());
    final SqlSelect select = assertInstanceOf(SqlSelect.class, emit.query());
    assertTrue(select.isKeywordPresent(SqlSelectKeyword.STREAM));
    assertEquals("SELECT STREAM \"K\", COUNT(*)\n"
        + "FROM \"S\"\n"
        + "GROUP BY \"K\"\n"
        + "EMIT UPDATE", unparse(emit));
  }

  @Test void shouldWrapOrderedUnionWhenEmitAppendFollowsLimit() throws Exception {
    final SqlEmit emit = (SqlEmit) parse(
        "SELECT a FROM t UNION ALL SELECT b FROM u ORDER BY 1 LIMIT 5 EMIT APPEND");

    assertEquals(EmitMode.APPEND, emit.mode());
    final SqlOrderBy orderBy = assertInstanceOf(SqlOrderBy.class, emit.query());
    assertEquals(SqlKind.UNION, orderBy.query.getKind());
    assertEquals("SELECT \"A\"\n"
        + "FROM \"T\"\n"
        + "UNION ALL\n"
        + "SELECT \"B\"\n"
        + "FROM \"U\"\n"
        + "ORDER BY 1\n"
        + "FETCH NEXT 5 ROWS ONLY\n"
        + "EMIT APPEND", unparse(emit));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT * FROM t EMIT COMPLETE",
      "SELECT * FROM t x EMIT COMPLETE",
      "SELECT * FROM t AS x EMIT COMPLETE",
      "select * from t where a > 1 emit complete",
      "VALUES (1, 2) EMIT COMPLETE",
      "WITH w AS (SELECT a FROM t) SELECT * FROM w EMIT COMPLETE",
      "(SELECT a FROM t) EMIT COMPLETE",
  })
  void shouldWrapQueryWhenEmitCompleteEndsIt(String sql) throws Exception {
    final SqlEmit emit = assertInstanceOf(SqlEmit.class, parse(sql));

    assertEquals(EmitMode.COMPLETE, emit.mode());
    assertTrue(SqlKind.QUERY.contains(emit.query().getKind()), emit.query().getKind()::toString);
    assertTrue(unparse(emit).endsWith("\nEMIT COMPLETE"), () -> unparse(emit));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT STREAM k, COUNT(*) FROM s GROUP BY k",
      "SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 LIMIT 5",
      "VALUES (1), (2)",
      "WITH w AS (SELECT 1 AS x) SELECT x FROM w",
      "SELECT * FROM t AS x",
  })
  void shouldReturnQueryAsCalciteDoesWhenNoEmit(String sql) throws Exception {
    final SqlNode freshet = parse(sql);
    final SqlNode calcite = SqlParser.create(sql).parseStmt();

    assertEquals(calcite.getClass(), freshet.getClass());
    assertTrue(calcite.equalsDeep(freshet, Litmus.THROW));
    assertEquals(unparse(calcite), unparse(freshet));
  }

  @Test void shouldRejectEmitAsColumnNameWhenUnquoted() throws Exception {
    final SqlParseException e = parseError("SELECT emit FROM t");
    assertPos(e.getPos(), 1, 8);

    final SqlSelect select = (SqlSelect) parse("SELECT \"EMIT\" FROM t");
    assertEquals("EMIT", ((SqlIdentifier) select.getSelectList().get(0)).getSimple());
  }

  @Test void shouldReserveOnlyEmitWhenAddingKeywords() {
    final SqlAbstractParserImpl.Metadata metadata =
        FreshetSqlParserImpl.FACTORY.getParser(new StringReader("")).getMetadata();

    assertTrue(metadata.isReservedWord("EMIT"));
    for (String word : List.of("APPEND", "COMPLETE", "IF", "MATERIALIZED", "QUERIES",
        "QUERY", "STOP", "STREAMS", "VIEWS", "WATERMARK")) {
      assertTrue(metadata.isNonReservedKeyword(word), word);
      assertFalse(metadata.isReservedWord(word), word);
    }
  }

  @Test void shouldParseNewKeywordsAsColumnNamesWhenNotReserved() throws Exception {
    final SqlSelect select = (SqlSelect) parse("SELECT watermark, stop, query, streams, "
        + "append, complete, queries, views, materialized, if FROM t");

    assertEquals(10, select.getSelectList().size());
    assertEquals("SELECT \"WATERMARK\", \"STOP\", \"QUERY\", \"STREAMS\", \"APPEND\", "
        + "\"COMPLETE\", \"QUERIES\", \"VIEWS\", \"MATERIALIZED\", \"IF\"\n"
        + "FROM \"T\"", unparse(select));
  }

  @Test void shouldWrapExplicandumWhenExplainQueryEndsWithEmit() throws Exception {
    final SqlExplain explain = (SqlExplain) parse(
        "EXPLAIN PLAN FOR SELECT k, COUNT(*) FROM s GROUP BY k EMIT UPDATE");

    final SqlEmit emit = assertInstanceOf(SqlEmit.class, explain.getExplicandum());
    assertEquals(EmitMode.UPDATE, emit.mode());
    assertEquals("EXPLAIN PLAN INCLUDING ATTRIBUTES WITH IMPLEMENTATION FOR\n"
        + "SELECT \"K\", COUNT(*)\n"
        + "FROM \"S\"\n"
        + "GROUP BY \"K\"\n"
        + "EMIT UPDATE", unparse(explain));
  }

  @Test void shouldExplainTheQueryOfAMaterializedView() throws Exception {
    final SqlExplain explain = (SqlExplain) parse(
        "EXPLAIN PLAN FOR CREATE MATERIALIZED VIEW v AS SELECT k, COUNT(*) FROM s GROUP BY k"
            + " EMIT COMPLETE");

    final SqlCreateMaterializedView create =
        assertInstanceOf(SqlCreateMaterializedView.class, explain.getExplicandum());
    final SqlEmit emit = assertInstanceOf(SqlEmit.class, create.query);
    assertEquals(EmitMode.COMPLETE, emit.mode());
  }

  @Test void shouldKeepExplainOptionsWhenExplainHasNoEmit() throws Exception {
    final SqlExplain explain = (SqlExplain) parse(
        "EXPLAIN PLAN EXCLUDING ATTRIBUTES WITHOUT IMPLEMENTATION AS JSON FOR "
            + "INSERT INTO s SELECT * FROM t");

    assertInstanceOf(SqlInsert.class, explain.getExplicandum());
    assertEquals(SqlExplainFormat.JSON, explain.getFormat());
    assertEquals(SqlExplain.Depth.LOGICAL, explain.getDepth());
    assertEquals("EXPLAIN PLAN EXCLUDING ATTRIBUTES WITHOUT IMPLEMENTATION AS JSON FOR\n"
        + "INSERT INTO \"S\"\n"
        + "SELECT *\n"
        + "FROM \"T\"", unparse(explain));
  }

  @Test void shouldSplitStatementsWhenListHasEmitAndCommands() throws Exception {
    final SqlNodeList list = FreshetSqlParser.parseStatements(
        "SHOW STREAMS; SELECT 1 EMIT APPEND; STOP QUERY q;");

    assertEquals(3, list.size());
    assertInstanceOf(SqlShow.class, list.get(0));
    assertInstanceOf(SqlEmit.class, list.get(1));
    assertInstanceOf(SqlStopQuery.class, list.get(2));
  }

  // ---------------------------------------------------------------- MATERIALIZED VIEW

  @Test void shouldParseCreateMaterializedViewWhenBodyEndsWithEmit() throws Exception {
    final SqlCreateMaterializedView create = (SqlCreateMaterializedView) parse(
        "CREATE MATERIALIZED VIEW IF NOT EXISTS counts AS "
            + "SELECT k, COUNT(*) AS c FROM s GROUP BY k EMIT UPDATE");

    assertTrue(create.ifNotExists);
    assertEquals("COUNTS", create.name.getSimple());
    final SqlEmit emit = assertInstanceOf(SqlEmit.class, create.query);
    assertEquals(EmitMode.UPDATE, emit.mode());
    assertEquals("CREATE MATERIALIZED VIEW IF NOT EXISTS \"COUNTS\" AS\n"
        + "SELECT \"K\", COUNT(*) AS \"C\"\n"
        + "FROM \"S\"\n"
        + "GROUP BY \"K\"\n"
        + "EMIT UPDATE", unparse(create));
  }

  @Test void shouldParseCreateMaterializedViewWhenBodyHasNoEmit() throws Exception {
    final SqlCreateMaterializedView create = (SqlCreateMaterializedView) parse(
        "CREATE OR REPLACE MATERIALIZED VIEW v (x) AS SELECT a FROM t");

    assertFalse(create.ifNotExists);
    assertTrue(create.getReplace());
    assertInstanceOf(SqlSelect.class, create.query);
    assertEquals("CREATE OR REPLACE MATERIALIZED VIEW \"V\" (\"X\") AS\n"
        + "SELECT \"A\"\n"
        + "FROM \"T\"", unparse(create));
  }

  @Test void shouldKeepOptionsWhenViewHasWithClause() throws Exception {
    final SqlCreateMaterializedView create = (SqlCreateMaterializedView) parse(
        "CREATE MATERIALIZED VIEW IF NOT EXISTS counts (k, n)\n"
            + "WITH ('engine' = 'spark', Spark.Partitions = '4')\n"
            + "AS SELECT k, COUNT(*) FROM s GROUP BY k EMIT UPDATE");

    final SqlCreateFreshetMaterializedView view =
        assertInstanceOf(SqlCreateFreshetMaterializedView.class, create);
    assertEquals(Map.of("engine", "spark", "Spark.Partitions", "4"), view.options());
    assertEquals(List.of("engine", "Spark.Partitions"), List.copyOf(view.options().keySet()));
    assertTrue(create.ifNotExists);
    assertEquals("COUNTS", create.name.getSimple());
    assertEquals(2, create.columnList.size());
    assertEquals(SqlKind.CREATE_MATERIALIZED_VIEW, create.getKind());
    assertEquals(EmitMode.UPDATE, assertInstanceOf(SqlEmit.class, create.query).mode());
    assertEquals("CREATE MATERIALIZED VIEW IF NOT EXISTS \"COUNTS\" (\"K\", \"N\")"
        + " WITH ('engine' = 'spark', 'Spark.Partitions' = '4') AS\n"
        + "SELECT \"K\", COUNT(*)\n"
        + "FROM \"S\"\n"
        + "GROUP BY \"K\"\n"
        + "EMIT UPDATE", unparse(create));
  }

  @Test void shouldAcceptUnquotedKeyWhenViewHasWithClause() throws Exception {
    final SqlCreateFreshetMaterializedView view = (SqlCreateFreshetMaterializedView) parse(
        "CREATE MATERIALIZED VIEW v WITH (engine = 'freshet') AS SELECT a FROM t");

    assertEquals(Map.of("engine", "freshet"), view.options());
    assertNull(view.columnList);
    assertEquals("CREATE MATERIALIZED VIEW \"V\" WITH ('engine' = 'freshet') AS\n"
        + "SELECT \"A\"\n"
        + "FROM \"T\"", unparse(view));
  }

  @Test void shouldGiveEmptyOptionsWhenViewHasNoWithClause() throws Exception {
    final SqlCreateFreshetMaterializedView view = (SqlCreateFreshetMaterializedView) parse(
        "CREATE MATERIALIZED VIEW v AS WITH w AS (SELECT a FROM t) SELECT a FROM w");

    assertEquals(Map.of(), view.options());
    assertEquals(SqlKind.WITH, view.query.getKind());
  }

  @Test void shouldKeepOptionsWhenExplainingAViewWithOptions() throws Exception {
    final SqlExplain explain = (SqlExplain) parse(
        "EXPLAIN PLAN FOR CREATE MATERIALIZED VIEW v WITH (engine = 'spark') AS SELECT a FROM t");

    assertEquals(Map.of("engine", "spark"),
        ((SqlCreateFreshetMaterializedView) explain.getExplicandum()).options());
  }

  @Test void shouldRejectViewOptionsWhenParenthesesMissing() {
    final SqlParseException e = parseError(
        "CREATE MATERIALIZED VIEW v WITH engine = 'spark' AS SELECT a FROM t");

    assertPos(e.getPos(), 1, 33);
    assertTrue(e.getMessage().startsWith("Encountered \"engine\" at line 1, column 33.\n"
        + "Was expecting:\n    \"(\" ..."), e::getMessage);
  }

  @Test void shouldRejectViewOptionWhenKeyGivenTwice() {
    final SqlParseException e = parseError(
        "CREATE MATERIALIZED VIEW v WITH (engine = 'a', 'engine' = 'b') AS SELECT a FROM t");

    assertEquals("Option 'engine' is given more than once", e.getMessage());
    assertPos(e.getPos(), 1, 48);
  }

  @Test void shouldParseDropMaterializedViewWhenIfExistsGiven() throws Exception {
    final SqlDropMaterializedView drop =
        (SqlDropMaterializedView) parse("DROP MATERIALIZED VIEW IF EXISTS v");

    assertTrue(drop.ifExists);
    assertEquals("V", drop.name.getSimple());
    assertEquals("DROP MATERIALIZED VIEW IF EXISTS \"V\"", unparse(drop));
  }

  // ---------------------------------------------------------------- DROP STREAM

  @Test void shouldParseDropStreamWhenIfExistsGiven() throws Exception {
    final SqlDropStream drop = (SqlDropStream) parse("drop stream if exists s");

    assertTrue(drop.ifExists());
    assertEquals("S", drop.name().getSimple());
    assertEquals(SqlKind.OTHER_DDL, drop.getKind());
    assertEquals("DROP STREAM IF EXISTS \"S\"", unparse(drop));
  }

  @Test void shouldParseDropStreamWhenIfExistsOmitted() throws Exception {
    final SqlDropStream drop = (SqlDropStream) parse("DROP STREAM db.s");

    assertFalse(drop.ifExists());
    assertEquals(List.of("DB", "S"), drop.name().names);
    assertEquals("DROP STREAM \"DB\".\"S\"", unparse(drop));
  }

  // ---------------------------------------------------------------- CREATE SINK, DROP SINK

  @Test void shouldParseCreateSinkWhenItReadsAView() throws Exception {
    final SqlCreateSink create = (SqlCreateSink) parse("create sink if not exists totals_out from v"
        + " with (connector = 'jdbc', 'table-name' = 't')");

    assertTrue(create.ifNotExists());
    assertEquals("TOTALS_OUT", create.name().getSimple());
    assertEquals("V", create.view().getSimple());
    assertNull(create.query());
    assertEquals(Map.of("connector", "jdbc", "table-name", "t"), create.options());
    assertEquals("CREATE SINK IF NOT EXISTS \"TOTALS_OUT\" FROM \"V\" WITH ('connector' = 'jdbc',"
        + " 'table-name' = 't')", unparse(create));
  }

  @Test void shouldParseCreateSinkWhenItHasAQueryOfItsOwn() throws Exception {
    final SqlCreateSink create = (SqlCreateSink) parse("CREATE SINK totals_out AS SELECT k, COUNT(*)"
        + " FROM s GROUP BY k EMIT UPDATE WITH ('connector' = 'kafka')");

    assertFalse(create.ifNotExists());
    assertNull(create.view());
    assertInstanceOf(SqlEmit.class, create.query());
    assertEquals(Map.of("connector", "kafka"), create.options());
  }

  @Test void shouldRefuseCreateSinkWithoutOptions() {
    assertThrows(SqlParseException.class, () -> parse("CREATE SINK totals_out FROM v"));
  }

  @Test void shouldParseDropSinkWhenIfExistsGiven() throws Exception {
    final SqlDropSink drop = (SqlDropSink) parse("drop sink if exists totals_out");

    assertTrue(drop.ifExists());
    assertEquals("TOTALS_OUT", drop.name().getSimple());
    assertEquals("DROP SINK IF EXISTS \"TOTALS_OUT\"", unparse(drop));
  }

  // ---------------------------------------------------------------- SHOW, DESCRIBE

  @ParameterizedTest
  @EnumSource(SqlShow.Kind.class)
  void shouldParseShowWhenKindGiven(SqlShow.Kind kind) throws Exception {
    final SqlShow show = (SqlShow) parse("show " + kind.name().toLowerCase(Locale.ROOT));

    assertEquals(kind, show.kind());
    assertEquals("SHOW " + kind.name(), unparse(show));
  }

  /** SHOW is tried with a two-token lookahead, so an unknown second word is
   * reported at SHOW, with the valid continuations. */
  @Test void shouldListShowKindsWhenKindUnknown() {
    final SqlParseException e = parseError("SHOW TABLES");

    assertPos(e.getPos(), 1, 1);
    assertTrue(e.getMessage().startsWith("Incorrect syntax near the keyword 'SHOW' at line 1, column 1."),
        e::getMessage);
    assertTrue(e.getMessage().contains("\"SHOW\" \"STREAMS\""), e::getMessage);
    assertTrue(e.getMessage().contains("\"SHOW\" \"VIEWS\""), e::getMessage);
    assertTrue(e.getMessage().contains("\"SHOW\" \"QUERIES\""), e::getMessage);
  }

  @ParameterizedTest
  @ValueSource(strings = {"DESCRIBE clicks", "DESCRIBE TABLE clicks", "DESCRIBE STREAM clicks"})
  void shouldParseDescribeTableWhenStreamOrTableKeywordOptional(String sql) throws Exception {
    final SqlDescribeTable describe = (SqlDescribeTable) parse(sql);

    assertEquals("CLICKS", describe.getTable().getSimple());
    assertNull(describe.getColumn());
    assertEquals("DESCRIBE TABLE \"CLICKS\"", unparse(describe));
  }

  // ---------------------------------------------------------------- STOP QUERY

  @Test void shouldKeepSpellingWhenStopQueryIdIsIdentifier() throws Exception {
    final SqlStopQuery stop = (SqlStopQuery) parse("STOP QUERY clicksPerUser");

    assertEquals("clicksPerUser", stop.queryId());
    assertEquals("STOP QUERY 'clicksPerUser'", unparse(stop));
  }

  @Test void shouldUnquoteWhenStopQueryIdIsQuoted() throws Exception {
    assertEquals("q 1", ((SqlStopQuery) parse("STOP QUERY \"q 1\"")).queryId());
    final SqlStopQuery stop = (SqlStopQuery) parse("stop query 'a-b-c'");
    assertEquals("a-b-c", stop.queryId());
    assertEquals("STOP QUERY 'a-b-c'", unparse(stop));
  }

  @Test void shouldKeepIntegerWhenStopQueryIdIsInteger() throws Exception {
    final SqlStopQuery stop = (SqlStopQuery) parse("STOP QUERY 42");

    assertEquals("42", stop.queryId());
    assertEquals("STOP QUERY 42", unparse(stop));
  }

  @Test void shouldRejectStopQueryWhenIdIsDecimal() {
    final SqlParseException e = parseError("STOP QUERY 4.2");

    assertPos(e.getPos(), 1, 12);
  }

  // ---------------------------------------------------------------- SET, RESET

  @Test void shouldParseSetPropertyWhenKeyAndValueAreStrings() throws Exception {
    final SqlSetProperty set = (SqlSetProperty) parse("SET 'state.partitions' = '4'");

    assertEquals("state.partitions", set.key());
    assertEquals("4", set.value());
    assertNull(set.getScope());
    assertEquals("SET 'state.partitions' = '4'", unparse(set));
  }

  @Test void shouldKeepSpellingWhenSetPropertyKeyIsDottedIdentifier() throws Exception {
    final SqlSetProperty set = (SqlSetProperty) parse("set state.Partitions = '4'");

    assertEquals("state.Partitions", set.key());
    assertEquals("4", set.value());
    assertEquals("SET 'state.Partitions' = '4'", unparse(set));
  }

  @Test void shouldGiveNullValueWhenResetKeyIsString() throws Exception {
    final SqlSetProperty reset = (SqlSetProperty) parse("RESET 'state.partitions'");

    assertEquals("state.partitions", reset.key());
    assertNull(reset.value());
    assertEquals("RESET 'state.partitions'", unparse(reset));
  }

  @Test void shouldKeepScopeWhenAlterSessionSetsProperty() throws Exception {
    final SqlSetProperty set = (SqlSetProperty) parse("ALTER SESSION SET 'a' = 'b'");

    assertEquals("SESSION", set.getScope());
    assertEquals("ALTER SESSION SET 'a' = 'b'", unparse(set));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SET x = 1", "SET x = TRUE", "SET x = ON", "SET x = y", "RESET x", "RESET ALL",
      "ALTER SYSTEM SET x = 1", "ALTER SESSION RESET x",
  })
  void shouldGiveCalciteSetOptionWhenNeitherKeyNorValueIsString(String sql) throws Exception {
    final SqlNode freshet = parse(sql);
    final SqlNode calcite = SqlParser.create(sql).parseStmt();

    assertInstanceOf(SqlSetOption.class, freshet);
    assertEquals(unparse(calcite), unparse(freshet));
  }

  // ---------------------------------------------------------------- plain SQL

  @ParameterizedTest
  @ValueSource(strings = {
      "INSERT INTO s VALUES (1, 'a'), (2, 'b')",
      "INSERT INTO s (a, b) SELECT a, b FROM t WHERE a > 0",
      "SELECT STREAM TUMBLE_END(ts, INTERVAL '1' MINUTE), k, COUNT(*) FROM s "
          + "GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE), k",
      "SELECT HOP_START(ts, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE), COUNT(*) FROM s "
          + "GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)",
      "SELECT * FROM TABLE(TUMBLE(TABLE s, DESCRIPTOR(ts), INTERVAL '1' MINUTE))",
      "SELECT watermark, stop, query, streams, append, complete, queries, views FROM t",
      "SELECT t.watermark AS stop FROM t AS query WHERE streams = 1",
      "UPDATE t SET a = 1 WHERE b = 2",
      "DELETE FROM t WHERE a = 1",
      "EXPLAIN PLAN FOR SELECT * FROM t",
      "DESCRIBE STATEMENT SELECT * FROM t",
  })
  void shouldParseAsCalciteDoesWhenSqlHasNoFreshetSyntax(String sql) throws Exception {
    final SqlNode freshet = parse(sql);
    final SqlNode calcite = SqlParser.create(sql).parseStmt();

    assertEquals(calcite.getClass(), freshet.getClass());
    assertEquals(unparse(calcite), unparse(freshet));
  }

  // ---------------------------------------------------------------- node protocol

  @ParameterizedTest
  @ValueSource(strings = {
      "CREATE OR REPLACE STREAM IF NOT EXISTS s (a INT, WATERMARK FOR a AS a - 1) WITH (k = 'v')",
      "CREATE OR REPLACE MATERIALIZED VIEW IF NOT EXISTS v (x) WITH (k = 'v') AS SELECT a FROM t",
      "CREATE MATERIALIZED VIEW v AS SELECT a FROM t EMIT APPEND",
      "DROP STREAM IF EXISTS s",
      "SELECT a FROM t EMIT APPEND",
      "SHOW QUERIES",
      "STOP QUERY q",
      "ALTER SYSTEM SET 'k' = 'v'",
      "RESET 'k'",
  })
  void shouldKeepClassAndTextWhenCloned(String sql) throws Exception {
    final SqlNode node = parse(sql);
    final SqlNode clone = node.clone(SqlParserPos.ZERO);

    assertEquals(node.getClass(), clone.getClass());
    assertEquals(unparse(node), unparse(clone));
    assertTrue(node.equalsDeep(clone, Litmus.THROW));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "CREATE STREAM s (a INT, WATERMARK FOR a AS a - 1) WITH (k = 'v')",
      "CREATE MATERIALIZED VIEW v (x) WITH (k = 'v') AS SELECT a FROM t",
      "CREATE MATERIALIZED VIEW v AS SELECT a FROM t",
      "SELECT a FROM t EMIT APPEND",
      "SHOW QUERIES",
      "STOP QUERY 7",
      "SET 'k' = 'v'",
  })
  void shouldRebuildNodeWhenOperatorCreatesCallFromOperands(String sql) throws Exception {
    final SqlCall call = (SqlCall) parse(sql);
    final SqlNode rebuilt = call.getOperator().createCall(null, call.getParserPosition(),
        call.getOperandList().toArray(new SqlNode[0]));

    assertAll(
        () -> assertEquals(call.getClass(), rebuilt.getClass()),
        () -> assertEquals(unparse(call), unparse(rebuilt)));
  }

  @Test void shouldUseFreshetFactoryWhenConfigRequested() {
    final SqlParser.Config config = FreshetSqlParser.config();

    assertEquals(FreshetSqlParserImpl.FACTORY, config.parserFactory());
    assertEquals(SqlParser.config().unquotedCasing(), config.unquotedCasing());
    assertEquals(SqlParser.config().quoting(), config.quoting());
    assertEquals(FreshetConformance.INSTANCE, config.conformance());
    assertTrue(config.conformance().isPercentRemainderAllowed());
    assertEquals(SqlConformanceEnum.DEFAULT.isGroupByAlias(),
        config.conformance().isGroupByAlias());
  }

  @Test void shouldParsePercentAsMod() throws SqlParseException {
    assertEquals("SELECT `N` % 10 AS `B`\nFROM `NUMS`",
        FreshetSqlParser.parse("SELECT n % 10 AS b FROM nums").toString());
  }
}
