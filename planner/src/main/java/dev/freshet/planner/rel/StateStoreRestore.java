package dev.freshet.planner.rel;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Relational expression that, for each key of its input, reads the value saved for that key by
 * earlier batches (state version {@code N} for batch {@code N}) and emits it before the input row.
 *
 * <p>It is the first half of a stateful aggregation; the {@link StateStoreSave} with the same
 * operator id is the second half, and the aggregate between them merges the two.
 */
public abstract class StateStoreRestore extends SingleRel {
  protected final int operatorId;
  protected final ImmutableBitSet keys;

  protected StateStoreRestore(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int operatorId, ImmutableBitSet keys) {
    super(cluster, traits, input);
    if (operatorId < 0) {
      throw new IllegalArgumentException("operatorId must not be negative: " + operatorId);
    }
    this.operatorId = operatorId;
    this.keys = requireNonNull(keys, "keys");
  }

  /** The stateful operator id, shared with the matching {@link StateStoreSave}. */
  public int operatorId() {
    return operatorId;
  }

  /** The key columns of the input. */
  public ImmutableBitSet keys() {
    return keys;
  }

  /** Returns a copy with a new input and operator id. */
  public abstract StateStoreRestore copy(RelTraitSet traitSet, RelNode input, int operatorId);

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return copy(traitSet, sole(inputs), operatorId);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("operatorId", operatorId)
        .item("keys", keys);
  }
}
