package dev.freshet.planner.rules;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.rel.AggregatePhase;
import dev.freshet.planner.rel.EventTimeColumn;
import dev.freshet.planner.rel.EventTimeLineage;
import dev.freshet.planner.rel.StreamingRels;
import dev.freshet.planner.rel.logical.LogicalStateStoreRestore;
import dev.freshet.planner.rel.logical.LogicalStateStoreSave;
import dev.freshet.planner.rel.logical.LogicalStreamAggregate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.rules.TransformationRule;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RelBuilderFactory;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.immutables.value.Value;

/**
 * Planner rule that turns an aggregate over a stream into a stateful streaming aggregation.
 *
 * <p>{@code Aggregate(keys, calls)} over a stream becomes, bottom to top:
 * <pre>
 * LogicalStreamAggregate(phase=PARTIAL)       group this batch's rows by key
 *   LogicalStateStoreRestore(operatorId)      read each key's saved value (version N)
 *     LogicalStreamAggregate(phase=MERGE)     fold the batch's value into it
 *       LogicalStateStoreSave(outputMode)     save version N+1; emit per the output mode
 *         Project                             final values, e.g. AVG = SUM / COUNT
 * </pre>
 * Partial {@code COUNT}s are merged with {@code $SUM0}; {@code SUM}, {@code MIN} and {@code MAX}
 * with themselves; {@code AVG(x)} is kept as {@code SUM(x)} and {@code COUNT(x)}.
 *
 * <p>{@code COUNT(DISTINCT x)} and {@code SUM(DISTINCT x)} stay distinct in both phases: the
 * PARTIAL call {@code COUNT(DISTINCT $1)} is merged by the MERGE call {@code COUNT(DISTINCT $k)} of
 * its partial column {@code k}. Their column has the call's SQL type in the plan, but at run time
 * the value between the PARTIAL aggregate and {@code StateStoreSave} is the set of distinct values
 * (the batch's, then the saved ones): a count of distinct values cannot be merged, a set can. The
 * executor turns the set into its size or sum when {@code StateStoreSave} emits a row.
 * {@code AVG(DISTINCT x)} is {@code SUM(DISTINCT x) / COUNT(DISTINCT x)}; {@code MIN(DISTINCT x)}
 * and {@code MAX(DISTINCT x)} are {@code MIN(x)} and {@code MAX(x)}.
 *
 * <p>{@code FILTER (WHERE c)} stays on the PARTIAL call, which reads the input's filter column;
 * the MERGE call has none, because the partial values already left the filtered rows out.
 *
 * @see FreshetRules#STREAMING_AGGREGATE
 */
