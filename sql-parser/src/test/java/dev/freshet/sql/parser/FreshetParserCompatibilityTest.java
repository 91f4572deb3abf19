package dev.freshet.sql.parser;

import dev.freshet.sql.parser.impl.FreshetSqlParserImpl;

import org.apache.calcite.sql.parser.OverridableSqlParserTest;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserFixture;
import org.apache.calcite.sql.parser.SqlParserTest;

import org.junit.jupiter.api.Test;

import java.util.SortedSet;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Calcite's whole parser test suite ({@link SqlParserTest}) run against
 * Freshet's parser, plus Freshet statements checked through Calcite's
 * fixture, which also checks that unparsed text parses back to the same
 * tree.
 *
 * <p>Two inherited tests expect error messages that Freshet changes on
 * purpose, and Calcite disables three for syntax it does not parse; each is
 * overridden here (through {@link OverridableSqlParserTest}, as Calcite
 * declares them package-private) to state what Freshet's parser does, so
 * nothing is skipped.
 */
class FreshetParserCompatibilityTest extends OverridableSqlParserTest {
  @Override public SqlParserFixture fixture() {
    return super.fixture()
        .withConfig(c -> c.withParserFactory(FreshetSqlParserImpl.FACTORY));
  }

  /** Calcite's reserved words plus {@code EMIT}, the only word Freshet
   * reserves. */
  @Override protected SortedSet<String> getReservedKeywords() {
    final SortedSet<String> words = new TreeSet<>(super.getReservedKeywords());
    words.add("EMIT");
    return words;
  }

  @Test void shouldReserveOnlyEmitWhenComparedWithCalciteReservedWords() {
    final SqlAbstractParserImpl.Metadata metadata = fixture().parser().getMetadata();
    final SortedSet<String> reserved = new TreeSet<>();
    for (String token : metadata.getTokens()) {
      if (metadata.isKeyword(token) && metadata.isReservedWord(token)) {
        reserved.add(token);
      }
    }

    assertEquals(getReservedKeywords(), reserved);
  }

  /**
   * Freshet tries every top-level query first as {@code query [EMIT mode]}
   * with LOOKAHEAD(2); when the query fails at its second token, JavaCC
   * echoes both lookahead tokens ({@code Encountered "from emp"} where
   * Calcite says {@code "from"}), at Calcite's position.
   */
  @Test @Override protected void testSelectList4() {
    sql("select ^from^ emp")
        .fails("(?s)Encountered \"from emp\" at line 1, column 8\\..*");
  }

  /** {@code minus} is reserved as in Calcite; the echo is two tokens when
   * the query fails at its second token, as in {@link #testSelectList4()}. */
  @Test @Override protected void testMinusIsReserved() {
    sql("select ^minus^ from t")
        .fails("(?s)Encountered \"minus from\" at line 1, column 8\\..*");
    sql("select ^minus^ select")
        .fails("(?s)Encountered \"minus select\" at line 1, column 8\\..*");
    sql("select * from t as ^minus^ where x < y")
        .fails("(?s)Encountered \"minus\" at line 1, column 20\\..*");
  }

  /** Disabled in Calcite, whose test expects the placeholder "foo": the
   * parser (Calcite's grammar, which Freshet keeps) reads a column list after
   * an alias without {@code AS} and unparses it with {@code AS}. */
  @Test @Override protected void testDerivedColumnListNoAs() {
    sql("select * from emp e (empno, gender) where true")
        .ok("SELECT *\n"
            + "FROM `EMP` AS `E` (`EMPNO`, `GENDER`)\n"
            + "WHERE TRUE");
  }

  /** Disabled in Calcite, whose test expects the placeholder "foo": the
   * JDBC escape {@code {call ...}} is not SQL the parser reads (Freshet has
   * no procedures to call); it fails at the brace. */
  @Test @Override protected void testEmbeddedCall() {
    expr("^{^call foo(?, ?)}")
        .fails("(?s)Encountered \"\\{\" at line 1, column 1\\..*");
  }

  /** Disabled in Calcite, whose test expects the placeholder "foo": the
   * JDBC escape {@code {? = call ...}} fails at the brace, as
   * {@link #testEmbeddedCall()}. */
  @Test @Override protected void testEmbeddedFunction() {
    expr("^{^? = call bar (?, ?)}")
        .fails("(?s)Encountered \"\\{\" at line 1, column 1\\..*");
  }

  @Test void shouldRoundTripFreshetStatementsWhenCheckedByCalciteFixture() {
    sql("create stream if not exists s (a int not null, ts timestamp,"
        + " watermark for ts as ts - interval '1' second) with (k = 'v')")
        .ok("CREATE STREAM IF NOT EXISTS `S` (`A` INTEGER NOT NULL, `TS` TIMESTAMP,"
            + " WATERMARK FOR `TS` AS (`TS` - INTERVAL '1' SECOND)) WITH ('k' = 'v')")
        .node(isDdl());
    sql("select a from t emit update")
        .ok("SELECT `A`\n"
            + "FROM `T`\n"
            + "EMIT UPDATE");
    sql("explain plan for select a from t emit append")
        .ok("EXPLAIN PLAN INCLUDING ATTRIBUTES WITH IMPLEMENTATION FOR\n"
            + "SELECT `A`\n"
            + "FROM `T`\n"
            + "EMIT APPEND");
    sql("create materialized view v as select a from t emit complete")
        .ok("CREATE MATERIALIZED VIEW `V` AS\n"
            + "SELECT `A`\n"
            + "FROM `T`\n"
            + "EMIT COMPLETE");
    sql("drop stream s").ok("DROP STREAM `S`").node(isDdl());
    sql("show streams").ok("SHOW STREAMS");
    sql("stop query q").ok("STOP QUERY 'q'");
    sql("set a.b = 'c'").ok("SET 'a.b' = 'c'").node(isDdl());
    sql("reset 'a'").ok("RESET 'a'");
    sql("describe stream s").ok("DESCRIBE TABLE `S`");
  }
}
