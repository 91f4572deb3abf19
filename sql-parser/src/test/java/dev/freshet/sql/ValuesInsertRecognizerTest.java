package dev.freshet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.sql.parser.impl.FreshetSqlParserImpl;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The recognizer's tree is the generated parser's, node for node (class, kind, operator, value,
 * type, names, position, quoting); what it does not recognize it leaves to the parser.
 */
class ValuesInsertRecognizerTest {
  private static final SqlParser.Config GENERATED = SqlParser.config()
      .withParserFactory(FreshetSqlParserImpl.FACTORY)
      .withConformance(dev.freshet.sql.parser.FreshetConformance.INSTANCE);

  @ParameterizedTest
  @ValueSource(strings = {
      "INSERT INTO lat VALUES (1, 2)",
      "insert into lat values (12, 345)",
      "  INSERT  INTO  lat\nVALUES(1,2)  ",
      "INSERT INTO lat VALUES (1, 2), (3, 4),(5,6)",
      "INSERT INTO lat (key1, val) VALUES (1, 2)",
      "INSERT INTO lat(key1,val)VALUES(1,2)",
      "INSERT INTO \"Lat\" (\"k\", \"I\"\"x\") VALUES (1, 2)",
      "INSERT INTO clicks VALUES ('ann', 3.25, 1.5E0, 2e-3, 7., TRUE, false, NULL)",
      "INSERT INTO clicks VALUES ('it''s', '', 'h\u00e9 \u4e2d')",
      "INSERT INTO c_1 VALUES (99999999999999999999999, 0.000000000000000000001)",
      "INSERT INTO t VALUES (1)\r\n",
      "INSERT INTO t\r\nVALUES\r(1,\n2)",
      "INSERT INTO t VALUES (TIMESTAMP '2024-01-31 10:00:00.125', date '2024-01-31',"
          + " TIME  '10:00:00', TIMESTAMP 'not a time')",
      "INSERT INTO t VALUES (TIMESTAMP_X)",
  })
  void buildsTheParsersTree(String sql) throws SqlParseException {
    SqlInsert recognized = ValuesInsertRecognizer.recognize(sql);
    if (sql.endsWith("(TIMESTAMP_X)")) {
      assertNull(recognized, "an identifier is no literal");
      return;
    }
    assertNotNull(recognized, sql);
    SqlNode parsed = SqlParser.create(sql, GENERATED).parseStmt();
    assertSame(parsed, recognized, "statement");
    assertEquals(parsed.toString(), recognized.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "INSERT INTO lat VALUES (-1, 2)",
      "INSERT INTO lat VALUES (+1, 2)",
      "INSERT INTO lat VALUES (1 + 1, 2)",
      "INSERT INTO lat VALUES (CAST(NULL AS BIGINT), 2)",
      "INSERT INTO lat VALUES ('a' 'b')",
      "INSERT INTO lat VALUES ('a'\n'b')",
      "INSERT INTO lat VALUES (_UTF8'a')",
      "INSERT INTO lat VALUES (N'a')",
      "INSERT INTO lat VALUES (X'01')",
      "INSERT INTO lat VALUES (TIMESTAMP WITH LOCAL TIME ZONE '2020-01-01 00:00:00')",
      "INSERT INTO lat VALUES (TIMESTAMP)",
      "INSERT INTO lat VALUES (DATE '2020-01-01' '2')",
      "INSERT INTO lat VALUES (INTERVAL '1' DAY)",
      "INSERT INTO lat VALUES (.5)",
      "INSERT INTO lat VALUES (1e)",
      "INSERT INTO lat VALUES (1, 2);",
      "INSERT INTO lat VALUES (1, 2) -- c",
      "INSERT INTO lat /* c */ VALUES (1, 2)",
      "INSERT INTO lat\tVALUES (1, 2)",
      "INSERT INTO lat VALUES 1",
      "INSERT INTO lat VALUES (1, 2",
      "INSERT INTO lat VALUES ()",
      "INSERT INTO lat VALUES (1,)",
      "INSERT INTO lat VALUES ('abc)",
      "INSERT INTO lat VALUES ('a\nb')",
      "INSERT INTO s.lat VALUES (1)",
      "INSERT INTO \"s.lat\" VALUES (1)",
      "INSERT INTO \"\" VALUES (1)",
      "INSERT INTO values VALUES (1)",
      "INSERT INTO name VALUES (1)",
      "INSERT INTO lat$ VALUES (1)",
      "INSERT INTO l\u00e4t VALUES (1)",
      "INSERT INTO lat SELECT * FROM t",
      "INSERT INTO lat (k) SELECT 1",
      "INSERT INTO lat VALUES (UNKNOWN)",
      "INSERT INTO lat VALUES (DEFAULT)",
      "INSERT INTO lat VALUES (1) ORDER BY 1",
      "UPSERT INTO lat VALUES (1)",
      "SELECT 1",
      "INSERTINTO lat VALUES (1)",
      "",
  })
  void leavesEverythingElseToTheParser(String sql) {
    assertNull(ValuesInsertRecognizer.recognize(sql), sql);
  }

