package dev.freshet.sql.parser;

import dev.freshet.sql.parser.impl.FreshetSqlParserImpl;

import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserFixture;
import org.apache.calcite.sql.parser.SqlParserTest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.Map;
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
 * purpose; {@link Deviations} disables them with the reason, and
 * {@link #shouldEchoTwoTokensWhenQueryFailsAtSecondToken()} states what
 * Freshet does instead. Inherited tests are package-private in Calcite's
 * package, so they cannot be overridden from here.
 */
@ExtendWith(FreshetParserCompatibilityTest.Deviations.class)
class FreshetParserCompatibilityTest extends SqlParserTest {
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

  /** Replaces the inherited {@code testSelectList4} and
   * {@code testMinusIsReserved}: the error position is Calcite's, the echo
   * of the unexpected text has two tokens when a query fails at its second
   * token (see {@link Deviations}). */
  @Test void shouldEchoTwoTokensWhenQueryFailsAtSecondToken() {
    sql("select ^from^ emp")
        .fails("(?s)Encountered \"from emp\" at line 1, column 8\\..*");
    sql("select ^minus^ from t")
        .fails("(?s)Encountered \"minus from\" at line 1, column 8\\..*");
    sql("select ^minus^ select")
        .fails("(?s)Encountered \"minus select\" at line 1, column 8\\..*");
    sql("select * from t as ^minus^ where x < y")
        .fails("(?s)Encountered \"minus\" at line 1, column 20\\..*");
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

  /** Disables the inherited tests that Freshet changes on purpose, giving
   * the reason. */
  static final class Deviations implements ExecutionCondition {
    private static final String TWO_TOKEN_ECHO =
        "Freshet tries every top-level query first as 'query [EMIT mode]' with"
            + " LOOKAHEAD(2); when the query fails at its second token, JavaCC"
            + " echoes both lookahead tokens ('Encountered \"from emp\"' instead"
            + " of '\"from\"'). Same position; see"
            + " shouldEchoTwoTokensWhenQueryFailsAtSecondToken";

    private static final Map<String, String> REASONS = Map.of(
        "testSelectList4", TWO_TOKEN_ECHO,
        "testMinusIsReserved", TWO_TOKEN_ECHO);

    @Override public ConditionEvaluationResult evaluateExecutionCondition(
        ExtensionContext context) {
      return context.getTestMethod()
          .map(method -> REASONS.get(method.getName()))
          .map(ConditionEvaluationResult::disabled)
          .orElseGet(() -> ConditionEvaluationResult.enabled("expected as in Calcite"));
    }
  }
}
