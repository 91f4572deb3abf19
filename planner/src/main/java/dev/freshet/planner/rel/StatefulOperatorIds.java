package dev.freshet.planner.rel;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;

/**
 * Gives each stateful operator of a plan its operator id, which names its state directory
 * ({@code state/<operatorId>/}) in the query's checkpoint: 0 for the one nearest the source,
 * counting up towards the sink, as Spark's {@code IncrementalExecution} numbers them (inputs
 * first, left to right). A {@link StateStoreSave} gets the id of the {@link StateStoreRestore}
 * below it, its other half; a {@link StreamingJoin}, a {@link StreamDeduplicate}, a
 * {@link SessionAggregate} and a {@link StreamTopN} have one of their own.
 *
 * <p>The rules that make the pairs cannot know the ids (a rule sees one aggregate, not the
 * plan), so they use 0 and the planner calls this once the plan is whole.
 *
 * <pre>{@code
 * RelNode numbered = StatefulOperatorIds.assign(logical);
 * }</pre>
 */
public final class StatefulOperatorIds {
  private StatefulOperatorIds() {
  }

  /** {@code plan} with its stateful operators numbered; {@code plan} itself if they were. */
  public static RelNode assign(RelNode plan) {
    return assign(plan, new int[] {0});
  }

  private static RelNode assign(RelNode rel, int[] next) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode numbered = assign(input, next);
      inputs.add(numbered);
      changed |= numbered != input;
    }
    RelNode copy = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    if (copy instanceof StateStoreRestore restore) {
      int id = next[0]++;
      return id == restore.operatorId() ? restore
          : restore.copy(restore.getTraitSet(), restore.getInput(), id);
    }
    if (copy instanceof StreamDeduplicate dedup) {
      int id = next[0]++;
      return id == dedup.operatorId() ? dedup
          : dedup.copy(dedup.getTraitSet(), dedup.getInput(), id);
    }
    if (copy instanceof SessionAggregate session) {
      int id = next[0]++;
      return id == session.operatorId() ? session
          : session.copy(session.getTraitSet(), session.getInput(), id);
    }
    if (copy instanceof StreamTopN topN) {
      int id = next[0]++;
      return id == topN.operatorId() ? topN : topN.copy(topN.getTraitSet(), topN.getInput(),
          topN.outputMode(), topN.newKeyFlag(), id);
    }
    if (copy instanceof StreamingJoin join) {
      int id = next[0]++;
      return id == join.operatorId() ? join : join.withOperatorId(id);
    }
    if (copy instanceof StateStoreSave save) {
      int id = restoreBelow(save).operatorId();
      return id == save.operatorId() ? save
          : save.copy(save.getTraitSet(), save.getInput(), id);
    }
    return copy;
  }

  /** The nearest restore below {@code save}: the other half of its stateful operator. */
  private static StateStoreRestore restoreBelow(StateStoreSave save) {
    RelNode rel = save.getInput();
    while (!(rel instanceof StateStoreRestore)) {
      if (rel.getInputs().size() != 1) {
        throw new IllegalArgumentException("no state store restore below " + save.explain());
      }
      rel = rel.getInput(0);
    }
    return (StateStoreRestore) rel;
  }
}
