package dev.freshet.planner.rel;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.OutputMode;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Relational expression that saves the merged value of each key as state version {@code N + 1}
 * and emits rows according to its output mode.
 *
 * <p>In {@link OutputMode#UPDATE} it emits one row per key its input touched in the batch; in
 * {@link OutputMode#COMPLETE} every key in the store; in {@link OutputMode#APPEND} the groups the
 * watermark finalized.
 *
 * <p>With {@link #newKeyFlag()} (UPDATE mode only) its rows end with one more column,
 * {@value #NEW_KEY_FLAG} BOOLEAN, true when the key had no state before the batch: how a push query
 * tells a new key from a new value of a known one.
 */
public abstract class StateStoreSave extends SingleRel {
  protected final int operatorId;
  protected final ImmutableBitSet keys;
  protected final OutputMode outputMode;
  protected final int numPartitions;
  protected final @Nullable EventTimeColumn eventTimeKey;
  protected final boolean newKeyFlag;

  /** Name of the trailing column that {@link #newKeyFlag()} adds. */
  public static final String NEW_KEY_FLAG = "$NEW_KEY";

  protected StateStoreSave(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int operatorId, ImmutableBitSet keys, OutputMode outputMode, int numPartitions,
      @Nullable EventTimeColumn eventTimeKey) {
    this(cluster, traits, input, operatorId, keys, outputMode, numPartitions, eventTimeKey, false);
  }

  protected StateStoreSave(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int operatorId, ImmutableBitSet keys, OutputMode outputMode, int numPartitions,
      @Nullable EventTimeColumn eventTimeKey, boolean newKeyFlag) {
    super(cluster, traits, input);
    if (newKeyFlag && outputMode != OutputMode.UPDATE) {
      throw new IllegalArgumentException("only UPDATE mode emits a new-key flag, not "
          + outputMode);
    }
    this.newKeyFlag = newKeyFlag;
    if (operatorId < 0) {
      throw new IllegalArgumentException("operatorId must not be negative: " + operatorId);
    }
    if (numPartitions < 1) {
      throw new IllegalArgumentException("numPartitions must be positive: " + numPartitions);
    }
    this.operatorId = operatorId;
    this.keys = requireNonNull(keys, "keys");
    this.outputMode = requireNonNull(outputMode, "outputMode");
    this.numPartitions = numPartitions;
    if (eventTimeKey != null && !keys.get(eventTimeKey.index())) {
      throw new IllegalArgumentException("event-time column " + eventTimeKey.index()
          + " is not a key of " + keys);
    }
    if (outputMode == OutputMode.APPEND && eventTimeKey == null) {
      throw new IllegalArgumentException("APPEND mode needs an event-time key");
    }
    this.eventTimeKey = eventTimeKey;
  }

  /**
   * The key column that carries event time, through which the watermark drops late rows and
   * evicts state; null if no key carries it.
   */
  public @Nullable EventTimeColumn eventTimeKey() {
    return eventTimeKey;
  }

  /** The stateful operator id, shared with the matching {@link StateStoreRestore}. */
  public int operatorId() {
    return operatorId;
  }

  /** The key columns of the input. */
  public ImmutableBitSet keys() {
    return keys;
  }

  /** What the operator emits after each batch. */
  public OutputMode outputMode() {
    return outputMode;
  }

  /** The number of state partitions. */
  public int numPartitions() {
    return numPartitions;
  }

  /** Whether rows end with the {@value #NEW_KEY_FLAG} column. */
  public boolean newKeyFlag() {
    return newKeyFlag;
  }

  /** Returns a copy whose rows end with the {@value #NEW_KEY_FLAG} column (UPDATE mode only). */
  public abstract StateStoreSave withNewKeyFlag();

  @Override protected RelDataType deriveRowType() {
    RelDataType input = getInput().getRowType();
    if (!newKeyFlag) {
      return input;
    }
    RelDataTypeFactory types = getCluster().getTypeFactory();
    return types.builder().addAll(input.getFieldList())
        .add(NEW_KEY_FLAG, types.createSqlType(SqlTypeName.BOOLEAN)).build();
  }

  /** Returns a copy with a new input and operator id. */
  public abstract StateStoreSave copy(RelTraitSet traitSet, RelNode input, int operatorId);

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return copy(traitSet, sole(inputs), operatorId);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("operatorId", operatorId)
        .item("keys", keys)
        .item("outputMode", outputMode.displayName())
        .item("statePartitions", numPartitions)
        .itemIf("eventTimeKey", eventTimeKey == null ? "" : eventTimeKey.describe(),
            eventTimeKey != null)
        .itemIf("watermark", eventTimeKey == null ? ""
            : eventTimeKey.watermarkColumn() + " - " + eventTimeKey.delayMs() + " ms",
            eventTimeKey != null)
        .itemIf("newKeyFlag", true, newKeyFlag);
  }
}
