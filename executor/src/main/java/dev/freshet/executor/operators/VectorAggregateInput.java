package dev.freshet.executor.operators;

import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.vector.ColumnVector;
import dev.freshet.executor.vector.VectorBatch;
import dev.freshet.executor.vector.VectorType;
import java.util.Arrays;
import java.util.List;

/**
 * One input task's partial aggregation of vector batches into primitive cells: the columnar form
 * of {@link StatefulAggregateOperator}'s per-row {@code aggregate}, for a key of integer columns
 * (BIGINT, INTEGER, TIMESTAMP) or strings (VARCHAR, as {@link StringKeyIds}' ids) and calls
 * without DISTINCT or FILTER ({@link #supports}).
 *
 * <pre>{@code
 * VectorOperator in = aggregation.vectorInput(task, inputTypes);   // on the batch's build
 * in.push(batch);                          // on the task's thread: no allocation per row
 * // aggregation.finishBatch(...) merges the groups from their cells into state
 * }</pre>
 *
 * <p>Per batch of rows it finds each selected row's group in a {@link LongGroupTable} (a
 * {@link CompositeGroupTable} for several key columns), then folds
 * each call's argument column into that call's cells ({@code long[]} or {@code double[]} indexed
 * by group), one call at a time. When the aggregation finishes the batch, it merges these groups
 * into its state directly, without handing them over in the row path's form
 * ({@link PartialGroups}): {@link #route} orders the groups by state partition (each
 * partition's in the order the keys first appeared, as the row path's), and per group the merge
 * reads the key as the row path would build it ({@link #keyOf}) and each call's
 * {@link #partialValue}, the value the row path's partial accumulator would give. State,
 * checkpoints and output are therefore those of the row path; the arithmetic is the same too (integer sums
 * overflow as {@code Math.addExact} does, double sums add in row order, MIN and MAX of doubles
 * compare as {@code Double.compareTo}).
 */
final class VectorAggregateInput implements VectorOperator {
  /** Tables grown past this many groups are given back after their batch. */
  private static final int MAX_KEPT_GROUPS = 1 << 16;

  /** How a call folds its argument into its cells. */
  enum Cell { COUNT_STAR, COUNT, SUM_LONG, SUM_DOUBLE, MIN_LONG, MAX_LONG, MIN_DOUBLE, MAX_DOUBLE }

  private final StatefulAggregateOperator aggregation;
  private final int task;
  private final int[] keyIndexes;
  private final VectorType[] keyTypes;
  /** Per key column, the ids of its strings; null for an integer column. */
  private final StringKeyIds[] stringKeys;
  private final Cell[] cells;
  private final int[] args;
  private final VectorType[] argTypes;
  /** Per call, whether it is {@code $SUM0}: a sum that is 0, not NULL, over no values. */
  private final boolean[] zeroWhenEmpty;
  // Allocated by the task's first batch, on its thread.
  /** The groups of a one-column key; null with several columns. */
  private LongGroupTable table;
  /** The groups of a key of several columns; null with one. */
  private CompositeGroupTable composite;
  /** The key columns of the batch being pushed, with several. */
  private ColumnVector[] keyColumns;
  private long[][] longCells;
  private double[][] doubleCells;
  /** Per call and group, whether a value was folded in (SUM's NULL, MIN's and MAX's first). */
  private boolean[][] filled;
  /** The group of each selected row of the batch being pushed. */
  private int[] groupOfRow;
  // For the batch's merge (see route), reused by later batches.
  /** The groups in partition order; the partition of each group; the partitions' starts. */
  private int[] routed;
  private int[] partitionOfGroup;
  private int[] starts;
  private int[] next;
  /**
   * Per key column, the least and greatest non-null value of the groups (MAX_VALUE and
   * MIN_VALUE without any): a key outside them is in no group, which {@link #indexOf} then
   * answers without a probe of the table, most often a cache miss. Input tasks read slices of a
   * source in order, so their keys (ids, window starts) tend to fall in ranges of their own.
   */
  private final long[] keyMin;
  private final long[] keyMax;

