package dev.freshet.planner.rules;

import static java.util.Objects.requireNonNull;

import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.planner.rel.StreamingRels;
import dev.freshet.planner.rel.logical.LogicalStreamDeduplicate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.TransformationRule;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexUtil;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.immutables.value.Value;

/**
 * Planner rule that turns a filter keeping row number 1 of {@code ROW_NUMBER()} over a stream
 * into a {@link LogicalStreamDeduplicate}: Flink SQL's deduplication,
 * {@code SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts) AS rn FROM s)
 * WHERE rn = 1} (or {@code rn <= 1}, {@code rn < 2}).
 *
 * <p>{@code Filter(rn = 1, Project(..., ROW_NUMBER() OVER (PARTITION BY keys ORDER BY col)))}
 * becomes {@code Project(..., 1, StreamDeduplicate(keys, col))}: the row number of every row
 * kept is 1, and the filter's other conjuncts stay in a filter above.
 *
 * <p>What "first" means: ordered by the stream's watermark column, a key's state expires once
 * the watermark passes its first row's event time plus the watermark's delay (Spark's
 * {@code dropDuplicatesWithinWatermark}); ordered by another column or by none, the first row is
 * the first to arrive (the least value among one batch's rows) and the key is kept forever,
 * unless a key column is the watermark column, which then expires it (Spark's
 * {@code dropDuplicates} on an event-time key). With a watermark on the stream, late rows are
 * dropped either way.
 *
 * <p>A descending order, several order columns, expressions as keys and a bound above 1 (top-N)
 * are left alone; {@link RowNumberFilter#rejectUnconverted} says why they do not run.
 *
 * @see FreshetRules#STREAM_DEDUPLICATE
 */
@Value.Enclosing
public class StreamDeduplicateRule extends RelRule<StreamDeduplicateRule.Config>
    implements TransformationRule {

  protected StreamDeduplicateRule(Config config) {
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

  /** The deduplication equivalent to {@code filter} over {@code project}, or null. */
  public static @Nullable RelNode apply(Filter filter, Project project) {
    if (!StreamingRels.isStreaming(project)) {
      // A batch query's window function is Calcite's to run.
      return null;
    }
    RowNumberFilter match = RowNumberFilter.of(filter, project);
    if (match == null || match.reason() != null) {
      return null;
    }
    RelNode input = project.getInput();
    List<Integer> keys = requireNonNull(match.keys(), "keys");
    int order = -1;
    boolean nullsFirst = false;
    if (!match.orderKeys().isEmpty()) {
      RexFieldCollation collation = match.orderKeys().get(0);
      order = ((RexInputRef) collation.left).getIndex();
      nullsFirst = collation.getNullDirection() == RelFieldCollation.NullDirection.FIRST;
    }
    // The watermark column whose late rows go: the ORDER BY column if it is one.
    int eventTime = watermarkOf(input, order).isPresent() ? order : -1;
    for (int i = 0; i < input.getRowType().getFieldCount() && eventTime < 0; i++) {
      if (watermarkOf(input, i).isPresent()) {
        eventTime = i;
      }
    }
    long delayMs = eventTime < 0 ? 0 : watermarkOf(input, eventTime).get().delayMs();
    int expiry = -1;
    long expiryDelayMs = 0;
    if (order >= 0 && eventTime == order) {
      expiry = order;
      expiryDelayMs = delayMs;
    } else {
      for (int key : keys) {
        if (watermarkOf(input, key).isPresent()) {
          expiry = key;
          break;
        }
      }
    }
    RelNode dedup = LogicalStreamDeduplicate.create(input, keys, order, nullsFirst, eventTime,
        expiry, expiryDelayMs);
    RexBuilder rexBuilder = project.getCluster().getRexBuilder();
    List<RexNode> projects = new ArrayList<>(project.getProjects());
    projects.set(match.column(), rexBuilder.makeExactLiteral(BigDecimal.ONE,
        match.over().getType()));
    RelNode result = LogicalProject.create(dedup, List.of(), projects, project.getRowType(),
        Set.of());
    if (!match.others().isEmpty()) {
      result = LogicalFilter.create(result, RexUtil.composeConjunction(rexBuilder,
          match.others()));
    }
    return result;
  }

  /**
   * The watermark of the stream whose watermark column {@code column} of {@code rel} is, as it
   * is (not computed from it), if it is one.
   */
  static Optional<WatermarkSpec> watermarkOf(RelNode rel, int column) {
    if (column < 0) {
      return Optional.empty();
    }
    RelMetadataQuery mq = rel.getCluster().getMetadataQuery();
    Set<RelColumnOrigin> origins = mq.getColumnOrigins(rel, column);
    if (origins == null || origins.size() != 1) {
      return Optional.empty();
    }
    RelColumnOrigin origin = origins.iterator().next();
    StreamTable stream = origin.getOriginTable().unwrap(StreamTable.class);
    if (origin.isDerived() || stream == null) {
      return Optional.empty();
    }
    String name = origin.getOriginTable().getRowType().getFieldNames()
        .get(origin.getOriginColumnOrdinal());
    return stream.watermark().filter(w -> w.column().equals(name));
  }

  /** Rule configuration; Immutables generates its implementation, as Calcite's rules do. */
  @Value.Immutable(singleton = true)
  public interface Config extends RelRule.Config {
    /** Matches a filter over a projection that computes a window function. */
    Config DEFAULT = ImmutableStreamDeduplicateRule.Config.of()
        .withDescription("StreamDeduplicateRule")
        .withOperandSupplier(b0 -> b0.operand(Filter.class).oneInput(b1 -> b1.operand(Project.class)
            .predicate(p -> RexOver.containsOver(p.getProjects(), null)).anyInputs()))
        .as(Config.class);

    @Override @Nullable String description();

    @Override default StreamDeduplicateRule toRule() {
      return new StreamDeduplicateRule(this);
    }
  }
}
