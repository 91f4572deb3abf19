package dev.freshet.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.sql.FreshetSqlParser;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** How {@link FreshetPlanner} reads the {@code STREAM} keyword. */
class FreshetPlannerTest {
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);

  FreshetPlannerTest() {
    catalog.addStream(new StreamTable("S", RelDataTypeImpl.proto(planner.typeFactory().builder()
        .add("K", SqlTypeName.VARCHAR).nullable(true)
        .add("V", SqlTypeName.INTEGER).nullable(true)
        .build()), Optional.empty(), Map.of("connector", "memory"), new MemoryStream("S", 2)));
  }

  @Test void shouldTakeAQueryForAStreamQueryWhenAnyOfItsSelectsSaysStream() throws Exception {
    assertTrue(FreshetPlanner.isStreamQuery(FreshetSqlParser.parse(
        "SELECT STREAM k FROM s")));
    assertTrue(FreshetPlanner.isStreamQuery(FreshetSqlParser.parse(
        "SELECT STREAM k FROM s ORDER BY k")));
    assertTrue(FreshetPlanner.isStreamQuery(FreshetSqlParser.parse(
        "SELECT k FROM s UNION ALL SELECT STREAM k FROM s")));
    assertTrue(FreshetPlanner.isStreamQuery(FreshetSqlParser.parse(
        "WITH t AS (SELECT k FROM s) SELECT STREAM k FROM t")));
    assertFalse(FreshetPlanner.isStreamQuery(FreshetSqlParser.parse(
        "SELECT k FROM s ORDER BY k")));
  }

  @Test void shouldPlanAStreamQueryWhoseStreamKeywordIsInsideAWithClause() throws Exception {
    PlannedQuery query = planner.planQuery(FreshetSqlParser.parse(
        "WITH t AS (SELECT k, v FROM s WHERE v > 0) SELECT STREAM k FROM t"), null, 1);
    assertEquals(""
        + "LogicalProject(K=[$0])\n"
        + "  LogicalFilter(condition=[>($1, 0)])\n"
        + "    LogicalTableScan(table=[[FRESHET, S]])\n",
        RelOptUtil.toString(query.logical()));
  }
}
