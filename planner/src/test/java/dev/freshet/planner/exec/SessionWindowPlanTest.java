package dev.freshet.planner.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.EmitMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** How SESSION windows are planned, kept in an execution plan, and refused. */
class SessionWindowPlanTest {
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);

  SessionWindowPlanTest() {
    RelDataTypeFactory f = planner.typeFactory();
    catalog.addStream(new StreamTable("M", RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.VARCHAR).nullable(true)
        .add("N", SqlTypeName.INTEGER).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .build()), Optional.of(new WatermarkSpec("TS", 5000)), Map.of("connector", "memory"),
        new MemoryStream("M", 3)));
  }

  private String logical(String sql, EmitMode emit) throws Exception {
    return RelOptUtil.toString(planner.planQuery(FreshetSqlParser.parse(sql), emit, 2).logical());
  }

  private ExecPlan plan(String sql, EmitMode emit) throws Exception {
    return ExecPlanGenerator.generate(planner.planQuery(FreshetSqlParser.parse(sql), emit, 2));
  }

  @Test void shouldPlanTheGroupFunctionAsASessionAggregateWithItsGapAndKey() throws Exception {
    assertEquals(""
        + "LogicalProject(K=[$0], S=[$1], E=[+($2, 5000:INTERVAL SECOND)], C=[$3])\n"
        + "  LogicalSessionAggregate(operatorId=[0], group=[{0, 1}], sessionKeys=[{0}],"
        + " sessionStart=[$f1], gapMs=[5000], partial=[[MAX($2), COUNT()]],"
        + " merge=[[MAX($2), $SUM0($3)]], outputMode=[Append], statePartitions=[2],"
        + " watermark=[TS - 5000 ms])\n"
        + "    LogicalProject(K=[$0], $f1=[CAST($3):TIMESTAMP(3)], TS=[$2])\n"
        + "      LogicalProject(K=[$0], N=[$1], TS=[$2], window_start=[CAST($2):TIMESTAMP(3)"
        + " NOT NULL], window_end=[CAST(+($2, 5000:INTERVAL SECOND)):TIMESTAMP(3) NOT NULL])\n"
        + "        LogicalFilter(condition=[IS NOT NULL($2)])\n"
        + "          LogicalEventTimeWatermark(eventTime=[TS], delayMs=[5000])\n"
        + "            LogicalTableScan(table=[[FRESHET, M]])\n",
        logical("SELECT STREAM k, SESSION_START(ts, INTERVAL '5' SECOND) AS s,"
            + " SESSION_END(ts, INTERVAL '5' SECOND) AS e, COUNT(*) AS c FROM m"
            + " GROUP BY k, SESSION(ts, INTERVAL '5' SECOND)", EmitMode.APPEND));
  }

  @Test void shouldPlanTheTableFunctionPerItsDescriptorKey() throws Exception {
    assertEquals(""
        + "LogicalProject(K=[$0], window_start=[$1], window_end=[$2], C=[$3], T=[CASE(=($5, 0),"
        + " null:DOUBLE, /(CAST($4):DOUBLE, CAST($5):DOUBLE))])\n"
        + "  LogicalSessionAggregate(operatorId=[0], group=[{0, 3, 4}], sessionKeys=[{0}],"
        + " sessionStart=[window_start], sessionEnd=[window_end], gapMs=[60000],"
        + " partial=[[COUNT(), SUM($1), COUNT($1)]], merge=[[$SUM0($3), SUM($4), $SUM0($5)]],"
        + " outputMode=[Complete], statePartitions=[2])\n"
        + "    LogicalProject(K=[$0], N=[$1], TS=[$2], window_start=[CAST($2):TIMESTAMP(3)"
        + " NOT NULL], window_end=[CAST(+($2, 60000:INTERVAL SECOND)):TIMESTAMP(3) NOT NULL])\n"
        + "      LogicalFilter(condition=[IS NOT NULL($2)])\n"
        + "        LogicalEventTimeWatermark(eventTime=[TS], delayMs=[5000])\n"
        + "          LogicalTableScan(table=[[FRESHET, M]])\n",
        logical("SELECT STREAM k, window_start, window_end, COUNT(*) AS c, AVG(n) AS t"
            + " FROM TABLE(SESSION(TABLE m, DESCRIPTOR(ts), DESCRIPTOR(k), INTERVAL '1' MINUTE))"
            + " GROUP BY k, window_start, window_end", EmitMode.COMPLETE));
  }

  @Test void shouldKeepTheSessionAggregateAndItsStateInTheJsonPlan() throws Exception {
    ExecPlan plan = plan("SELECT STREAM k, window_start, COUNT(*) AS c FROM TABLE(SESSION("
        + "TABLE m, DESCRIPTOR(ts), DESCRIPTOR(k), INTERVAL '5' SECOND))"
        + " GROUP BY k, window_start", EmitMode.APPEND);
    assertEquals(List.of("scan", "watermark", "calc", "session-aggregate"),
        plan.nodes().stream().map(ExecNode::kind).toList());
    ExecOperator.SessionAggregate session =
        (ExecOperator.SessionAggregate) plan.nodes().get(3).operator();
    assertEquals(List.of(0, 3), session.groupSet());
    assertEquals(List.of(1, -1, 5000L),
        List.of(session.startKey(), session.endKey(), session.gapMs()));
    assertEquals(List.of(new StateSchema(0, StateSchema.SESSION_STATE,
        List.of(new ExecColumn("K", "VARCHAR", null)),
        List.of(new ExecColumn("session_start", "BIGINT NOT NULL", null),
            new ExecColumn("session_end", "BIGINT NOT NULL", null),
            new ExecColumn("C", "BIGINT NOT NULL", "SUM0")))), plan.stateSchemas());
    ExecPlan read = ExecPlan.fromJson(plan.toJson());
    assertEquals(plan, read);
    assertEquals(List.of(), PlanCompatibility.stateDifferences(read));
  }

  @Test void shouldRefuseASessionWindowThatNoAggregationMergesOrAGapThatIsNotPositive() {
    PlanningException unmerged = assertThrows(PlanningException.class, () -> logical(
        "SELECT STREAM * FROM TABLE(SESSION(TABLE m, DESCRIPTOR(ts), INTERVAL '5' SECOND))",
        null));
    assertEquals("0A000", unmerged.state().code());
    PlanningException zero = assertThrows(PlanningException.class, () -> logical(
        "SELECT STREAM COUNT(*) FROM m GROUP BY SESSION(ts, INTERVAL '0' SECOND)",
        EmitMode.COMPLETE));
    assertEquals("22023", zero.state().code());
    assertEquals("The gap of a SESSION window must be a positive interval literal, but it is 0 ms."
        + " Use a gap such as INTERVAL '5' MINUTE", zero.getMessage());
    PlanningException otherKey = assertThrows(PlanningException.class, () -> logical(
        "SELECT STREAM n, COUNT(*) FROM TABLE(SESSION(TABLE m, DESCRIPTOR(ts), DESCRIPTOR(k),"
            + " INTERVAL '5' SECOND)) GROUP BY n, window_start, window_end", EmitMode.COMPLETE));
    assertEquals("0A000", otherKey.state().code());
    assertEquals("The sessions of a SESSION table function are per its DESCRIPTOR key [K], so"
        + " its aggregation must group by exactly those columns with window_start and"
        + " window_end. GROUP BY K, window_start, window_end, or change the DESCRIPTOR key",
        otherKey.getMessage());
    PlanningException update = assertThrows(PlanningException.class, () -> logical(
        "SELECT STREAM COUNT(*) FROM m GROUP BY SESSION(ts, INTERVAL '5' SECOND)",
        EmitMode.UPDATE));
    assertEquals("42KDE", update.state().code());
  }

  @Test void shouldRefuseAnAggregationOverSessions() {
    PlanningException e = assertThrows(PlanningException.class, () -> plan(
        "SELECT STREAM e, MAX(c) FROM (SELECT k, SESSION_END(ts, INTERVAL '5' SECOND) AS e,"
            + " COUNT(*) AS c FROM m GROUP BY k, SESSION(ts, INTERVAL '5' SECOND)) GROUP BY e",
        EmitMode.APPEND));
    assertEquals("0A000", e.state().code());
    assertEquals("An aggregation over the result of an aggregation by SESSION window is not"
        + " supported. Aggregate by the session window once, and aggregate its result in a plain"
        + " query over the view", e.getMessage());
  }
}
