package dev.freshet.planner.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.sql.FreshetSqlParser;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * The execution plan the planner emits for a query, its JSON form, and which stored plans a
 * newly planned one can resume from.
 */
class ExecPlanTest {
  private static final StateSchema STATE = new StateSchema(0, "aggregate",
      List.of(new ExecColumn("K", "VARCHAR", null)),
      List.of(new ExecColumn("C", "BIGINT NOT NULL", "SUM0"),
          new ExecColumn("T", "BIGINT", "SUM")));

  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);

  ExecPlanTest() {
    RelDataTypeFactory f = planner.typeFactory();
    catalog.addStream(new StreamTable("M", RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.VARCHAR).nullable(true)
        .add("N", SqlTypeName.INTEGER).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .build()), Optional.of(new WatermarkSpec("TS", 5000)), Map.of("connector", "memory"),
        new MemoryStream("M", 3)));
  }

  private ExecPlan plan(String sql) throws Exception {
    return ExecPlanGenerator.generate(planner.planQuery(FreshetSqlParser.parse(sql), null, 2));
  }

  @Test void shouldRecordTheStateSchemaOfAStreamingAggregation() throws Exception {
    ExecPlan plan = plan("SELECT STREAM k, COUNT(*) AS c, SUM(n) AS t FROM m WHERE n > 0"
        + " GROUP BY k");
    assertEquals(ExecPlan.VERSION, plan.version());
    assertEquals(List.of("scan", "watermark", "calc", "stateful-aggregate"),
        plan.nodes().stream().map(ExecNode::kind).toList());
    assertEquals(List.of(0, 1, 2, 3), plan.nodes().stream().map(ExecNode::id).toList());
    assertEquals(List.of(STATE), plan.stateSchemas());
  }

  @Test void shouldRecordADistinctAccumulatorAndTheWindowInTheKey() throws Exception {
    ExecPlan plan = plan("SELECT STREAM window_start, COUNT(DISTINCT k) AS users FROM TABLE("
        + "TUMBLE(TABLE m, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start");
    assertEquals(List.of(new StateSchema(0, "aggregate",
        List.of(new ExecColumn("window_start", "TIMESTAMP(3) NOT NULL", null)),
        List.of(new ExecColumn("USERS", "BIGINT NOT NULL", "COUNT DISTINCT")))),
        plan.stateSchemas());
  }

  @Test void shouldKeepNoStateForAStatelessQuery() throws Exception {
    ExecPlan plan = plan("SELECT STREAM k FROM m WHERE n > 1");
    assertEquals(List.of(), plan.stateSchemas());
  }

  @Test void shouldReadBackTheJsonItWrites() throws Exception {
    ExecPlan plan = plan("SELECT STREAM k, COUNT(*) AS c, SUM(n) AS t FROM m GROUP BY k");
    assertEquals(plan, ExecPlan.fromJson(plan.toJson()));
  }

  @Test void shouldRecordTheDeduplicationsStateAndReadItsJsonBack() throws Exception {
    ExecPlan plan = plan("SELECT STREAM n, COUNT(*) AS c FROM (SELECT *, ROW_NUMBER() OVER"
        + " (PARTITION BY k ORDER BY ts) AS rn FROM m) WHERE rn = 1 GROUP BY n");
    assertEquals(List.of("scan", "watermark", "deduplicate", "calc", "stateful-aggregate"),
        plan.nodes().stream().map(ExecNode::kind).toList());
    assertEquals(new ExecOperator.Deduplicate(0, List.of(0), 2, false, 2, 2, 5000),
        plan.nodes().get(2).operator());
    assertEquals(new StateSchema(0, "deduplicate", List.of(new ExecColumn("K", "VARCHAR", null)),
        List.of(new ExecColumn("expiresAt", "TIMESTAMP(3)", null))),
        plan.stateSchemas().get(0));
    assertEquals(1, plan.stateSchemas().get(1).operatorId());
    String json = plan.toJson();
    assertEquals(true, json.contains("\"kind\" : \"deduplicate\""), json);
    assertEquals(plan, ExecPlan.fromJson(json));
    assertEquals(List.of(), PlanCompatibility.stateDifferences(ExecPlan.fromJson(json)));
    StateSchema other = new StateSchema(0, "deduplicate",
        List.of(new ExecColumn("K", "INTEGER", null)), plan.stateSchemas().get(0).value());
    List<ExecNode> nodes = new java.util.ArrayList<>(plan.nodes());
    ExecNode dedup = nodes.get(2);
    nodes.set(2, new ExecNode(dedup.id(), dedup.operator(), dedup.detail(), dedup.output(),
        other, dedup.inputs()));
    assertEquals(List.of("operator 0 (deduplicate): its state was written with key schema"
        + " [K INTEGER], but this Freshet keeps [K VARCHAR] for the deduplication the plan runs"
        + " there"), PlanCompatibility.stateDifferences(ExecPlan.of(nodes)));
  }

  @Test void shouldRecordTheTopNsStateAndReadItsJsonBack() throws Exception {
    ExecPlan plan = ExecPlanGenerator.generate(planner.planQuery(FreshetSqlParser.parse(
        "SELECT STREAM k, n, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY"
            + " n DESC, ts) AS rn FROM m) WHERE rn <= 3"),
        dev.freshet.sql.parser.EmitMode.COMPLETE, 2));
    assertEquals(List.of("scan", "watermark", "top-n", "calc"),
        plan.nodes().stream().map(ExecNode::kind).toList());
    assertEquals(new ExecOperator.TopN(0, List.of(0), List.of(
            new ExecOperator.SortField(1, true, true), new ExecOperator.SortField(2, false, false)),
            3, dev.freshet.executor.operators.OutputMode.COMPLETE, false),
        plan.nodes().get(2).operator());
    assertEquals(new StateSchema(0, "top-n", List.of(new ExecColumn("K", "VARCHAR", null),
        new ExecColumn("rank", "BIGINT", null)), List.of(new ExecColumn("K", "VARCHAR", null),
        new ExecColumn("N", "INTEGER", null), new ExecColumn("TS", "TIMESTAMP(3)", null))),
        plan.stateSchemas().get(0));
    String json = plan.toJson();
    assertEquals(true, json.contains("\"kind\" : \"top-n\""), json);
    assertEquals(plan, ExecPlan.fromJson(json));
    assertEquals(List.of(), PlanCompatibility.stateDifferences(ExecPlan.fromJson(json)));
    StateSchema other = new StateSchema(0, "top-n", List.of(new ExecColumn("K", "INTEGER",
        null), new ExecColumn("rank", "BIGINT", null)), plan.stateSchemas().get(0).value());
    List<ExecNode> nodes = new java.util.ArrayList<>(plan.nodes());
    ExecNode topN = nodes.get(2);
    nodes.set(2, new ExecNode(topN.id(), topN.operator(), topN.detail(), topN.output(),
        other, topN.inputs()));
    assertEquals(List.of("operator 0 (top-n): its state was written with key schema"
        + " [K INTEGER, rank BIGINT], but this Freshet keeps [K VARCHAR, rank BIGINT] for the"
        + " top-N the plan runs there"), PlanCompatibility.stateDifferences(ExecPlan.of(nodes)));
  }

  @Test void shouldRefuseAPlanOfAnotherVersion() {
    UnreadablePlanException e = assertThrows(UnreadablePlanException.class,
        () -> ExecPlan.fromJson("{\"version\": 2, \"operators\": []}"));
    assertEquals("its version is 2, but this Freshet reads plans of version 1 only",
        e.getMessage());
    assertEquals("it has no whole-number \"version\"", assertThrows(
        UnreadablePlanException.class, () -> ExecPlan.fromJson("{\"nodes\": []}")).getMessage());
  }

  @Test void shouldRefuseWhatIsNotAPlan() {
    assertEquals("it is not a JSON object", assertThrows(UnreadablePlanException.class,
        () -> ExecPlan.fromJson("[1]")).getMessage());
    String unknownField = assertThrows(UnreadablePlanException.class,
        () -> ExecPlan.fromJson("{\"version\": 1, \"nodes\": [], \"extra\": true}")).getMessage();
    assertEquals(true, unknownField.startsWith("it is not a version 1 plan: Unrecognized field"
        + " \"extra\""), unknownField);
    String truncated = assertThrows(UnreadablePlanException.class,
        () -> ExecPlan.fromJson("{\"version\": 1, \"nodes\": [")).getMessage();
    assertEquals(true, truncated.startsWith("it is not valid JSON: "), truncated);
  }

  @Test void shouldFindTheStateSchemaItRecordsInThePlansItMakes() throws Exception {
    ExecPlan plan = plan("SELECT STREAM k, COUNT(*) AS c, SUM(n) AS t FROM m GROUP BY k");
    assertEquals(List.of(), PlanCompatibility.stateDifferences(plan));
    assertEquals(List.of(), PlanCompatibility.stateDifferences(ExecPlan.fromJson(plan.toJson())));
  }

  @Test void shouldNameEachDifferenceOfKeyValueAndStateName() throws Exception {
    StateSchema changed = new StateSchema(0, "join",
        List.of(new ExecColumn("K", "INTEGER", null)),
        List.of(new ExecColumn("C", "BIGINT NOT NULL", "COUNT")));
    ExecPlan plan = withState(plan("SELECT STREAM k, COUNT(*) AS c, SUM(n) AS t FROM m"
        + " GROUP BY k"), changed);
    assertEquals(List.of("operator 0 (join): its state was named join, but this Freshet names"
        + " it aggregate for the aggregate the plan runs there",
        "operator 0 (join): its state was written with key schema [K INTEGER], but this Freshet"
            + " keeps [K VARCHAR] for the aggregate the plan runs there",
        "operator 0 (join): its state was written with value schema [C COUNT BIGINT NOT NULL],"
            + " but this Freshet keeps [C SUM0 BIGINT NOT NULL, T SUM BIGINT] for the aggregate"
            + " the plan runs there"),
        PlanCompatibility.stateDifferences(plan));
  }

  @Test void shouldNameStateRecordedForAnotherOperatorOrNone() throws Exception {
    ExecPlan plan = plan("SELECT STREAM k, COUNT(*) AS c, SUM(n) AS t FROM m GROUP BY k");
    StateSchema moved = new StateSchema(1, STATE.name(), STATE.key(), STATE.value());
    assertEquals(List.of("operator 1 (aggregate): the plan records it for node 2, whose"
        + " aggregate keeps its state in operator 0"),
        PlanCompatibility.stateDifferences(withState(plan, moved)));
    assertEquals(List.of("operator 0 (aggregate): the plan records no state schema for it"),
        PlanCompatibility.stateDifferences(withState(plan, null)));
  }

  @Test void shouldNameADifferenceOfTheRowsEmitted() throws Exception {
    ExecPlan counts = plan("SELECT STREAM k, COUNT(*) AS c FROM m GROUP BY k");
    ExecPlan sums = plan("SELECT STREAM k, SUM(n) AS c FROM m GROUP BY k");
    assertEquals(List.of(), PlanCompatibility.outputDifferences(counts, counts));
    assertEquals(List.of("the stored plan emits [K VARCHAR, C BIGINT NOT NULL], but the view's"
        + " query now yields [K VARCHAR, C BIGINT]"),
        PlanCompatibility.outputDifferences(counts, sums));
  }

  /** {@code plan} with its last node's state replaced. */
  private static ExecPlan withState(ExecPlan plan, StateSchema state) {
    List<ExecNode> nodes = new java.util.ArrayList<>(plan.nodes());
    ExecNode last = nodes.remove(nodes.size() - 1);
    nodes.add(new ExecNode(last.id(), last.operator(), last.detail(), last.output(), state));
    return ExecPlan.of(nodes);
  }
}
