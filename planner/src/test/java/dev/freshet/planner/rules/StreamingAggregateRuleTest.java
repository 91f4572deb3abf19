package dev.freshet.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.operators.OutputMode;
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
    root.add("ORDERS", new StreamTable("ORDERS", f -> f.builder()
        .add("REGION", SqlTypeName.VARCHAR).nullable(true)
        .add("PRICE", SqlTypeName.DECIMAL, 10, 2).nullable(true)
        .build(), Optional.empty(), Map.of(), new MemoryStream("ORDERS", 2)));
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

  @Test void shouldKeepDistinctCallsDistinctInBothPhasesWhenAggregatingDistinctValues() {
    RelNode rel = builder.scan("CLICKS")
        .aggregate(builder.groupKey("USER_ID"),
            builder.count(true, "C", builder.field("AMOUNT")),
            builder.sum(true, "S", builder.field("AMOUNT")),
            builder.avg(true, "A", builder.field("AMOUNT")),
            builder.max(builder.field("AMOUNT")).distinct().as("HI"))
        .build();
    assertEquals(""
        + "LogicalProject(USER_ID=[$0], C=[$1], S=[$2], A=[CASE(=($4, 0), null:DOUBLE,"
        + " /($3, CAST($4):DOUBLE))], HI=[$5])\n"
        + "  LogicalStateStoreSave(operatorId=[0], keys=[{0}], outputMode=[Update],"
        + " statePartitions=[1])\n"
        + "    LogicalStreamAggregate(group=[{0}], C=[COUNT(DISTINCT $1)], S=[SUM(DISTINCT $2)],"
        + " A$SUM=[SUM(DISTINCT $3)], A$COUNT=[COUNT(DISTINCT $4)], HI=[MAX($5)],"
        + " phase=[MERGE])\n"
        + "      LogicalStateStoreRestore(operatorId=[0], keys=[{0}])\n"
        + "        LogicalStreamAggregate(group=[{0}], C=[COUNT(DISTINCT $1)],"
        + " S=[SUM(DISTINCT $1)], A$SUM=[SUM(DISTINCT $1)], A$COUNT=[COUNT(DISTINCT $1)],"
        + " HI=[MAX($1)], phase=[PARTIAL])\n"
        + "          LogicalTableScan(table=[[CLICKS]])\n",
        apply(FreshetRules.STREAMING_AGGREGATE, rel));
  }

  @Test void shouldFilterOnlyThePartialCallWhenAggregateHasFilter() {
    builder.scan("CLICKS");
    RelNode rel = builder
        .project(builder.field("USER_ID"), builder.field("AMOUNT"),
            builder.alias(builder.isNotNull(builder.field("USER_ID")), "KNOWN"))
        .aggregate(builder.groupKey("USER_ID"),
            builder.countStar("N").filter(builder.field("KNOWN")),
            builder.avg(builder.field("AMOUNT")).filter(builder.field("KNOWN")).as("A"),
            builder.count(true, "D", builder.field("AMOUNT")).filter(builder.field("KNOWN")))
        .build();
    assertEquals(""
        + "LogicalProject(USER_ID=[$0], N=[$1], A=[CASE(=($3, 0), null:DOUBLE,"
        + " /($2, CAST($3):DOUBLE))], D=[$4])\n"
        + "  LogicalStateStoreSave(operatorId=[0], keys=[{0}], outputMode=[Update],"
        + " statePartitions=[1])\n"
        + "    LogicalStreamAggregate(group=[{0}], N=[$SUM0($1)], A$SUM=[SUM($2)],"
        + " A$COUNT=[$SUM0($3)], D=[COUNT(DISTINCT $4)], phase=[MERGE])\n"
        + "      LogicalStateStoreRestore(operatorId=[0], keys=[{0}])\n"
        + "        LogicalStreamAggregate(group=[{0}], N=[COUNT() FILTER $2],"
        + " A$SUM=[SUM($1) FILTER $2], A$COUNT=[COUNT($1) FILTER $2],"
        + " D=[COUNT(DISTINCT $1) FILTER $2], phase=[PARTIAL])\n"
        + "          LogicalProject(USER_ID=[$0], AMOUNT=[$1], KNOWN=[IS NOT NULL($0)])\n"
        + "            LogicalTableScan(table=[[CLICKS]])\n",
        apply(FreshetRules.STREAMING_AGGREGATE, rel));
  }

  @Test void shouldPlanOneStateKeyWhenAggregateHasNoGroupingColumns() {
    RelNode rel = builder.scan("CLICKS")
        .aggregate(builder.groupKey(), builder.countStar("N"),
            builder.sum(builder.field("AMOUNT")).as("TOTAL"))
        .build();
    assertEquals(""
        + "LogicalStateStoreSave(operatorId=[0], keys=[{}], outputMode=[Update],"
        + " statePartitions=[1])\n"
        + "  LogicalStreamAggregate(group=[{}], N=[$SUM0($0)], TOTAL=[SUM($1)], phase=[MERGE])\n"
        + "    LogicalStateStoreRestore(operatorId=[0], keys=[{}])\n"
        + "      LogicalStreamAggregate(group=[{}], N=[COUNT()], TOTAL=[SUM($1)],"
        + " phase=[PARTIAL])\n"
        + "        LogicalTableScan(table=[[CLICKS]])\n",
        apply(FreshetRules.STREAMING_AGGREGATE, rel));
  }

  @Test void shouldPlanKeysWithoutCallsWhenSelectDistinct() {
    RelNode rel = builder.scan("CLICKS")
        .project(builder.field("USER_ID"))
        .distinct()
        .build();
    assertEquals(""
        + "LogicalStateStoreSave(operatorId=[0], keys=[{0}], outputMode=[Update],"
        + " statePartitions=[1])\n"
        + "  LogicalStreamAggregate(group=[{0}], phase=[MERGE])\n"
        + "    LogicalStateStoreRestore(operatorId=[0], keys=[{0}])\n"
        + "      LogicalStreamAggregate(group=[{0}], phase=[PARTIAL])\n"
        + "        LogicalProject(USER_ID=[$0])\n"
        + "          LogicalTableScan(table=[[CLICKS]])\n",
        apply(FreshetRules.STREAMING_AGGREGATE, rel));
  }

  @Test void shouldDivideTheDecimalSumAndRoundWhenAveragingDecimals() {
    RelNode rel = builder.scan("ORDERS")
        .aggregate(builder.groupKey("REGION"), builder.avg(builder.field("PRICE")).as("A"))
        .build();
    assertEquals(""
        + "LogicalProject(REGION=[$0], A=[CASE(=($2, 0), null:DECIMAL(14, 6),"
        + " CAST(ROUND(/($1, CAST($2):DECIMAL(19, 0) NOT NULL), 6)):DECIMAL(14, 6))])\n"
        + "  LogicalStateStoreSave(operatorId=[0], keys=[{0}], outputMode=[Update],"
        + " statePartitions=[1])\n"
        + "    LogicalStreamAggregate(group=[{0}], A$SUM=[SUM($1)], A$COUNT=[$SUM0($2)],"
        + " phase=[MERGE])\n"
        + "      LogicalStateStoreRestore(operatorId=[0], keys=[{0}])\n"
        + "        LogicalStreamAggregate(group=[{0}], A$SUM=[SUM($1)], A$COUNT=[COUNT($1)],"
        + " phase=[PARTIAL])\n"
        + "          LogicalTableScan(table=[[ORDERS]])\n",
        apply(FreshetRules.STREAMING_AGGREGATE, rel));
  }

  @Test void shouldLeaveACountOfSeveralDistinctColumnsUnchanged() {
    RelNode rel = builder.scan("CLICKS")
        .aggregate(builder.groupKey(),
            builder.count(true, "D", builder.field("USER_ID"), builder.field("AMOUNT")))
        .build();
    assertEquals(RelOptUtil.toString(rel), apply(FreshetRules.STREAMING_AGGREGATE, rel));
  }
}
