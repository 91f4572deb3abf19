package dev.freshet.planner.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.sql.FreshetSqlParser;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A calc's expressions survive the plan's JSON exactly: the plan a view stores is the plan it
 * runs after a restart. Writing checks the round trip itself, so each query here fails if any
 * of its expressions reads back with another digest or type.
 */
class RexProgramJsonTest {
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);

  RexProgramJsonTest() {
    RelDataTypeFactory f = planner.typeFactory();
    catalog.addStream(new StreamTable("M", RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.VARCHAR).nullable(true)
        .add("N", SqlTypeName.INTEGER).nullable(true)
        .add("D", SqlTypeName.DECIMAL, 10, 2).nullable(true)
        .add("X", SqlTypeName.DOUBLE).nullable(true)
        .add("B", SqlTypeName.BOOLEAN).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .add("P", SqlTypeName.BIGINT).nullable(true)
        .build()), Optional.empty(), Map.of("connector", "memory"), new MemoryStream("M", 7)));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT STREAM k, n * 2 + 1 AS a, d * 1.5 AS b, x / 3 AS c, d + 123456.78901234567 AS e"
          + " FROM m WHERE n > 0",
      "SELECT STREAM CASE WHEN n > 10 THEN 'big' WHEN n > 5 THEN 'mid' ELSE 'small' END AS s"
          + " FROM m",
      "SELECT STREAM k FROM m WHERE k IN ('a', 'b', 'c') AND n BETWEEN 1 AND 9",
      "SELECT STREAM UPPER(k) || ':' || CAST(n AS VARCHAR) AS label, CHAR_LENGTH(k) AS len"
          + " FROM m WHERE k LIKE 'u%' OR k IS NULL",
      "SELECT STREAM COALESCE(n, 0) AS n0, NULLIF(k, '') AS k1, CAST(x AS DECIMAL(12, 3)) AS e"
          + " FROM m WHERE NOT b",
      "SELECT STREAM ts + INTERVAL '1' HOUR AS later, FLOOR(ts TO MINUTE) AS whole_minute FROM m"
          + " WHERE ts > TIMESTAMP '2026-01-01 00:00:00'",
      "SELECT STREAM k, COUNT(*) AS c, AVG(x) AS mean FROM m WHERE n <> 3 GROUP BY k"
          + " HAVING COUNT(*) > 1",
      "SELECT STREAM MOD(n, 7) AS r, ABS(d) AS a, SUBSTRING(k FROM 2 FOR 3) AS part,"
          + " TRIM(k) AS t, POSITION('x' IN k) AS p FROM m",
      // Calcite simplifies a range into SEARCH, whose Sarg of BIGINTs its JSON cannot read
      // back.
      "SELECT STREAM k, COUNT(*) FILTER (WHERE n >= 10 AND n < 100) AS c,"
          + " COUNT(*) FILTER (WHERE p >= 10000 AND p < 1000000) AS d,"
          + " COUNT(*) FILTER (WHERE x < 1.5 OR x > 7.5) AS e FROM m GROUP BY k",
      "SELECT STREAM k, n >= 10 AND n < 100 AS inside FROM m WHERE k <> 'a' AND k <> 'b'"})
  void shouldReadBackEveryCalcExactly(String sql) throws Exception {
    ExecPlan plan = ExecPlanGenerator.generate(
        planner.planQuery(FreshetSqlParser.parse(sql), null, 1));
    ExecPlan back = ExecPlan.fromJson(plan.toJson());
    assertEquals(plan, back);
    int calcs = 0;
    for (ExecNode node : back.nodes()) {
      if (node.operator() instanceof ExecOperator.Calc calc) {
        calcs++;
        // What the builder compiles: the program read from JSON, for the node's columns.
        assertEquals(node.output().size(), RexProgramJson.read(calc.program(),
            planner.typeFactory()).getOutputRowType().getFieldCount());
      }
    }
    assertEquals(true, calcs > 0, plan.toJson());
  }

  @Test void shouldRefuseWhatIsNotAProgram() {
    JsonNodeFactory json = JsonNodeFactory.instance;
    UnreadablePlanException e = assertThrows(UnreadablePlanException.class,
        () -> RexProgramJson.read(json.objectNode().put("projects", 1), planner.typeFactory()));
    assertEquals("a calc's program needs \"input\", \"projects\" and \"output\":"
        + " {\"projects\":1}", e.getMessage());
  }
}