@Value.Enclosing
public class StreamingAggregateRule extends RelRule<StreamingAggregateRule.Config>
    implements TransformationRule {

  /** Creates a StreamingAggregateRule. */
  protected StreamingAggregateRule(Config config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final Aggregate aggregate = call.rel(0);
    final RelNode result = apply(call.builder(), aggregate, config.outputMode(),
        config.numPartitions());
    if (result != null) {
      call.transformTo(result);
    }
  }

  /**
   * Builds the streaming chain for {@code aggregate}, or returns null if it cannot be run
   * incrementally (the output-mode checker reports why before planning gets here).
   */
  public static @Nullable RelNode apply(RelBuilder relBuilder, Aggregate aggregate,
      OutputMode outputMode, int numPartitions) {
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
      // Grouping sets would need one state key space per set; Spark rejects them too.
      return null;
    }
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (!isSupported(call)) {
        return null;
      }
    }
    final RelNode input = aggregate.getInput();
    final RexBuilder rexBuilder = aggregate.getCluster().getRexBuilder();
    final RelDataTypeFactory typeFactory = aggregate.getCluster().getTypeFactory();
    final int keyCount = aggregate.getGroupCount();
    final ImmutableBitSet stateKeys = ImmutableBitSet.range(keyCount);

    final List<AggregateCall> partialCalls = new ArrayList<>();
    final List<AggregateCall> mergeCalls = new ArrayList<>();
    // For each original call, the merged columns its final value is computed from.
    final List<int[]> finalInputs = new ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      final SqlKind kind = call.getAggregation().getKind();
      // Duplicates change neither a minimum nor a maximum.
      final boolean distinct = call.isDistinct() && kind != SqlKind.MIN && kind != SqlKind.MAX;
      if (kind == SqlKind.AVG) {
        RelDataType sumType = typeFactory.createTypeWithNullability(
            typeFactory.getTypeSystem().deriveSumType(typeFactory,
                input.getRowType().getFieldList().get(call.getArgList().get(0)).getType()),
            true);
        RelDataType countType = typeFactory.createSqlType(SqlTypeName.BIGINT);
        int sum = addPhases(partialCalls, mergeCalls, keyCount, SqlStdOperatorTable.SUM,
            SqlStdOperatorTable.SUM, distinct, call, sumType, call.getName() + "$SUM");
        int count = addPhases(partialCalls, mergeCalls, keyCount, SqlStdOperatorTable.COUNT,
            distinct ? SqlStdOperatorTable.COUNT : SqlStdOperatorTable.SUM0, distinct, call,
            countType, call.getName() + "$COUNT");
        finalInputs.add(new int[] {sum, count});
      } else {
        SqlAggFunction merge = kind == SqlKind.COUNT && !distinct
            ? SqlStdOperatorTable.SUM0 : call.getAggregation();
        finalInputs.add(new int[] {addPhases(partialCalls, mergeCalls, keyCount,
            call.getAggregation(), merge, distinct, call, call.getType(), call.getName())});
      }
    }

    final RelNode partial = LogicalStreamAggregate.create(input, aggregate.getGroupSet(),
        partialCalls, AggregatePhase.PARTIAL);
    final RelNode restore = LogicalStateStoreRestore.create(partial, 0, stateKeys);
    final RelNode merged = LogicalStreamAggregate.create(restore, stateKeys, mergeCalls,
        AggregatePhase.MERGE);
    final EventTimeColumn eventTimeKey = eventTimeKey(aggregate);
    if (outputMode == OutputMode.APPEND && eventTimeKey == null) {
      // No group could ever be final; the output-mode checker has told the user.
      return null;
    }
    final RelNode save = LogicalStateStoreSave.create(merged, 0, stateKeys, outputMode,
        numPartitions, eventTimeKey);

    relBuilder.push(save);
    final List<RexNode> projects = new ArrayList<>(relBuilder.fields(stateKeys));
    for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
      AggregateCall call = aggregate.getAggCallList().get(i);
      int[] columns = finalInputs.get(i);
      projects.add(columns.length == 1
          ? relBuilder.field(columns[0])
          : average(rexBuilder, call.getType(), relBuilder.field(columns[0]),
              relBuilder.field(columns[1])));
    }
    relBuilder.project(projects, aggregate.getRowType().getFieldNames());
    final RelNode result = relBuilder.build();
    return RelOptUtil.areRowTypesEqual(result.getRowType(), aggregate.getRowType(), false)
        ? result
        : RelOptUtil.createCastRel(result, aggregate.getRowType(), true);
  }

  /** The first grouping column that carries event time, if any. */
  private static @Nullable EventTimeColumn eventTimeKey(Aggregate aggregate) {
    for (int i = 0; i < aggregate.getGroupCount(); i++) {
      Optional<EventTimeColumn> column = EventTimeLineage.of(aggregate, i);
      if (column.isPresent()) {
        return column.get();
      }
    }
    return null;
  }

  /**
   * Adds a partial call over the arguments and filter of {@code call}, and its merge call; returns
   * the merged column's index.
   */
  private static int addPhases(List<AggregateCall> partialCalls, List<AggregateCall> mergeCalls,
      int keyCount, SqlAggFunction partial, SqlAggFunction merge, boolean distinct,
      AggregateCall call, RelDataType type, @Nullable String name) {
    int column = keyCount + partialCalls.size();
    partialCalls.add(AggregateCall.create(partial, distinct, false, false, List.of(),
        call.getArgList(), call.filterArg, null, RelCollations.EMPTY, type, name));
    mergeCalls.add(AggregateCall.create(merge, distinct, false, false, List.of(),
        List.of(column), -1, null, RelCollations.EMPTY, type, name));
    return column;
  }

  /**
   * {@code CASE WHEN count = 0 THEN NULL ELSE CAST(sum AS t) / CAST(count AS t) END}, or for a
   * decimal {@code t(p, s)}, {@code CAST(ROUND(sum / count, s) AS t)}: a decimal sum may have more
   * integer digits than the average's type, and Spark rounds the average half up where a cast would
   * truncate it.
   */
  private static RexNode average(RexBuilder rexBuilder, RelDataType type, RexNode sum,
      RexNode count) {
    RelDataTypeFactory typeFactory = rexBuilder.getTypeFactory();
    RelDataType nullableType = typeFactory.createTypeWithNullability(type, true);
    RexNode quotient = SqlTypeUtil.isDecimal(type)
        ? rexBuilder.makeCall(SqlStdOperatorTable.ROUND,
            rexBuilder.makeCall(SqlStdOperatorTable.DIVIDE, sum,
                rexBuilder.makeCast(typeFactory.createSqlType(SqlTypeName.DECIMAL,
                    typeFactory.getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL), 0), count)),
            rexBuilder.makeExactLiteral(java.math.BigDecimal.valueOf(type.getScale())))
        : rexBuilder.makeCall(SqlStdOperatorTable.DIVIDE,
            rexBuilder.makeCast(nullableType, sum), rexBuilder.makeCast(nullableType, count));
    return rexBuilder.makeCall(SqlStdOperatorTable.CASE,
        rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, count,
            rexBuilder.makeBigintLiteral(java.math.BigDecimal.ZERO)),
        rexBuilder.makeNullLiteral(nullableType),
        rexBuilder.makeCast(nullableType, quotient));
  }

  /** Whether the executor can maintain {@code call} incrementally. */
  public static boolean isSupported(AggregateCall call) {
    if (call.isApproximate() || call.distinctKeys != null
        || !call.getCollation().getFieldCollations().isEmpty()) {
      return false;
    }
    switch (call.getAggregation().getKind()) {
    case COUNT:
      // The executor keeps distinct values of one column, not of a row of several.
      return call.isDistinct() ? call.getArgList().size() == 1 : call.getArgList().size() <= 1;
    case SUM0:
      return !call.isDistinct() && call.getArgList().size() == 1;
    case SUM:
    case MIN:
    case MAX:
    case AVG:
      return call.getArgList().size() == 1;
    default:
      return false;
    }
  }

  /** Rule configuration; Immutables generates its implementation, as Calcite's rules do. */
  @Value.Immutable(singleton = true)
  public interface Config extends RelRule.Config {
    /** Matches a {@code LogicalAggregate} over a stream; output mode UPDATE, one partition. */
    Config DEFAULT = ImmutableStreamingAggregateRule.Config.of()
        .withDescription("StreamingAggregateRule")
        .withOperandSupplier(b0 -> b0.operand(LogicalAggregate.class)
            .predicate(aggregate -> StreamingRels.isStreaming(aggregate.getInput()))
            .anyInputs())
        .withRelBuilderFactory(RelBuilder.proto())
        .as(Config.class);

    @Override @Nullable String description();

    /** The output mode the rule's aggregate emits in. */
    @Value.Default default OutputMode outputMode() {
      return OutputMode.UPDATE;
    }

    /** Returns a config whose rule emits in {@code mode}. */
    Config withOutputMode(OutputMode mode);

    /** How many state partitions the rule's aggregate uses. */
    @Value.Default default int numPartitions() {
      return 1;
    }

    /** Returns a config whose rule uses {@code n} state partitions. */
    Config withNumPartitions(int n);

    /** Refuses a configuration no rule can run with. */
    @Value.Check default void check() {
      if (numPartitions() < 1) {
        throw new IllegalArgumentException("numPartitions must be positive: " + numPartitions());
      }
    }

    @Override default StreamingAggregateRule toRule() {
      return new StreamingAggregateRule(this);
    }
  }
}
