package dev.freshet.executor.operators;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The accumulators of an aggregation whose input retracts rows (a view over an UPDATE view):
 * every one can take a value back out, so its state keeps what that needs.
 *
 * <p>COUNT keeps its count; SUM keeps its sum and how many non-null values it holds (SUM of no
 * values is NULL again once the last one is retracted); MIN and MAX keep a count per distinct
 * value, as a sorted array {@code [v0, n0, v1, n1, ...]}, so that retracting the minimum falls
 * back to the next value. The partial accumulators fold a batch's added and retracted rows into
 * signed deltas, which the merge adds to the saved value: a new value, the saved one is not
 * changed. Appending aggregations keep the accumulators of {@link Accumulator}, which allocate
 * nothing per row; these are chosen only for a retracting input.
 *
 * <pre>{@code
 * Accumulator min = RetractingAccumulators.partial(minCall, 1);
 * min.accumulate(buffer, row3); min.accumulate(buffer, row5); min.retract(buffer, row3);
 * min.finishPartial(buffer[1]);   // [5, 1, 3, 0] less zeros: [5, 1]
 * }</pre>
 */
final class RetractingAccumulators {
  private RetractingAccumulators() {
  }

  /** The partial accumulator of {@code call}, which folds added and retracted rows. */
  static Accumulator partial(AggregateCall call, int slot) {
    if (call.distinct()) {
      throw new IllegalArgumentException("a distinct aggregate cannot read a retracting input: "
          + call);
    }
    Accumulator accumulator;
    switch (call.function()) {
    case COUNT_STAR:
    case COUNT:
      accumulator = new SignedCount(slot, call.argIndex());
      break;
    case SUM:
    case SUM0:
      accumulator = new SignedSum(slot, call.argIndex(),
          Accumulator.Addition.of(call.resultKind()));
      break;
    case MIN:
    case MAX:
      accumulator = new SignedValues(slot, call.argIndex());
      break;
    default:
      throw new AssertionError(call.function());
    }
    return call.hasFilter() ? Accumulator.filtered(accumulator, call.filterArg()) : accumulator;
  }

  /**
   * The merge accumulator that folds the delta of partial call {@code partial} into the saved
   * value; {@code merge} is the plan's merge call, whose result kind it keeps.
   */
  static Accumulator merge(AggregateCall partial, AggregateCall merge, int slot) {
    switch (partial.function()) {
    case COUNT_STAR:
    case COUNT:
      return new CountMerge(slot, merge.argIndex());
    case SUM:
    case SUM0:
      return new SumMerge(slot, merge.argIndex(), Accumulator.Addition.of(merge.resultKind()),
          partial.function() == AggregateFunction.SUM0);
    case MIN:
      return new MinMaxMerge(slot, merge.argIndex(), -1);
    case MAX:
      return new MinMaxMerge(slot, merge.argIndex(), 1);
    default:
      throw new AssertionError(partial.function());
    }
  }

  /** The partial count of a group's rows, which tells when a group has none left. */
  static Accumulator rowCount(int slot) {
    return new SignedCount(slot, -1);
  }

  /** The merge of {@link #rowCount}, whose argument is column {@code argIndex}. */
  static Accumulator rowCountMerge(int slot, int argIndex) {
    return new CountMerge(slot, argIndex);
  }

  /** A batch's signed count; a one-element array that the batch's buffer owns. */
  private static final class SignedCount extends Accumulator {
    SignedCount(int slot, int argIndex) {
      super(slot, argIndex);
    }

    @Override Object initial() {
      return new long[1];
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      if (argIndex < 0 || row[argIndex] != null) {
        ((long[]) buffer[slot])[0]++;
      }
    }

    @Override void retract(Object[] buffer, Object[] row) {
      if (argIndex < 0 || row[argIndex] != null) {
        ((long[]) buffer[slot])[0]--;
      }
    }

    @Override Object finishPartial(Object slotValue) {
      return ((long[]) slotValue)[0];
    }
  }

  /** A batch's signed sum and signed count of non-null values. */
  private static final class SumCell {
    Object sum;
    long count;
  }

  /** Partial SUM: the delta as {@code [sum or null, count]}. */
  private static final class SignedSum extends Accumulator {
    private final Accumulator.Addition addition;

    SignedSum(int slot, int argIndex, Accumulator.Addition addition) {
      super(slot, argIndex);
      this.addition = addition;
    }

    @Override Object initial() {
      return new SumCell();
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      Object v = row[argIndex];
      if (v != null) {
        SumCell cell = (SumCell) buffer[slot];
        cell.sum = addition.add(cell.sum, v);
        cell.count++;
      }
    }

    @Override void retract(Object[] buffer, Object[] row) {
      Object v = row[argIndex];
      if (v != null) {
        SumCell cell = (SumCell) buffer[slot];
        cell.sum = addition.add(cell.sum, addition.negate(v));
        cell.count--;
      }
    }

    @Override Object finishPartial(Object slotValue) {
      SumCell cell = (SumCell) slotValue;
      return new Object[] {cell.sum, cell.count};
    }
  }

