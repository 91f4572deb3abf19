package dev.freshet.engine.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.sql.FreshetSqlParser;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An INSERT of literals read without Calcite ({@link LiteralValues}) gives exactly the values
 * Calcite's validator, converter and casts give (same Java class, same decimal scale), and
 * anything it does not take is left to Calcite.
 */
class LiteralValuesTest {
  private static Engine engine;
  private static StreamTable stream;

  /** One column per type and precision the path takes, and some it leaves to Calcite. */
  @BeforeAll static void createStream() throws Exception {
    engine = new Engine("literal-values");
    Session session = engine.openSession();
    session.execute("CREATE STREAM t (b BIGINT NOT NULL, i INTEGER, s SMALLINT, y TINYINT,"
        + " d DOUBLE, f FLOAT, r REAL, m DECIMAL(10, 2), m0 DECIMAL(5), v VARCHAR(5),"
        + " vv VARCHAR, c CHAR(3), ok BOOLEAN, ts TIMESTAMP(3), ts0 TIMESTAMP, dt DATE,"
        + " tm TIME(3), tz TIMESTAMP WITH LOCAL TIME ZONE)");
    stream = engine.planner().stream(new SqlIdentifier("T", SqlParserPos.ZERO));
  }

  @AfterAll static void closeEngine() {
    engine.close();
  }

  private static SqlInsert parse(String sql) throws Exception {
    return (SqlInsert) FreshetSqlParser.parse(sql);
  }

  private static Optional<List<Object[]>> direct(String sql) throws Exception {
    return LiteralValues.rows(parse(sql), stream.getRowType(engine.planner().typeFactory()));
  }

  private static List<Object[]> planned(String sql) throws Exception {
    return InsertExecutor.planned(engine.planner(), parse(sql), stream);
  }

  /** Each value with its class and, for a decimal, its scale: what a state store keeps. */
  private static List<String> described(List<Object[]> rows) {
    List<String> out = new ArrayList<>();
    for (Object[] row : rows) {
      List<String> values = new ArrayList<>();
      for (Object v : row) {
        values.add(v == null ? "null" : v.getClass().getSimpleName() + ":" + v
            + (v instanceof BigDecimal d ? "/scale " + d.scale() : ""));
      }
      out.add(values.toString());
    }
    return out;
  }

