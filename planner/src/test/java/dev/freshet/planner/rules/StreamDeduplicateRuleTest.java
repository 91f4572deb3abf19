package dev.freshet.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.sql.FreshetSqlParser;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * Plans {@code ROW_NUMBER()} filters over streams with {@link StreamDeduplicateRule}: the plan
 * {@code EXPLAIN} shows, and the uses it leaves alone, which the planner refuses.
 */
class StreamDeduplicateRuleTest {
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);

  StreamDeduplicateRuleTest() {
    catalog.addStream(new StreamTable("S", RelDataTypeImpl.proto(planner.typeFactory().builder()
        .add("ID", SqlTypeName.VARCHAR).nullable(true)
        .add("V", SqlTypeName.INTEGER).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .build()), Optional.of(new WatermarkSpec("TS", 5_000)), Map.of("connector", "memory"),
        new MemoryStream("S", 3)));
    catalog.addStream(new StreamTable("P", RelDataTypeImpl.proto(planner.typeFactory().builder()
        .add("ID", SqlTypeName.VARCHAR).nullable(true)
        .add("V", SqlTypeName.INTEGER).nullable(true)
        .build()), Optional.empty(), Map.of("connector", "memory"), new MemoryStream("P", 2)));
  }

  private String plan(String sql) throws Exception {
    PlannedQuery query = planner.planQuery(FreshetSqlParser.parse(sql), null, 1);
    return RelOptUtil.toString(query.logical());
  }

  @Test void shouldDeduplicateWithinTheWatermarkWhenOrderedByTheWatermarkColumn()
      throws Exception {
    assertEquals(""
        + "LogicalProject(ID=[$0], V=[$1], TS=[$2], RN=[1:BIGINT])\n"
        + "  LogicalStreamDeduplicate(keys=[[ID]], order=[TS], eventTime=[TS],"
        + " expiresAfter=[TS + 5000 ms], operatorId=[0])\n"
        + "    LogicalEventTimeWatermark(eventTime=[TS], delayMs=[5000])\n"
        + "      LogicalTableScan(table=[[FRESHET, S]])\n",
        plan("SELECT STREAM * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts)"
            + " AS rn FROM s) WHERE rn = 1"));
  }

  @Test void shouldKeepKeysForeverAndKeepOtherConditionsAboveWhenNoWatermark() throws Exception {
    assertEquals(""
        + "LogicalProject(ID=[$0], V=[$1])\n"
        + "  LogicalFilter(condition=[>($1, 2)])\n"
        + "    LogicalProject(ID=[$0], V=[$1], RN=[1:BIGINT])\n"
        + "      LogicalStreamDeduplicate(keys=[[ID, V]], order=[arrival],"
        + " expiresAfter=[never], operatorId=[0])\n"
        + "        LogicalTableScan(table=[[FRESHET, P]])\n",
        plan("SELECT STREAM id, v FROM (SELECT id, v, ROW_NUMBER() OVER (PARTITION BY id, v)"
            + " AS rn FROM p) WHERE rn <= 1 AND v > 2"));
    assertEquals(plan("SELECT STREAM id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY id"
            + " ORDER BY v) AS rn FROM p) WHERE rn = 1"),
        plan("SELECT STREAM id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY id"
            + " ORDER BY v) AS rn FROM p) WHERE 2 > rn"));
  }

  @Test void shouldExpireByAnEventTimeKeyWhenOrderedByAnotherColumn() throws Exception {
    assertEquals(""
        + "LogicalProject(ID=[$0], TS=[$2])\n"
        + "  LogicalStreamDeduplicate(keys=[[ID, TS]], order=[V], eventTime=[TS],"
        + " expiresAfter=[TS + 0 ms], operatorId=[0])\n"
        + "    LogicalEventTimeWatermark(eventTime=[TS], delayMs=[5000])\n"
        + "      LogicalTableScan(table=[[FRESHET, S]])\n",
        plan("SELECT STREAM id, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id, ts"
            + " ORDER BY v) AS rn FROM s) WHERE rn = 1"));
  }

  @Test void shouldLeaveTopNAndDescendingOrderAloneAndRefuseThem() {
    PlanningException topN = assertThrows(PlanningException.class, () -> plan("SELECT STREAM *"
        + " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY v DESC) AS rn FROM s)"
        + " WHERE rn <= 3"));
    assertEquals("0A000", topN.state().code());
    assertEquals("Top-N per group (ROW_NUMBER() OVER (...) with rn <= 3) is not supported on a"
        + " stream yet; only deduplication, rn = 1, is. Keep each key's first row with SELECT *"
        + " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM s) WHERE"
        + " rn = 1, or aggregate per key, e.g. SELECT k, MAX(v) FROM s GROUP BY k",
        topN.getMessage());
    PlanningException desc = assertThrows(PlanningException.class, () -> plan("SELECT STREAM *"
        + " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts DESC) AS rn FROM s)"
        + " WHERE rn = 1"));
    assertEquals("0A000", desc.state().code());
    assertEquals("Deduplication with ROW_NUMBER() on a stream keeps each key's first row: ORDER"
        + " BY ... DESC asks for its last, which a stream never knows, since a later row can"
        + " always come", desc.getMessage().substring(0, desc.getMessage().indexOf(". Keep")));
    // RANK is another window function: the checker's rule.
    PlanningException rank = assertThrows(PlanningException.class, () -> plan("SELECT STREAM *"
        + " FROM (SELECT *, RANK() OVER (PARTITION BY id ORDER BY ts) AS r FROM s) WHERE r = 1"));
    assertEquals("42KDE", rank.state().code());
  }
}
