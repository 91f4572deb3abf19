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

  /** Applies the rule alone to a plan built over stream {@code S} or plain table {@code T}. */
  private static String applyRule(String table, long bound) {
    org.apache.calcite.schema.SchemaPlus root =
        org.apache.calcite.tools.Frameworks.createRootSchema(true);
    root.add("S", new StreamTable("S", f -> f.builder()
        .add("ID", SqlTypeName.VARCHAR).nullable(true)
        .add("V", SqlTypeName.INTEGER).nullable(true)
        .build(), Optional.empty(), Map.of(), new MemoryStream("S", 2)));
    root.add("T", new org.apache.calcite.schema.impl.AbstractTable() {
      @Override public org.apache.calcite.rel.type.RelDataType getRowType(
          org.apache.calcite.rel.type.RelDataTypeFactory f) {
        return f.builder().add("ID", SqlTypeName.VARCHAR).add("V", SqlTypeName.INTEGER).build();
      }
    });
    org.apache.calcite.tools.RelBuilder b = org.apache.calcite.tools.RelBuilder.create(
        org.apache.calcite.tools.Frameworks.newConfigBuilder().defaultSchema(root).build());
    org.apache.calcite.rel.RelNode rel = b.scan(table)
        .project(b.field("ID"), b.field("V"),
            b.aggregateCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.ROW_NUMBER).over()
                .partitionBy(b.field("ID")).orderBy(b.field("V")).as("RN"))
        .filter(b.lessThanOrEqual(b.field("RN"), b.literal(bound)))
        .build();
    org.apache.calcite.plan.hep.HepPlanner planner = new org.apache.calcite.plan.hep.HepPlanner(
        new org.apache.calcite.plan.hep.HepProgramBuilder()
            .addRuleInstance(FreshetRules.STREAM_DEDUPLICATE).build());
    planner.setRoot(rel);
    return RelOptUtil.toString(planner.findBestExp());
  }

  @Test void shouldTurnTheFilterOfRowNumberOneIntoADeduplication() {
    assertEquals(""
        + "LogicalProject(ID=[$0], V=[$1], RN=[1:BIGINT])\n"
        + "  LogicalStreamDeduplicate(keys=[[ID]], order=[V], expiresAfter=[never],"
        + " operatorId=[0])\n"
        + "    LogicalTableScan(table=[[S]])\n", applyRule("S", 1));
  }

  @Test void shouldLeaveATableOrATopNUnchanged() {
    String filter = "LogicalFilter(condition=[<=($2, %d)])\n"
        + "  LogicalProject(ID=[$0], V=[$1], RN=[ROW_NUMBER() OVER (PARTITION BY $0 ORDER BY $1)])\n"
        + "    LogicalTableScan(table=[[%s]])\n";
    assertEquals(String.format(filter, 1, "T"), applyRule("T", 1));
    assertEquals(String.format(filter, 3, "S"), applyRule("S", 3));
  }

  @Test void shouldLeaveTopNAndDescendingOrderToTheTopNRule() throws Exception {
    // The rank is the row number: the projection that only renamed it goes.
    assertEquals(""
        + "LogicalStreamTopN(keys=[[ID]], order=[V DESC], limit=[3], mode=[Update],"
        + " operatorId=[0])\n"
        + "  LogicalEventTimeWatermark(eventTime=[TS], delayMs=[5000])\n"
        + "    LogicalTableScan(table=[[FRESHET, S]])\n",
        plan("SELECT STREAM * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY v"
            + " DESC) AS rn FROM s) WHERE rn <= 3"));
    // Row 1 of the last row first: a top-1, whose row changes when a later one comes.
    assertEquals(""
        + "LogicalStreamTopN(keys=[[ID]], order=[TS DESC], limit=[1], mode=[Update],"
        + " operatorId=[0])\n"
        + "  LogicalEventTimeWatermark(eventTime=[TS], delayMs=[5000])\n"
        + "    LogicalTableScan(table=[[FRESHET, S]])\n",
        plan("SELECT STREAM * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts"
            + " DESC) AS rn FROM s) WHERE rn = 1"));
    // RANK is another window function: the checker's rule.
    PlanningException rank = assertThrows(PlanningException.class, () -> plan("SELECT STREAM *"
        + " FROM (SELECT *, RANK() OVER (PARTITION BY id ORDER BY ts) AS r FROM s) WHERE r = 1"));
    assertEquals("42KDE", rank.state().code());
  }
}
