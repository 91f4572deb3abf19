package dev.freshet.planner.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a stored plan can be resumed by the running code: each stateful operator's recorded
 * state schema (the layout its state was written with) is the one this code keeps for that
 * operator, and the plan still emits the columns its sink holds.
 *
 * <p>As Spark's {@code StateSchemaCompatibilityChecker}, it refuses rather than guesses: a state
 * value read with another layout would be silently wrong, so any difference in a column's name,
 * type or accumulator counts. Unlike Spark, which compares with a newly planned query, the
 * stored plan is the one that runs (see {@link ExecPlanBuilder}): so a later planner that plans
 * the SQL differently does not stop a view, as long as the plan it was created with still reads.
 *
 * <pre>{@code
 * List<String> differences = PlanCompatibility.stateDifferences(stored);
 * differences.addAll(PlanCompatibility.outputDifferences(stored, replanned));
 * if (!differences.isEmpty()) {
 *   // fail the query, naming each difference
 * }
 * }</pre>
 */
public final class PlanCompatibility {
  private PlanCompatibility() {
  }

  /**
   * Where the state schemas {@code plan} records differ from what this code keeps for its
   * operators, one sentence each, such as {@code "operator 0 (aggregate): its state was written
   * with value schema [...], but this Freshet keeps [...] for the aggregate the plan runs
   * there"}; empty if every recorded schema is the one this code reads and writes.
   */
  public static List<String> stateDifferences(ExecPlan plan) {
    List<String> differences = new ArrayList<>();
    List<ExecNode> nodes = plan.nodes();
    for (int i = 0; i < nodes.size(); i++) {
      ExecNode node = nodes.get(i);
      StateSchema recorded = node.state();
      if (!(node.operator() instanceof ExecOperator.StatefulAggregate
          || node.operator() instanceof ExecOperator.SessionAggregate
          || node.operator() instanceof ExecOperator.StreamJoin
          || node.operator() instanceof ExecOperator.Deduplicate
          || node.operator() instanceof ExecOperator.TopN)) {
        if (recorded != null) {
          differences.add(describe(recorded) + ": the plan records state for node " + node.id()
              + " (" + node.kind() + "), which keeps none");
        }
        continue;
      }
      StateSchema kept;
      try {
        kept = keptState(plan, node);
      } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
        differences.add("node " + node.id() + " (" + node.kind() + "): " + e.getMessage());
        continue;
      }
      if (recorded == null) {
        differences.add(describe(kept) + ": the plan records no state schema for it");
        continue;
      }
      if (recorded.operatorId() != kept.operatorId()) {
        differences.add(describe(recorded) + ": the plan records it for node " + node.id()
            + ", whose aggregate keeps its state in operator " + kept.operatorId());
        continue;
      }
      String where = " for the " + (node.operator() instanceof ExecOperator.StreamJoin ? "join"
          : node.operator() instanceof ExecOperator.Deduplicate ? "deduplication"
          : node.operator() instanceof ExecOperator.TopN ? "top-N"
          : "aggregate") + " the plan runs there";
      if (!recorded.name().equals(kept.name())) {
        differences.add(describe(recorded) + ": its state was named " + recorded.name()
            + ", but this Freshet names it " + kept.name() + where);
      }
      if (!recorded.key().equals(kept.key())) {
        differences.add(describe(recorded) + ": its state was written with key schema "
            + recorded.key() + ", but this Freshet keeps " + kept.key() + where);
      }
      if (!recorded.value().equals(kept.value())) {
        differences.add(describe(recorded) + ": its state was written with value schema "
            + recorded.value() + ", but this Freshet keeps " + kept.value() + where);
      }
    }
    return differences;
  }

  /**
   * Where the rows {@code stored} emits differ from those {@code current} emits, as one sentence;
   * empty if both emit the same columns: what a sink created for one can take from the other.
   */
  public static List<String> outputDifferences(ExecPlan stored, ExecPlan current) {
    List<ExecColumn> before = output(stored);
    List<ExecColumn> now = output(current);
    if (before.equals(now)) {
      return List.of();
    }
    return List.of("the stored plan emits " + before + ", but the view's query now yields "
        + now);
  }

  private static List<ExecColumn> output(ExecPlan plan) {
    return plan.nodes().isEmpty() ? List.of()
        : plan.nodes().get(plan.nodes().size() - 1).output();
  }

  /** The state of a stateful {@code node} as this code lays it out. */
  private static StateSchema keptState(ExecPlan plan, ExecNode node) {
    List<ExecNode> inputs = plan.inputs(node);
    if (node.operator() instanceof ExecOperator.StreamJoin join) {
      return StateSchema.of(join, inputs.get(0).output(), inputs.get(1).output());
    }
    if (node.operator() instanceof ExecOperator.Deduplicate dedup) {
      return StateSchema.of(dedup, inputs.get(0).output());
    }
    if (node.operator() instanceof ExecOperator.SessionAggregate session) {
      return StateSchema.of(session, inputs.isEmpty() ? List.of() : inputs.get(0).output(),
          node.output());
    }
    if (node.operator() instanceof ExecOperator.TopN topN) {
      return StateSchema.of(topN, inputs.get(0).output());
    }
    return StateSchema.of((ExecOperator.StatefulAggregate) node.operator(),
        inputs.isEmpty() ? List.of() : inputs.get(0).output(), node.output());
  }

  private static String describe(StateSchema state) {
    return "operator " + state.operatorId() + " (" + state.name() + ")";
  }
}