  /** Partial MIN or MAX: the signed count of each value, as a sorted {@code [v, n, ...]}. */
  private static final class SignedValues extends Accumulator {
    SignedValues(int slot, int argIndex) {
      super(slot, argIndex);
    }

    @Override Object initial() {
      return new TreeMap<Object, long[]>();
    }

    @SuppressWarnings("unchecked")
    @Override void accumulate(Object[] buffer, Object[] row) {
      Object v = row[argIndex];
      if (v != null) {
        ((TreeMap<Object, long[]>) buffer[slot]).computeIfAbsent(v, x -> new long[1])[0]++;
      }
    }

    @SuppressWarnings("unchecked")
    @Override void retract(Object[] buffer, Object[] row) {
      Object v = row[argIndex];
      if (v != null) {
        ((TreeMap<Object, long[]>) buffer[slot]).computeIfAbsent(v, x -> new long[1])[0]--;
      }
    }

    @SuppressWarnings("unchecked")
    @Override Object finishPartial(Object slotValue) {
      List<Object> counts = new ArrayList<>();
      for (Map.Entry<Object, long[]> e : ((TreeMap<Object, long[]>) slotValue).entrySet()) {
        if (e.getValue()[0] != 0) {
          counts.add(e.getKey());
          counts.add(e.getValue()[0]);
        }
      }
      return counts.toArray();
    }
  }

  /** The saved count plus a delta; a count below zero means a row was retracted twice. */
  private static final class CountMerge extends Accumulator {
    CountMerge(int slot, int argIndex) {
      super(slot, argIndex);
    }

    @Override Object initial() {
      return 0L;
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      long count = (Long) buffer[slot] + (Long) row[argIndex];
      if (count < 0) {
        throw new IllegalStateException("a group retracted more rows than it was given");
      }
      buffer[slot] = count;
    }
  }

  /** The saved {@code [sum, count]} plus a delta; its SQL value is NULL without values. */
  private static final class SumMerge extends Accumulator {
    private final Accumulator.Addition addition;
    private final boolean zeroWhenEmpty;

    SumMerge(int slot, int argIndex, Accumulator.Addition addition, boolean zeroWhenEmpty) {
      super(slot, argIndex);
      this.addition = addition;
      this.zeroWhenEmpty = zeroWhenEmpty;
    }

    @Override Object initial() {
      return new Object[] {null, 0L};
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      Object[] saved = (Object[]) buffer[slot];
      Object[] delta = (Object[]) row[argIndex];
      if (delta[0] == null && (Long) delta[1] == 0) {
        return;
      }
      long count = (Long) saved[1] + (Long) delta[1];
      if (count < 0) {
        throw new IllegalStateException("a group retracted more values than it was given");
      }
      Object sum = saved[0];
      if (delta[0] != null) {
        sum = addition.add(sum, delta[0]);
      }
      // Without values the sum starts afresh: no rounding left over from doubles taken back.
      buffer[slot] = new Object[] {count == 0 ? null : sum, count};
    }

    @Override Object result(Object buffer) {
      Object[] saved = (Object[]) buffer;
      if ((Long) saved[1] == 0) {
        return zeroWhenEmpty ? addition.zero() : null;
      }
      return saved[0];
    }
  }

  /**
   * The saved counts per value plus a delta, merged as two sorted arrays; the SQL value is the
   * first value (MIN) or the last (MAX), NULL when none is left.
   */
  private static final class MinMaxMerge extends Accumulator {
    private static final Object[] EMPTY = new Object[0];
    private final int sign;

    MinMaxMerge(int slot, int argIndex, int sign) {
      super(slot, argIndex);
      this.sign = sign;
    }

    @Override Object initial() {
      return EMPTY;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override void accumulate(Object[] buffer, Object[] row) {
      Object[] saved = (Object[]) buffer[slot];
      Object[] delta = (Object[]) row[argIndex];
      if (delta.length == 0) {
        return;
      }
      Object[] merged = new Object[saved.length + delta.length];
      int i = 0;
      int j = 0;
      int n = 0;
      while (i < saved.length || j < delta.length) {
        int c = i == saved.length ? 1 : j == delta.length ? -1
            : ((Comparable) saved[i]).compareTo(delta[j]);
        Object value;
        long count;
        if (c < 0) {
          value = saved[i];
          count = (Long) saved[i + 1];
          i += 2;
        } else if (c > 0) {
          value = delta[j];
          count = (Long) delta[j + 1];
          j += 2;
        } else {
          value = saved[i];
          count = (Long) saved[i + 1] + (Long) delta[j + 1];
          i += 2;
          j += 2;
        }
        if (count < 0) {
          throw new IllegalStateException("a group retracted value " + value
              + " more often than it was given");
        }
        if (count > 0) {
          merged[n++] = value;
          merged[n++] = count;
        }
      }
      buffer[slot] = n == merged.length ? merged : java.util.Arrays.copyOf(merged, n);
    }

    @Override Object result(Object buffer) {
      Object[] counts = (Object[]) buffer;
      if (counts.length == 0) {
        return null;
      }
      return sign < 0 ? counts[0] : counts[counts.length - 2];
    }
  }
}