  @Test
  void anIdentifierLongerThanTheParserAcceptsIsLeftToIt() {
    String name = "a".repeat(129);
    assertNull(ValuesInsertRecognizer.recognize("INSERT INTO " + name + " VALUES (1)"));
    assertNotNull(ValuesInsertRecognizer.recognize("INSERT INTO " + name.substring(1)
        + " VALUES (1)"));
  }

  @Test
  void theParserIsNotBuiltForARecognizedInsert() throws SqlParseException {
    long before = FreshetSqlParser.parsersBuilt();
    for (int i = 0; i < 1_000; i++) {
      assertInstanceOf(SqlInsert.class,
          FreshetSqlParser.parse("INSERT INTO lat VALUES (" + i + ", 'x')"));
    }
    assertEquals(before, FreshetSqlParser.parsersBuilt());
    FreshetSqlParser.parse("INSERT INTO lat VALUES (-1, 'x')");
    assertEquals(before + 1, FreshetSqlParser.parsersBuilt());
  }

  @Test
  void errorsAreTheParsers() {
    SqlParseException e = assertThrows(SqlParseException.class,
        () -> FreshetSqlParser.parse("INSERT INTO lat VALUES (1, 2"));
    assertEquals(1, e.getPos().getLineNum());
  }

  /** Same class, kind, position, quoting, and for leaves the same names, value and type. */
  private static void assertSame(SqlNode expected, SqlNode actual, String where) {
    if (expected == null || actual == null) {
      assertEquals(expected, actual, where);
      return;
    }
    assertEquals(expected.getClass(), actual.getClass(), where);
    assertEquals(expected.getKind(), actual.getKind(), where);
    String at = where + " " + expected;
    assertEquals(describe(expected.getParserPosition()), describe(actual.getParserPosition()),
        at);
    if (expected instanceof SqlLiteral) {
      SqlLiteral e = (SqlLiteral) expected;
      SqlLiteral a = (SqlLiteral) actual;
      assertEquals(e.getTypeName(), a.getTypeName(), at);
      assertEquals(e.getValue(), a.getValue(), at);
      assertEquals(String.valueOf(e.getValue() == null ? null : e.getValue().getClass()),
          String.valueOf(a.getValue() == null ? null : a.getValue().getClass()), at);
      assertEquals(e.toString(), a.toString(), at);
    } else if (expected instanceof SqlIdentifier) {
      SqlIdentifier e = (SqlIdentifier) expected;
      SqlIdentifier a = (SqlIdentifier) actual;
      assertEquals(e.names, a.names, at);
      for (int i = 0; i < e.names.size(); i++) {
        assertEquals(describe(e.getComponentParserPosition(i)),
            describe(a.getComponentParserPosition(i)), at);
      }
    } else if (expected instanceof SqlNodeList) {
      List<SqlNode> e = ((SqlNodeList) expected).getList();
      List<SqlNode> a = ((SqlNodeList) actual).getList();
      assertEquals(e.size(), a.size(), at);
      for (int i = 0; i < e.size(); i++) {
        assertSame(e.get(i), a.get(i), where + "[" + i + "]");
      }
    } else if (expected instanceof SqlCall) {
      SqlCall e = (SqlCall) expected;
      SqlCall a = (SqlCall) actual;
      assertEquals(e.getOperator(), a.getOperator(), at);
      assertEquals(e.getFunctionQuantifier(), a.getFunctionQuantifier(), at);
      assertEquals(e.operandCount(), a.operandCount(), at);
      for (int i = 0; i < e.operandCount(); i++) {
        assertSame(e.operand(i), a.operand(i), where + "." + i);
      }
    } else {
      throw new AssertionError("unexpected node " + expected.getClass());
    }
  }

  private static String describe(org.apache.calcite.sql.parser.SqlParserPos pos) {
    return pos.getLineNum() + ":" + pos.getColumnNum() + "-" + pos.getEndLineNum() + ":"
        + pos.getEndColumnNum() + (pos.isQuoted() ? " quoted" : "") + " "
        + pos.getClass().getSimpleName();
  }
}