  /**
   * {@code column = literal} into the stream, with b = 1 besides: if the direct path takes it,
   * both paths give the same row; {@code taken} says whether it must.
   */
  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "b  | 0                              | true",
      "b  | -42                            | true",
      "b  | 9223372036854775807            | true",
      "b  | -9223372036854775808           | true",
      "i  | 7                              | true",
      "i  | -2147483648                    | true",
      "i  | 2147483647                     | true",
      "i  | 2147483648                     | false",
      "i  | 1.0                            | false",
      "i  | 1E0                            | false",
      "i  | '7'                            | false",
      "i  | NULL                           | true",
      "i  | CAST(NULL AS INTEGER)          | true",
      "i  | CAST(NULL AS BIGINT)           | false",
      "i  | 1 + 1                          | false",
      "s  | -32768                         | true",
      "s  | 32768                          | false",
      "y  | 127                            | true",
      "y  | -128                           | true",
      "y  | 128                            | false",
      "d  | 1.5                            | true",
      "d  | 1.5E0                          | true",
      "d  | -0.1                           | true",
      "d  | 0.1                            | true",
      "d  | 3                              | true",
      "d  | 1E308                          | true",
      "d  | 123456789012345678901234567890 | false",
      "d  | 1234567890123456789            | true",
      "d  | 4.9E-324                       | true",
      "f  | 0.1                            | true",
      "f  | 2.5E0                          | true",
      "r  | 0.1                            | false",
      "m  | 1.5                            | true",
      "m  | 1.25                           | true",
      "m  | -3                             | true",
      "m  | 0.05                           | true",
      "m  | 12345678.91                    | true",
      "m  | 123456789.1                    | false",
      "m  | 1.125                          | false",
      "m  | 1.5E0                          | false",
      "m0 | 12345                          | true",
      "m0 | 1.0                            | false",
      "v  | 'abc'                          | true",
      "v  | ''                             | true",
      "v  | 'it''s'                        | true",
      "v  | 'abcde'                        | true",
      "v  | 'abcdef'                       | false",
      "v  | U&'\\00e9t\\00e9'              | false",
      "v  | 7                              | false",
      "vv | 'any length at all, really'    | true",
      "c  | 'ab'                           | false",
      "ok | TRUE                           | true",
      "ok | FALSE                          | true",
      "ok | UNKNOWN                        | false",
      "ok | 'true'                         | false",
      "ts | TIMESTAMP '2024-01-02 03:04:05'     | true",
      "ts | TIMESTAMP '2024-01-02 03:04:05.123' | true",
      "ts | TIMESTAMP '2024-01-02 03:04:05.1'   | true",
      "ts | TIMESTAMP '1969-12-31 23:59:59.999' | true",
      "ts | TIMESTAMP '2024-01-02 03:04:05.1234' | false",
      "ts | '2024-01-02 03:04:05'               | false",
      "ts0 | TIMESTAMP '2024-01-02 03:04:05'    | true",
      "ts0 | TIMESTAMP '2024-01-02 03:04:05.5'  | false",
      "dt | DATE '2024-02-29'                   | true",
      "dt | DATE '1900-01-01'                   | true",
      "tm | TIME '10:11:12.345'                 | true",
      "tm | TIME '23:59:59'                     | true",
      "tz | TIMESTAMP '2024-01-02 03:04:05'     | false",
  })
  void shouldGiveCalcitesValueWhereItTakesTheLiteral(String column, String literal,
      boolean taken) throws Exception {
    String sql = column.equals("b")
        ? "INSERT INTO t (b) VALUES (" + literal + ")"
        : "INSERT INTO t (b, " + column + ") VALUES (1, " + literal + ")";
    Optional<List<Object[]>> direct = direct(sql);
    assertEquals(taken, direct.isPresent(), sql);
    if (direct.isPresent()) {
      assertEquals(described(planned(sql)), described(direct.get()), sql);
    }
  }

  @Test void shouldTakeWholeRowsInTheStreamsOrderAndLeaveOutColumnsNull() throws Exception {
    String all = "INSERT INTO t VALUES (1, 2, 3, 4, 5.5, 6.5E0, NULL, 7.25, 8, 'v', 'vv',"
        + " NULL, TRUE, TIMESTAMP '2024-01-02 03:04:05.006', TIMESTAMP '2024-01-02 03:04:05',"
        + " DATE '2024-01-02', TIME '03:04:05', NULL), (-1, NULL, NULL, NULL, NULL, NULL,"
        + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)";
    assertEquals(described(planned(all)), described(direct(all).orElseThrow()));
    assertEquals(2, direct(all).orElseThrow().size());

    String reordered = "INSERT INTO t (ok, v, b) VALUES (FALSE, 'x', 10), (TRUE, 'y', 11)";
    assertEquals(described(planned(reordered)), described(direct(reordered).orElseThrow()));
    Object[] first = direct(reordered).orElseThrow().get(0);
    assertEquals(Arrays.asList(10L, null, false, "x"),
        Arrays.asList(first[0], first[1], first[12], first[9]));
  }

  @Test void shouldLeaveToCalciteWhatItMustCheckOrConvert() throws Exception {
    for (String sql : new String[] {
        "INSERT INTO t (i) VALUES (1)",                // leaves NOT NULL b out
        "INSERT INTO t (b) VALUES (NULL)",             // NULL for NOT NULL b
        "INSERT INTO t (b, b) VALUES (1, 2)",          // a column twice
        "INSERT INTO t (\"b\") VALUES (1)",            // not the stream's column name
        "INSERT INTO t (b, i) VALUES (1)",             // fewer values than columns
        "INSERT INTO t (b) VALUES (1, 2)",             // more values than columns
        "INSERT INTO t (b) SELECT 1 FROM (VALUES (1))",
        "INSERT INTO t (b) VALUES (1), (1 + 1)",       // one row not literal
        "INSERT INTO t VALUES (1)",                    // fewer values than the stream's columns
    }) {
      assertTrue(direct(sql).isEmpty(), sql);
    }
  }
}