  VectorAggregateInput(StatefulAggregateOperator aggregation, int task, int[] keyIndexes,
      List<AggregateCall> calls, VectorType[] inputTypes) {
    this.aggregation = aggregation;
    this.task = task;
    this.keyIndexes = keyIndexes.clone();
    this.keyTypes = new VectorType[keyIndexes.length];
    this.stringKeys = new StringKeyIds[keyIndexes.length];
    this.keyMin = new long[keyIndexes.length];
    this.keyMax = new long[keyIndexes.length];
    resetKeyRanges();
    for (int k = 0; k < keyIndexes.length; k++) {
      keyTypes[k] = inputTypes[keyIndexes[k]];
      if (keyTypes[k] == VectorType.STRING) {
        stringKeys[k] = new StringKeyIds();
      }
    }
    this.cells = new Cell[calls.size()];
    this.args = new int[calls.size()];
    this.argTypes = new VectorType[calls.size()];
    this.zeroWhenEmpty = new boolean[calls.size()];
    for (int c = 0; c < cells.length; c++) {
      AggregateCall call = calls.get(c);
      args[c] = call.argIndex();
      argTypes[c] = call.argIndex() < 0 ? null : inputTypes[call.argIndex()];
      cells[c] = cellOf(call, argTypes[c]);
      zeroWhenEmpty[c] = call.function() == AggregateFunction.SUM0;
    }
  }

  /**
   * Whether an aggregation grouping by {@code keyIndexes} with the partial {@code calls} over
   * input columns of {@code inputTypes} (null for a column that is not an integer or a double)
   * can take vector batches.
   */
  static boolean supports(int[] keyIndexes, List<AggregateCall> calls, VectorType[] inputTypes) {
    if (keyIndexes.length == 0 || keyIndexes.length > 31) {
      return false;
    }
    for (int index : keyIndexes) {
      VectorType key = index < inputTypes.length ? inputTypes[index] : null;
      if (key != VectorType.INT && key != VectorType.LONG && key != VectorType.STRING) {
        return false;
      }
    }
    for (AggregateCall call : calls) {
      if (call.distinct() || call.hasFilter() || call.argIndex() >= inputTypes.length) {
        return false;
      }
      VectorType arg = call.argIndex() < 0 ? null : inputTypes[call.argIndex()];
      if (call.argIndex() >= 0 && arg == null || cellOf(call, arg) == null) {
        return false;
      }
    }
    return true;
  }

  /** The cell of {@code call} over an argument of {@code arg}, or null if there is none. */
  private static Cell cellOf(AggregateCall call, VectorType arg) {
    boolean integer = arg == VectorType.INT || arg == VectorType.LONG;
    switch (call.function()) {
    case COUNT_STAR:
      return Cell.COUNT_STAR;
    case COUNT:
      return Cell.COUNT;
    case SUM:
    case SUM0:
      if (integer && (call.resultKind() == ValueKind.INT || call.resultKind() == ValueKind.LONG)) {
        return Cell.SUM_LONG;
      }
      return arg == VectorType.DOUBLE && call.resultKind() == ValueKind.DOUBLE
          ? Cell.SUM_DOUBLE : null;
    case MIN:
      return integer ? Cell.MIN_LONG : arg == VectorType.DOUBLE ? Cell.MIN_DOUBLE : null;
    case MAX:
      return integer ? Cell.MAX_LONG : arg == VectorType.DOUBLE ? Cell.MAX_DOUBLE : null;
    default:
      return null;
    }
  }

  @Override public void push(VectorBatch batch) {
    if (groupOfRow == null) {
      if (keyIndexes.length == 1) {
        table = new LongGroupTable();
      } else {
        composite = new CompositeGroupTable(keyIndexes.length);
        keyColumns = new ColumnVector[keyIndexes.length];
      }
      allocateCells(tableCapacity());
      groupOfRow = new int[batch.capacity()];
    } else if (groupOfRow.length < batch.capacity()) {
      groupOfRow = new int[batch.capacity()];
    }
    int n = batch.selectedCount();
    int[] sel = batch.selection();
    boolean useSel = batch.selectionInUse();
    if (composite != null) {
      pushComposite(batch, n, sel, useSel);
      return;
    }
    ColumnVector keys = keyColumn(batch, 0);
    long[] k = keys.longs;
    int[] groups = groupOfRow;
    LongGroupTable table = this.table;
    for (int j = 0; j < n; j++) {
      int i = useSel ? sel[j] : j;
      int g;
      if (keys.isNull(i)) {
        g = table.nullGroup();
        if (g < 0) {
          g = newGroup(table.addNull());
        }
      } else {
        g = table.indexOf(k[i]);
        if (g < 0) {
          g = newGroup(table.add(k[i]));
        }
      }
      groups[j] = g;
    }
    for (int c = 0; c < cells.length; c++) {
      fold(c, batch, n, sel, useSel, groups);
    }
  }

