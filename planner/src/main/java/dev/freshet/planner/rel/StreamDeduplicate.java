package dev.freshet.planner.rel;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;

/**
 * Relational expression that keeps the first row of each key of a stream and drops the key's
 * later rows: {@code ROW_NUMBER() OVER (PARTITION BY keys ORDER BY col) = 1}, Spark's
 * {@code dropDuplicates} ({@code dropDuplicatesWithinWatermark} when the key's state expires).
 * Its rows are its input's, each emitted once: the output is append-only.
 *
 * <p>The first row of a key is the one of the first batch in which the key appears, and among
 * that batch's rows the one with the least {@code ORDER BY} value. With a watermark on the
 * stream, rows at or before it are dropped as late; a key's state expires once the watermark
 * reaches the expiry column's value plus {@link #expiryDelayMs()}.
 *
 * <pre>{@code
 * LogicalStreamDeduplicate(keys=[ID], order=[TS], eventTime=[TS], expiresAfter=[TS + 5000 ms],
 *     operatorId=[0])
 * }</pre>
 */
public abstract class StreamDeduplicate extends SingleRel {
  protected final List<Integer> keys;
  protected final int orderIndex;
  protected final boolean nullsFirst;
  protected final int eventTimeIndex;
  protected final int expiryIndex;
  protected final long expiryDelayMs;
  protected final int operatorId;

  /**
   * Creates a deduplication.
   *
   * @param keys the input columns that identify a duplicate ({@code PARTITION BY})
   * @param orderIndex the {@code ORDER BY} column (ascending), or -1 for arrival order
   * @param nullsFirst whether NULLs of the {@code ORDER BY} column come first
   * @param eventTimeIndex the input's watermark column, whose late rows are dropped, or -1
   * @param expiryIndex the column whose value plus {@code expiryDelayMs} tells when a key's
   *     state goes, or -1 to keep keys forever
   * @param expiryDelayMs added to the expiry column's value
   * @param operatorId the stateful operator id ({@link StatefulOperatorIds})
   */
  protected StreamDeduplicate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      List<Integer> keys, int orderIndex, boolean nullsFirst, int eventTimeIndex,
      int expiryIndex, long expiryDelayMs, int operatorId) {
    super(cluster, traits, input);
    this.keys = List.copyOf(requireNonNull(keys, "keys"));
    int width = input.getRowType().getFieldCount();
    List<Integer> columns = new ArrayList<>(this.keys);
    columns.add(orderIndex);
    columns.add(eventTimeIndex);
    columns.add(expiryIndex);
    for (int i = 0; i < columns.size(); i++) {
      int column = columns.get(i);
      if (column < (i < this.keys.size() ? 0 : -1) || column >= width) {
        throw new IllegalArgumentException("column " + column + " is not one of the " + width
            + " input columns");
      }
    }
    if (expiryDelayMs < 0 || operatorId < 0) {
      throw new IllegalArgumentException("expiryDelayMs " + expiryDelayMs + " and operatorId "
          + operatorId + " must not be negative");
    }
    this.orderIndex = orderIndex;
    this.nullsFirst = nullsFirst;
    this.eventTimeIndex = eventTimeIndex;
    this.expiryIndex = expiryIndex;
    this.expiryDelayMs = expiryDelayMs;
    this.operatorId = operatorId;
  }

  /** The key columns, in {@code PARTITION BY} order. */
  public List<Integer> keys() {
    return keys;
  }

  /** The {@code ORDER BY} column, or -1 for arrival order. */
  public int orderIndex() {
    return orderIndex;
  }

  /** Whether NULLs of the {@code ORDER BY} column come first. */
  public boolean nullsFirst() {
    return nullsFirst;
  }

  /** The watermark column, or -1. */
  public int eventTimeIndex() {
    return eventTimeIndex;
  }

  /** The column that tells when a key's state goes, or -1 to keep keys forever. */
  public int expiryIndex() {
    return expiryIndex;
  }

  /** Added to the expiry column's value. */
  public long expiryDelayMs() {
    return expiryDelayMs;
  }

  /** The stateful operator id: the state directory {@code state/<operatorId>/}. */
  public int operatorId() {
    return operatorId;
  }

  /** A copy with another input and operator id. */
  public abstract StreamDeduplicate copy(RelTraitSet traitSet, RelNode input, int operatorId);

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return copy(traitSet, sole(inputs), operatorId);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    List<String> names = getInput().getRowType().getFieldNames();
    List<String> keyNames = new ArrayList<>();
    for (int key : keys) {
      keyNames.add(names.get(key));
    }
    return super.explainTerms(pw)
        .item("keys", keyNames)
        .item("order", orderIndex < 0 ? "arrival"
            : names.get(orderIndex) + (nullsFirst ? " NULLS FIRST" : ""))
        .itemIf("eventTime", eventTimeIndex < 0 ? "" : names.get(eventTimeIndex),
            eventTimeIndex >= 0)
        .item("expiresAfter", expiryIndex < 0 ? "never"
            : names.get(expiryIndex) + " + " + expiryDelayMs + " ms")
        .item("operatorId", operatorId);
  }
}
