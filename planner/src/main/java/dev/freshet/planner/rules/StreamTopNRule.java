package dev.freshet.planner.rules;

import static java.util.Objects.requireNonNull;

import dev.freshet.planner.rel.StreamTopN;
import dev.freshet.planner.rel.StreamingRels;
import dev.freshet.planner.rel.logical.LogicalStreamTopN;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.TransformationRule;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.immutables.value.Value;

/**
 * Planner rule that turns a filter keeping the first N row numbers of {@code ROW_NUMBER()} over
 * a stream into a {@link LogicalStreamTopN}: Flink SQL's top-N,
 * {@code SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn
 * FROM s) WHERE rn <= 3} (or {@code rn < 4}).
 *
 * <p>{@code Filter(rn <= N, Project(..., ROW_NUMBER() OVER (PARTITION BY keys ORDER BY ...)))}
 * becomes {@code Project(..., $RANK, StreamTopN(keys, order, N))}: the top-N emits each kept
 * row with its rank, which the projection shows where it showed the row number.
 *
 * <p>It takes what {@link StreamDeduplicateRule} leaves: a bound above 1, or row 1 of an order
 * deduplication cannot keep (descending, several columns). Keys and order columns must be
 * columns, and the filter must bound the row number alone; {@link RowNumberFilter#topNReason}
 * says why otherwise, and {@link RowNumberFilter#rejectUnconverted} refuses it.
 *
 * @see FreshetRules#STREAM_TOP_N
 */
@Value.Enclosing
public class StreamTopNRule extends RelRule<StreamTopNRule.Config>
    implements TransformationRule {

  protected StreamTopNRule(Config config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final Filter filter = call.rel(0);
    final Project project = call.rel(1);
    final RelNode result = apply(filter, project);
    if (result != null) {
      call.transformTo(result);
    }
  }

  /** The top-N equivalent to {@code filter} over {@code project}, or null. */
  public static @Nullable RelNode apply(Filter filter, Project project) {
    if (!StreamingRels.isStreaming(project)) {
      return null;
    }
    RowNumberFilter match = RowNumberFilter.of(filter, project);
    if (match == null || match.reason() == null || match.topNReason() != null) {
      return null;
    }
    List<RelFieldCollation> order = new ArrayList<>();
    for (RexFieldCollation c : match.orderKeys()) {
      order.add(new RelFieldCollation(((RexInputRef) c.left).getIndex(), c.getDirection(),
          c.getNullDirection()));
    }
    StreamTopN topN = LogicalStreamTopN.create(project.getInput(),
        requireNonNull(match.keys(), "keys"), RelCollations.of(order), match.limit());
    List<RexNode> projects = new ArrayList<>(project.getProjects());
    projects.set(match.column(), new RexInputRef(topN.rankColumn(),
        topN.getRowType().getFieldList().get(topN.rankColumn()).getType()));
    return LogicalProject.create(topN, List.of(), projects, project.getRowType(), Set.of());
  }

  /** Rule configuration; Immutables generates its implementation, as Calcite's rules do. */
  @Value.Immutable(singleton = true)
  public interface Config extends RelRule.Config {
    /** Matches a filter over a projection that computes a window function. */
    Config DEFAULT = ImmutableStreamTopNRule.Config.of()
        .withDescription("StreamTopNRule")
        .withOperandSupplier(b0 -> b0.operand(Filter.class).oneInput(b1 -> b1.operand(Project.class)
            .predicate(p -> RexOver.containsOver(p.getProjects(), null)).anyInputs()))
        .as(Config.class);

    @Override @Nullable String description();

    @Override default StreamTopNRule toRule() {
      return new StreamTopNRule(this);
    }
  }
}