  /** {@link #push} with a key of several columns. */
  private void pushComposite(VectorBatch batch, int n, int[] sel, boolean useSel) {
    for (int k = 0; k < keyIndexes.length; k++) {
      keyColumns[k] = keyColumn(batch, k);
    }
    int[] groups = groupOfRow;
    CompositeGroupTable table = composite;
    for (int j = 0; j < n; j++) {
      int i = useSel ? sel[j] : j;
      int g = table.findOrAdd(keyColumns, i);
      if (table.added()) {
        newGroup(g);
      }
      groups[j] = g;
    }
    for (int c = 0; c < cells.length; c++) {
      fold(c, batch, n, sel, useSel, groups);
    }
  }

  /** Key column {@code k} of {@code batch}: its integers, or its strings' ids. */
  private ColumnVector keyColumn(VectorBatch batch, int k) {
    ColumnVector column = batch.column(keyIndexes[k]);
    return stringKeys[k] == null ? column : stringKeys[k].idsOf(batch, column);
  }

  private int tableCapacity() {
    return table != null ? table.capacity() : composite.capacity();
  }

  private int tableSize() {
    return table != null ? table.size() : composite.size();
  }

  /** Initializes the cells of new group {@code g}; returns {@code g}. */
  private int newGroup(int g) {
    if (g >= filled[0].length) {
      growCells(tableCapacity());
    }
    for (int c = 0; c < cells.length; c++) {
      if (longCells[c] != null) {
        longCells[c][g] = 0;
      } else {
        doubleCells[c][g] = 0;
      }
      filled[c][g] = false;
    }
    for (int k = 0; k < keyMin.length; k++) {
      if (table != null ? !table.isNull(g) : !composite.isNull(g, k)) {
        long v = table != null ? table.key(g) : composite.key(g, k);
        keyMin[k] = Math.min(keyMin[k], v);
        keyMax[k] = Math.max(keyMax[k], v);
      }
    }
    if ((g + 1) % StatefulAggregateOperator.CHECK_EVERY == 0) {
      aggregation.countVectorGroups(task, g + 1);
    }
    return g;
  }

  private void resetKeyRanges() {
    Arrays.fill(keyMin, Long.MAX_VALUE);
    Arrays.fill(keyMax, Long.MIN_VALUE);
  }

  /** Folds call {@code c}'s argument of the selected rows into their groups' cells. */
  private void fold(int c, VectorBatch batch, int n, int[] sel, boolean useSel, int[] groups) {
    long[] lc = longCells[c];
    double[] dc = doubleCells[c];
    boolean[] f = filled[c];
    if (cells[c] == Cell.COUNT_STAR) {
      for (int j = 0; j < n; j++) {
        lc[groups[j]]++;
      }
      return;
    }
    ColumnVector arg = batch.column(args[c]);
    boolean noNulls = arg.noNulls;
    boolean[] nulls = arg.nulls;
    long[] lv = arg.longs;
    double[] dv = arg.doubles;
    if (noNulls && cells[c] == Cell.SUM_LONG) {
      // The common case (W1's SUM(n)) in a loop of its own, without the switch below.
      for (int j = 0; j < n; j++) {
        int g = groups[j];
        lc[g] = Math.addExact(lc[g], lv[useSel ? sel[j] : j]);
        f[g] = true;
      }
      return;
    }
    for (int j = 0; j < n; j++) {
      int i = useSel ? sel[j] : j;
      if (!noNulls && nulls[i]) {
        continue;
      }
      int g = groups[j];
      switch (cells[c]) {
      case COUNT:
        lc[g]++;
        break;
      case SUM_LONG:
        lc[g] = Math.addExact(lc[g], lv[i]);
        f[g] = true;
        break;
      case SUM_DOUBLE:
        // SUM starts from its first value, $SUM0 from 0.0, as the row path adds (-0.0 stays).
        dc[g] = f[g] || zeroWhenEmpty[c] ? dc[g] + dv[i] : dv[i];
        f[g] = true;
        break;
      case MIN_LONG:
        if (!f[g] || lv[i] < lc[g]) {
          lc[g] = lv[i];
          f[g] = true;
        }
        break;
      case MAX_LONG:
        if (!f[g] || lv[i] > lc[g]) {
          lc[g] = lv[i];
          f[g] = true;
        }
        break;
      case MIN_DOUBLE:
        if (!f[g] || Double.compare(dv[i], dc[g]) < 0) {
          dc[g] = dv[i];
          f[g] = true;
        }
        break;
      case MAX_DOUBLE:
        if (!f[g] || Double.compare(dv[i], dc[g]) > 0) {
          dc[g] = dv[i];
          f[g] = true;
        }
        break;
      default:
        throw new AssertionError(cells[c]);
      }
    }
  }

