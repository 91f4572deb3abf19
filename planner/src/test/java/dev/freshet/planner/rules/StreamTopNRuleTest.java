package dev.freshet.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.EmitMode;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * Plans {@code ROW_NUMBER() <= N} filters over streams with {@link StreamTopNRule}: the plan
 * {@code EXPLAIN} shows in each mode, the rank in place of the row number, and the uses the
 * planner refuses.
 */
class StreamTopNRuleTest {
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);

  StreamTopNRuleTest() {
    catalog.addStream(new StreamTable("P", RelDataTypeImpl.proto(planner.typeFactory().builder()
        .add("ID", SqlTypeName.VARCHAR).nullable(true)
        .add("V", SqlTypeName.INTEGER).nullable(true)
        .add("W", SqlTypeName.INTEGER).nullable(true)
        .build()), Optional.empty(), Map.of("connector", "memory"), new MemoryStream("P", 3)));
  }

  private PlannedQuery planned(String sql, EmitMode emit) throws Exception {
    return planner.planQuery(FreshetSqlParser.parse(sql), emit, 1);
  }

  private String plan(String sql, EmitMode emit) throws Exception {
    return RelOptUtil.toString(planned(sql, emit).logical());
  }

  @Test void shouldRankByEveryOrderColumnAndShowTheRankWhereTheRowNumberWas() throws Exception {
    String sql = "SELECT STREAM rn, id, w FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id"
        + " ORDER BY v DESC NULLS LAST, w NULLS FIRST) AS rn FROM p) WHERE rn < 6";
    assertEquals(""
        + "LogicalProject(RN=[$3], ID=[$0], W=[$2])\n"
        + "  LogicalStreamTopN(keys=[[ID]], order=[V DESC NULLS LAST, W NULLS FIRST],"
        + " limit=[5], mode=[Complete], operatorId=[0])\n"
        + "    LogicalTableScan(table=[[FRESHET, P]])\n", plan(sql, EmitMode.COMPLETE));
    // Without EMIT a top-N is an upsert, as an aggregation is.
    PlannedQuery update = planned(sql, null);
    assertEquals(OutputMode.UPDATE, update.outputMode());
    assertEquals(true, RelOptUtil.toString(update.logical()).contains("mode=[Update]"));
  }

  @Test void shouldRankByArrivalWithoutOrderBy() throws Exception {
    assertEquals(""
        + "LogicalProject(ID=[$0], V=[$1])\n"
        + "  LogicalStreamTopN(keys=[[ID]], order=[arrival], limit=[2], mode=[Update],"
        + " operatorId=[0])\n"
        + "    LogicalTableScan(table=[[FRESHET, P]])\n",
        plan("SELECT STREAM id, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id) AS rn"
            + " FROM p) WHERE rn <= 2", EmitMode.UPDATE));
  }

  @Test void shouldRefuseExpressionsAndOtherConditions() {
    PlanningException expression = assertThrows(PlanningException.class, () -> plan("SELECT"
        + " STREAM * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY v + w) AS rn"
        + " FROM p) WHERE rn <= 2", null));
    assertEquals("0A000", expression.state().code());
    assertEquals("ROW_NUMBER() OVER (... ORDER BY ...) on a stream must order by columns, not"
        + " expressions. Partition and order by columns (compute expressions in a subquery"
        + " first) and filter the stream's rows inside the subquery, e.g. SELECT * FROM (SELECT"
        + " *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM s WHERE v > 0)"
        + " WHERE rn <= 3", expression.getMessage());
    PlanningException condition = assertThrows(PlanningException.class, () -> plan("SELECT"
        + " STREAM * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY v DESC) AS rn"
        + " FROM p) WHERE rn <= 2 AND w > 0", null));
    assertEquals("0A000", condition.state().code());
    assertEquals("A top-N per group (ROW_NUMBER() OVER (...) with rn <= 2) on a stream must be"
        + " filtered on the row number alone: a condition on its other columns would hide a"
        + " rank's new row and leave its old one shown", condition.getMessage()
        .substring(0, condition.getMessage().indexOf(". Partition")));
  }
}
