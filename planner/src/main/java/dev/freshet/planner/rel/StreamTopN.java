package dev.freshet.planner.rel;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.OutputMode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Relational expression that keeps the {@code limit} best rows of each group of a stream and
 * emits them with their rank: {@code ROW_NUMBER() OVER (PARTITION BY keys ORDER BY order) <=
 * limit}, Flink SQL's top-N. Its rows are its input's columns, then the rank {@value #RANK}
 * (BIGINT, from 1), then, with {@link #newKeyFlag()}, {@value StateStoreSave#NEW_KEY_FLAG}
 * (true for a rank its group did not have before the batch).
 *
 * <p>Its result is an upsert keyed by (keys, rank): in UPDATE mode a batch emits the ranks whose
 * row changed, in COMPLETE mode every rank of every group. Rows equal on every {@code ORDER BY}
 * column rank by arrival.
 *
 * <pre>{@code
 * LogicalStreamTopN(keys=[K], order=[V DESC], limit=[3], mode=[Update], operatorId=[0])
 * }</pre>
 */
public abstract class StreamTopN extends SingleRel {
  /** Name of the rank column. */
  public static final String RANK = "$RANK";

  protected final List<Integer> keys;
  protected final RelCollation order;
  protected final long limit;
  protected final OutputMode outputMode;
  protected final boolean newKeyFlag;
  protected final int operatorId;

  /**
   * Creates a top-N.
   *
   * @param keys the input columns that make a group ({@code PARTITION BY})
   * @param order the {@code ORDER BY} of the ranking, over input columns
   * @param limit the most rows kept per group, at least 1
   * @param outputMode UPDATE or COMPLETE
   * @param newKeyFlag whether rows end with the new-rank flag (UPDATE only)
   * @param operatorId the stateful operator id ({@link StatefulOperatorIds})
   */
  protected StreamTopN(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      List<Integer> keys, RelCollation order, long limit, OutputMode outputMode,
      boolean newKeyFlag, int operatorId) {
    super(cluster, traits, input);
    this.keys = List.copyOf(requireNonNull(keys, "keys"));
    this.order = requireNonNull(order, "order");
    int width = input.getRowType().getFieldCount();
    List<Integer> columns = new ArrayList<>(this.keys);
    for (RelFieldCollation c : order.getFieldCollations()) {
      columns.add(c.getFieldIndex());
    }
    for (int column : columns) {
      if (column < 0 || column >= width) {
        throw new IllegalArgumentException("column " + column + " is not one of the " + width
            + " input columns");
      }
    }
    if (limit < 1 || limit > Integer.MAX_VALUE || operatorId < 0) {
      throw new IllegalArgumentException("limit " + limit + " must be between 1 and "
          + Integer.MAX_VALUE + " and operatorId " + operatorId + " not negative");
    }
    if (outputMode == OutputMode.APPEND || newKeyFlag && outputMode != OutputMode.UPDATE) {
      throw new IllegalArgumentException("a top-N runs in UPDATE or COMPLETE mode, and only"
          + " UPDATE emits a new-key flag, not " + outputMode);
    }
    this.limit = limit;
    this.outputMode = outputMode;
    this.newKeyFlag = newKeyFlag;
    this.operatorId = operatorId;
  }

  /** The group columns, in {@code PARTITION BY} order. */
  public List<Integer> keys() {
    return keys;
  }

  /** The order of the ranking. */
  public RelCollation order() {
    return order;
  }

  /** The most rows kept per group. */
  public long limit() {
    return limit;
  }

  /** UPDATE or COMPLETE. */
  public OutputMode outputMode() {
    return outputMode;
  }

  /** Whether rows end with the new-rank flag. */
  public boolean newKeyFlag() {
    return newKeyFlag;
  }

  /** The position of the rank in its rows: right after the input's columns. */
  public int rankColumn() {
    return getInput().getRowType().getFieldCount();
  }

  /** The stateful operator id: the state directory {@code state/<operatorId>/}. */
  public int operatorId() {
    return operatorId;
  }

  /** A copy with another input, mode, flag and operator id. */
  public abstract StreamTopN copy(RelTraitSet traitSet, RelNode input, OutputMode outputMode,
      boolean newKeyFlag, int operatorId);

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return copy(traitSet, sole(inputs), outputMode, newKeyFlag, operatorId);
  }

  /** A copy whose rows end with the new-rank flag (UPDATE mode only). */
  public StreamTopN withNewKeyFlag() {
    return copy(getTraitSet(), getInput(), outputMode, true, operatorId);
  }

  /** {@code rel} with each top-N in it running in {@code mode}, the query's. */
  public static RelNode inMode(RelNode rel, OutputMode mode) {
    return rel.accept(new RelShuttleImpl() {
      @Override public RelNode visit(RelNode other) {
        RelNode visited = super.visit(other);
        return visited instanceof StreamTopN topN && topN.outputMode != mode
            ? topN.copy(topN.getTraitSet(), topN.getInput(), mode, false, topN.operatorId)
            : visited;
      }
    });
  }

  /** Whether {@code rel} has a top-N. */
  public static boolean in(RelNode rel) {
    if (rel instanceof StreamTopN) {
      return true;
    }
    for (RelNode input : rel.getInputs()) {
      if (in(input)) {
        return true;
      }
    }
    return false;
  }

  @Override protected RelDataType deriveRowType() {
    RelDataTypeFactory types = getCluster().getTypeFactory();
    RelDataTypeFactory.FieldInfoBuilder builder = types.builder()
        .addAll(getInput().getRowType().getFieldList())
        .add(RANK, types.createSqlType(SqlTypeName.BIGINT));
    if (newKeyFlag) {
      builder.add(StateStoreSave.NEW_KEY_FLAG, types.createSqlType(SqlTypeName.BOOLEAN));
    }
    return builder.uniquify().build();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    List<String> names = getInput().getRowType().getFieldNames();
    List<String> keyNames = new ArrayList<>();
    for (int key : keys) {
      keyNames.add(names.get(key));
    }
    List<String> orderNames = new ArrayList<>();
    for (RelFieldCollation c : order.getFieldCollations()) {
      boolean descending = c.getDirection().isDescending();
      // NULLs sort high by default (last ascending, first descending): shown when they do not.
      boolean nullsFirst = c.nullDirection == RelFieldCollation.NullDirection.FIRST;
      orderNames.add(names.get(c.getFieldIndex()) + (descending ? " DESC" : "")
          + (nullsFirst == descending ? "" : nullsFirst ? " NULLS FIRST" : " NULLS LAST"));
    }
    return super.explainTerms(pw)
        .item("keys", keyNames)
        .item("order", orderNames.isEmpty() ? "arrival" : String.join(", ", orderNames))
        .item("limit", limit)
        .item("mode", outputMode.displayName())
        .itemIf("newKeyFlag", true, newKeyFlag)
        .item("operatorId", operatorId);
  }
}