  /** Whether a batch pushed rows into this input since the last drain. */
  boolean hasGroups() {
    return groupOfRow != null && tableSize() > 0;
  }

  /**
   * Orders this input's groups by state partition for {@link #partitionStart} and
   * {@link #routedGroup}, keeping the order in which the keys first appeared within each
   * partition (the order the row path merges them in). Runs on the batch thread, after the
   * task's reads ended; allocates only when the batch has more groups than any before.
   *
   * @param taskGroups the task's row-form partial aggregates, which must all be null: a task
   *     pushes rows or vector batches in one batch, not both
   * @throws IllegalStateException if the task also pushed rows one by one in this batch
   */
  void route(PartialGroups[] taskGroups, int partitions) {
    for (PartialGroups groups : taskGroups) {
      if (groups != null) {
        throw new IllegalStateException("input task " + task
            + " pushed both rows and vector batches in one batch");
      }
    }
    int size = groupCount();
    if (routed == null || routed.length < size) {
      routed = new int[Math.max(size, LongGroupTable.INITIAL_CAPACITY)];
      partitionOfGroup = new int[routed.length];
    }
    if (starts == null || starts.length != partitions + 1) {
      starts = new int[partitions + 1];
      next = new int[partitions];
    }
    Arrays.fill(starts, 0);
    for (int g = 0; g < size; g++) {
      int p = partitions == 1 ? 0 : aggregation.partitionOf(stableHash(g));
      partitionOfGroup[g] = p;
      starts[p + 1]++;
    }
    for (int p = 0; p < partitions; p++) {
      starts[p + 1] += starts[p];
    }
    // A counting sort, stable: each partition's groups in the order their keys appeared.
    System.arraycopy(starts, 0, next, 0, partitions);
    for (int g = 0; g < size; g++) {
      routed[next[partitionOfGroup[g]]++] = g;
    }
  }

  /**
   * Where partition {@code p}'s groups start among the {@link #routedGroup routed groups};
   * {@code partitionStart(p + 1)} is where they end. Valid after {@link #route}.
   */
  int partitionStart(int p) {
    return starts[p];
  }

  /** The {@code i}-th group in partition order (see {@link #partitionStart}). */
  int routedGroup(int i) {
    return routed[i];
  }

  /** How many groups this input holds: {@code g} of the other methods is below it. */
  int groupCount() {
    return hasGroups() ? tableSize() : 0;
  }

  /**
   * What {@code keyOf(g).hashCode()} is, without boxing the key: the stable hash that picks the
   * group's state partition ({@code Integer}'s, {@code Long}'s, or {@link GroupKey}'s
   * {@code Arrays.hashCode} of them).
   */
  int stableHash(int g) {
    if (table != null) {
      return table.isNull(g) ? 0 : hashOfValue(0, table.key(g));
    }
    int h = 1;
    for (int k = 0; k < keyIndexes.length; k++) {
      h = 31 * h + (composite.isNull(g, k) ? 0 : hashOfValue(k, composite.key(g, k)));
    }
    return h;
  }

  private int hashOfValue(int k, long value) {
    if (stringKeys[k] != null) {
      // String caches its hash: the string of an id is the key's own object.
      return stringKeys[k].string(value).hashCode();
    }
    return keyTypes[k] == VectorType.INT ? Integer.hashCode((int) value) : Long.hashCode(value);
  }

  /**
   * The group whose key equals {@code key} (as {@link #keyOf} makes keys), or -1: how the merge
   * finds the groups of one key in the batch's other input tasks. Allocates nothing; the
   * partitions' threads may call it at once, each with a {@code scratch} of its own.
   *
   * @param scratch an array of at least as many elements as the key has columns
   */
  int indexOf(Object key, long[] scratch) {
    if (!hasGroups()) {
      return -1;
    }
    if (table != null) {
      if (key == null) {
        return table.nullGroup();
      }
      long v = value(0, key);
      return v < keyMin[0] || v > keyMax[0] ? -1 : table.indexOf(v);
    }
    GroupKey k = (GroupKey) key;
    int nullBits = 0;
    for (int c = 0; c < keyIndexes.length; c++) {
      Object value = k.get(c);
      if (value == null) {
        nullBits |= 1 << c;
        scratch[c] = 0;
      } else {
        long v = value(c, value);
        if (v < keyMin[c] || v > keyMax[c]) {
          return -1;
        }
        scratch[c] = v;
      }
    }
    return composite.indexOf(scratch, nullBits);
  }

