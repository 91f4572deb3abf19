package dev.freshet.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.runtime.OutputMode;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.FreshetTypeSystem;
import dev.freshet.planner.catalog.StreamTable;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;
import org.junit.jupiter.api.Test;

/** Runs {@link StreamingAggregateRule} on logical plans built with a {@link RelBuilder}. */
class StreamingAggregateRuleTest {
  private final RelBuilder builder = builder();

  private static RelBuilder builder() {
    SchemaPlus root = Frameworks.createRootSchema(true);
    root.add("CLICKS", new StreamTable("CLICKS", f -> f.builder()
        .add("USER_ID", SqlTypeName.VARCHAR).nullable(true)
        .add("AMOUNT", SqlTypeName.DOUBLE).nullable(true)
        .build(), Optional.empty(), Map.of(), new MemoryStream("CLICKS", 2)));
    root.add("USERS", new AbstractTable() {
      @Override public RelDataType getRowType(RelDataTypeFactory f) {
        return f.builder().add("USER_ID", SqlTypeName.VARCHAR).add("AGE", SqlTypeName.INTEGER)
            .build();
      }
    });
    FrameworkConfig config = Frameworks.newConfigBuilder().defaultSchema(root)
        .typeSystem(FreshetTypeSystem.INSTANCE).build();
    return RelBuilder.create(config);
  }

  private static String apply(RelOptRule rule, RelNode rel) {
    HepPlanner planner = new HepPlanner(new HepProgramBuilder().addRuleInstance(rule).build());
    planner.setRoot(rel);
    return RelOptUtil.toString(planner.findBestExp());
  }

  @Test void shouldPlanRestoreMergeAndSaveInUpdateModeWhenAggregatingAStream() {
    RelNode rel = builder.scan("CLICKS")
        .aggregate(builder.groupKey("USER_ID"),
            builder.countStar("N"), builder.sum(builder.field("AMOUNT")).as("TOTAL"))
        .build();
    assertEquals(""
        + "LogicalStateStoreSave(operatorId=[0], keys=[{0}], outputMode=[Update],"
        + " statePartitions=[1])\n"
        + "  LogicalStreamAggregate(group=[{0}], N=[$SUM0($1)], TOTAL=[SUM($2)], phase=[MERGE])\n"
        + "    LogicalStateStoreRestore(operatorId=[0], keys=[{0}])\n"
        + "      LogicalStreamAggregate(group=[{0}], N=[COUNT()], TOTAL=[SUM($1)],"
        + " phase=[PARTIAL])\n"
        + "        LogicalTableScan(table=[[CLICKS]])\n",
        apply(FreshetRules.STREAMING_AGGREGATE, rel));
  }

  @Test void shouldKeepSumAndCountForAverageAndDivideOnTop() {
    RelNode rel = builder.scan("CLICKS")
        .aggregate(builder.groupKey("USER_ID"), builder.avg(builder.field("AMOUNT")).as("A"))
        .build();
    String plan = apply(StreamingAggregateRule.Config.DEFAULT
        .withOutputMode(OutputMode.COMPLETE).withNumPartitions(4).toRule(), rel);
    assertEquals(""
        + "LogicalProject(USER_ID=[$0], A=[CASE(=($2, 0), null:DOUBLE,"
        + " /($1, CAST($2):DOUBLE))])\n"
        + "  LogicalStateStoreSave(operatorId=[0], keys=[{0}], outputMode=[Complete],"
        + " statePartitions=[4])\n"
        + "    LogicalStreamAggregate(group=[{0}], A$SUM=[SUM($1)], A$COUNT=[$SUM0($2)],"
        + " phase=[MERGE])\n"
        + "      LogicalStateStoreRestore(operatorId=[0], keys=[{0}])\n"
        + "        LogicalStreamAggregate(group=[{0}], A$SUM=[SUM($1)], A$COUNT=[COUNT($1)],"
        + " phase=[PARTIAL])\n"
        + "          LogicalTableScan(table=[[CLICKS]])\n",
        plan);
  }

  @Test void shouldLeaveAnAggregateOverATableUnchanged() {
    RelNode rel = builder.scan("USERS")
        .aggregate(builder.groupKey("USER_ID"), builder.countStar("N"))
        .build();
    assertEquals(RelOptUtil.toString(rel), apply(FreshetRules.STREAMING_AGGREGATE, rel));
  }

  @Test void shouldLeaveADistinctAggregateUnchanged() {
    RelNode rel = builder.scan("CLICKS")
        .aggregate(builder.groupKey("USER_ID"),
            builder.count(true, "D", builder.field("AMOUNT")))
        .build();
    assertEquals(RelOptUtil.toString(rel), apply(FreshetRules.STREAMING_AGGREGATE, rel));
  }
}