  /**
   * Key column {@code k}'s value {@code key} in this task's table: the integer, or this task's
   * id of the string (-1, which no range holds, if the task has no such string). Ids are the
   * task's own, so another task's group is found by its string, not its id.
   */
  private long value(int k, Object key) {
    return stringKeys[k] != null ? stringKeys[k].find((String) key) : ((Number) key).longValue();
  }

  /** Group {@code g}'s key as the row path's {@link KeyExtractor#keyOf} makes it. */
  Object keyOf(int g) {
    if (table != null) {
      return table.isNull(g) ? null : box(0, table.key(g));
    }
    Object[] values = new Object[keyIndexes.length];
    for (int k = 0; k < values.length; k++) {
      values[k] = composite.isNull(g, k) ? null : box(k, composite.key(g, k));
    }
    return GroupKey.adopt(values);
  }

  /** The row path's value of key column {@code k} for {@code value}, an integer or an id. */
  private Object box(int k, long value) {
    return stringKeys[k] != null ? stringKeys[k].string(value) : keyTypes[k].box(value);
  }

  /**
   * What the row path's partial accumulator of call {@code c} would hand to the merge for group
   * {@code g} ({@link Accumulator#finishPartial} of its buffer, had the rows been pushed one by
   * one): the value the merge folds into the group's saved value.
   */
  Object partialValue(int c, int g) {
    return valueOf(c, g);
  }

  /** What the row path's partial accumulator of call {@code c} would hand to the merge. */
  private Object valueOf(int c, int g) {
    switch (cells[c]) {
    case COUNT_STAR:
    case COUNT:
      return longCells[c][g];
    case SUM_LONG:
      return filled[c][g] || zeroWhenEmpty[c] ? (Object) longCells[c][g] : null;
    case SUM_DOUBLE:
      return filled[c][g] || zeroWhenEmpty[c] ? (Object) doubleCells[c][g] : null;
    case MIN_LONG:
    case MAX_LONG:
      return filled[c][g] ? argTypes[c].box(longCells[c][g]) : null;
    default:
      return filled[c][g] ? (Object) doubleCells[c][g] : null;
    }
  }

  /** Forgets the groups, as after a drain or an aborted batch. */
  void clear() {
    resetKeyRanges();
    if (groupOfRow != null) {
      if (table != null) {
        table.clear(MAX_KEPT_GROUPS);
      } else {
        composite.clear(MAX_KEPT_GROUPS);
      }
      if (filled[0].length > tableCapacity()) {
        allocateCells(tableCapacity());
      }
      for (StringKeyIds ids : stringKeys) {
        if (ids != null) {
          ids.clear(MAX_KEPT_GROUPS);
        }
      }
    }
  }

  private void allocateCells(int capacity) {
    longCells = new long[cells.length][];
    doubleCells = new double[cells.length][];
    filled = new boolean[Math.max(1, cells.length)][];
    for (int c = 0; c < cells.length; c++) {
      if (isDouble(cells[c])) {
        doubleCells[c] = new double[capacity];
      } else {
        longCells[c] = new long[capacity];
      }
      filled[c] = new boolean[capacity];
    }
    if (cells.length == 0) {
      filled[0] = new boolean[capacity];
    }
  }

  private void growCells(int capacity) {
    for (int c = 0; c < cells.length; c++) {
      if (longCells[c] != null) {
        longCells[c] = Arrays.copyOf(longCells[c], capacity);
      } else {
        doubleCells[c] = Arrays.copyOf(doubleCells[c], capacity);
      }
      filled[c] = Arrays.copyOf(filled[c], capacity);
    }
    if (cells.length == 0) {
      filled[0] = new boolean[capacity];
    }
  }

  private static boolean isDouble(Cell cell) {
    return cell == Cell.SUM_DOUBLE || cell == Cell.MIN_DOUBLE || cell == Cell.MAX_DOUBLE;
  }
}
