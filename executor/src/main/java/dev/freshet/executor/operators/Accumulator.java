package dev.freshet.executor.operators;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Updates one slot of an aggregation buffer with one value; chosen once per call when a plan is built.
 *
 * <p>A buffer slot holds what the state keeps, which for most calls is the SQL value itself. A
 * distinct call keeps the set of its distinct values instead; {@link #result} turns a slot into the
 * SQL value when the operator emits a row.
 */
abstract class Accumulator {
  final int slot;
  final int argIndex;

  Accumulator(int slot, int argIndex) {
    this.slot = slot;
    this.argIndex = argIndex;
  }

  /** The value of an empty group. */
  abstract Object initial();

  /** Folds the argument of {@code row} into {@code buffer[slot]}. */
  abstract void accumulate(Object[] buffer, Object[] row);

  /**
   * Takes the argument of {@code row} back out of {@code buffer[slot]}: only the accumulators of
   * an aggregation over a retracting input can ({@link RetractingAccumulators}).
   */
  void retract(Object[] buffer, Object[] row) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot retract");
  }

  /** The SQL value of the slot value {@code buffer}; the slot value itself unless overridden. */
  Object result(Object buffer) {
    return buffer;
  }

  /**
   * The value a partial buffer's slot hands to the merge: the slot value itself unless the partial
   * accumulator keeps a mutable cell (see {@link LongCell}).
   */
  Object finishPartial(Object slotValue) {
    return slotValue;
  }

  /** The accumulator of a partial call, which folds the batch's input rows into a new buffer. */
  static Accumulator partial(AggregateCall call, int slot) {
    Accumulator accumulator = call.distinct()
        ? new DistinctValues(slot, call.argIndex(), DistinctSet.of(call))
        : ofPartial(call, slot);
    return call.hasFilter() ? new Filtered(accumulator, call.filterArg()) : accumulator;
  }

  /** {@code accumulator} counting only rows whose column {@code filterArg} is TRUE. */
  static Accumulator filtered(Accumulator accumulator, int filterArg) {
    return new Filtered(accumulator, filterArg);
  }

  /**
   * The accumulator of a merge call, which folds a partial row into a copy of the restored buffer;
   * it must leave the restored slot values as they are, because saved values are immutable.
   */
  static Accumulator merge(AggregateCall call, int slot) {
    if (call.hasFilter()) {
      throw new IllegalArgumentException("a merge call has no filter: " + call);
    }
    return call.distinct() ? new DistinctUnion(call, slot) : of(call, slot);
  }

  /**
   * A partial accumulator: counts and integer sums fold into a mutable {@link LongCell} that the
   * batch's buffer owns, so that a row costs no boxed value; the rest are as in the merge.
   */
  private static Accumulator ofPartial(AggregateCall call, int slot) {
    switch (call.function()) {
    case COUNT_STAR:
      return new CellCount(slot, -1);
    case COUNT:
      return new CellCount(slot, call.argIndex());
    case SUM:
    case SUM0:
      if (Addition.of(call.resultKind()) == Addition.LONG) {
        return new CellSum(slot, call.argIndex(), call.function() == AggregateFunction.SUM0);
      }
      return of(call, slot);
    default:
      return of(call, slot);
    }
  }

  private static Accumulator of(AggregateCall call, int slot) {
    int arg = call.argIndex();
    switch (call.function()) {
    case COUNT_STAR:
      return new CountStar(slot);
    case COUNT:
      return new Count(slot, arg);
    case SUM:
      return new Sum(slot, arg, Addition.of(call.resultKind()), false);
    case SUM0:
      return new Sum(slot, arg, Addition.of(call.resultKind()), true);
    case MIN:
      return new MinMax(slot, arg, -1);
    case MAX:
      return new MinMax(slot, arg, 1);
    default:
      throw new AssertionError(call.function());
    }
  }

  /**
   * A partial buffer's running count or integer sum, changed in place; {@code empty} until a
   * value is added, since SUM over no values is NULL.
   */
  private static final class LongCell {
    long value;
    boolean empty = true;
  }

  /** Partial COUNT(*) (argument -1) or COUNT(x), counting into a {@link LongCell}. */
  private static final class CellCount extends Accumulator {
    CellCount(int slot, int argIndex) {
      super(slot, argIndex);
    }

    @Override Object initial() {
      return new LongCell();
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      if (argIndex < 0 || row[argIndex] != null) {
        ((LongCell) buffer[slot]).value++;
      }
    }

    @Override Object finishPartial(Object slotValue) {
      return ((LongCell) slotValue).value;
    }
  }

  /** Partial SUM or $SUM0 of integers into a {@link LongCell}; overflow is an error. */
  private static final class CellSum extends Accumulator {
    private final boolean zeroWhenEmpty;

    CellSum(int slot, int argIndex, boolean zeroWhenEmpty) {
      super(slot, argIndex);
      this.zeroWhenEmpty = zeroWhenEmpty;
    }

    @Override Object initial() {
      return new LongCell();
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      Object v = row[argIndex];
      if (v != null) {
        LongCell cell = (LongCell) buffer[slot];
        cell.value = Math.addExact(cell.value, ((Number) v).longValue());
        cell.empty = false;
      }
    }

    @Override Object finishPartial(Object slotValue) {
      LongCell cell = (LongCell) slotValue;
      if (cell.empty) {
        return zeroWhenEmpty ? (Object) 0L : null;
      }
      return cell.value;
    }
  }

  /** COUNT(*). */
  private static final class CountStar extends Accumulator {
    CountStar(int slot) {
      super(slot, -1);
    }

    @Override Object initial() {
      return 0L;
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      buffer[slot] = (Long) buffer[slot] + 1L;
    }
  }

  /** COUNT(x). */
  private static final class Count extends Accumulator {
    Count(int slot, int argIndex) {
      super(slot, argIndex);
    }

    @Override Object initial() {
      return 0L;
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      if (row[argIndex] != null) {
        buffer[slot] = (Long) buffer[slot] + 1L;
      }
    }
  }

  /** SUM and $SUM0. */
  private static final class Sum extends Accumulator {
    private final Addition addition;
    private final boolean zeroWhenEmpty;

    Sum(int slot, int argIndex, Addition addition, boolean zeroWhenEmpty) {
      super(slot, argIndex);
      this.addition = addition;
      this.zeroWhenEmpty = zeroWhenEmpty;
    }

    @Override Object initial() {
      return zeroWhenEmpty ? addition.zero() : null;
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      Object v = row[argIndex];
      if (v != null) {
        buffer[slot] = addition.add(buffer[slot], v);
      }
    }
  }

  /** MIN (sign -1) and MAX (sign 1) of any comparable value. */
  private static final class MinMax extends Accumulator {
    private final int sign;

    MinMax(int slot, int argIndex, int sign) {
      super(slot, argIndex);
      this.sign = sign;
    }

    @Override Object initial() {
      return null;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override void accumulate(Object[] buffer, Object[] row) {
      Object v = row[argIndex];
      if (v != null) {
        Object acc = buffer[slot];
        if (acc == null || ((Comparable) v).compareTo(acc) * sign > 0) {
          buffer[slot] = v;
        }
      }
    }
  }

  /**
   * Partial phase of {@code COUNT(DISTINCT x)} and {@code SUM(DISTINCT x)}: collects the batch's
   * distinct non-null values of the key into a set that the batch's buffer owns.
   */
  private static final class DistinctValues extends Accumulator {
    private final DistinctSet distinctSet;

    DistinctValues(int slot, int argIndex, DistinctSet distinctSet) {
      super(slot, argIndex);
      this.distinctSet = distinctSet;
    }

    @Override Object initial() {
      return distinctSet.newSet();
    }

    @SuppressWarnings("unchecked")
    @Override void accumulate(Object[] buffer, Object[] row) {
      Object v = row[argIndex];
      if (v != null) {
        ((Set<Object>) buffer[slot]).add(distinctSet.canonical(v));
      }
    }
  }

  /**
   * Merge phase of {@code COUNT(DISTINCT x)} and {@code SUM(DISTINCT x)}: adds a batch's set of
   * distinct values to the saved set, and emits the size or the sum of the result.
   *
   * <p>The saved set is never modified, since an earlier state version holds it too: when the
   * batch brings a new value the result is a new set. The batch's set is adopted as it is when
   * nothing is saved yet, because the partial phase no longer writes to it.
   */
  private static final class DistinctUnion extends Accumulator {
    private final DistinctSet distinctSet;
    /** Null for COUNT, which emits the set's size. */
    private final Addition sum;

    DistinctUnion(AggregateCall call, int slot) {
      super(slot, call.argIndex());
      this.distinctSet = DistinctSet.of(call);
      this.sum = call.function() == AggregateFunction.SUM ? Addition.of(call.resultKind()) : null;
    }

    @Override Object initial() {
      return Set.of();
    }

    @SuppressWarnings("unchecked")
    @Override void accumulate(Object[] buffer, Object[] row) {
      Set<Object> saved = (Set<Object>) buffer[slot];
      Set<Object> batch = (Set<Object>) row[argIndex];
      if (batch.isEmpty() || saved.containsAll(batch)) {
        return;
      }
      if (saved.isEmpty()) {
        buffer[slot] = batch;
        return;
      }
      Set<Object> union = distinctSet.copy(saved);
      union.addAll(batch);
      buffer[slot] = union;
    }

    @Override Object result(Object buffer) {
      Collection<?> values = (Collection<?>) buffer;
      if (sum == null) {
        return (long) values.size();
      }
      Object total = null;
      for (Object v : values) {
        total = sum.add(total, v);
      }
      return total;
    }
  }

  /** Counts a row only if its filter column is TRUE: {@code FILTER (WHERE ...)}. */
  private static final class Filtered extends Accumulator {
    private final Accumulator accumulator;
    private final int filterArg;

    Filtered(Accumulator accumulator, int filterArg) {
      super(accumulator.slot, accumulator.argIndex);
      this.accumulator = accumulator;
      this.filterArg = filterArg;
    }

    @Override Object initial() {
      return accumulator.initial();
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      if (Boolean.TRUE.equals(row[filterArg])) {
        accumulator.accumulate(buffer, row);
      }
    }

    @Override void retract(Object[] buffer, Object[] row) {
      if (Boolean.TRUE.equals(row[filterArg])) {
        accumulator.retract(buffer, row);
      }
    }

    @Override Object result(Object buffer) {
      return accumulator.result(buffer);
    }

    @Override Object finishPartial(Object slotValue) {
      return accumulator.finishPartial(slotValue);
    }
  }

  /**
   * Addition of SQL numbers in the representation of a SUM's result, chosen once per call.
   */
  enum Addition {
    /** Exact integers, kept as a long; overflow is an error, not a wrapped sum. */
    LONG {
      @Override Object zero() {
        return 0L;
      }

      @Override Object add(Object sum, Object v) {
        long value = ((Number) v).longValue();
        return sum == null ? value : Math.addExact((Long) sum, value);
      }
    },
    /** Approximate numbers, kept as a double. */
    DOUBLE {
      @Override Object zero() {
        return 0D;
      }

      @Override Object add(Object sum, Object v) {
        double value = ((Number) v).doubleValue();
        return sum == null ? value : (Double) sum + value;
      }
    },
    /** Decimals. */
    DECIMAL {
      @Override Object zero() {
        return BigDecimal.ZERO;
      }

      @Override Object add(Object sum, Object v) {
        BigDecimal value = v instanceof BigDecimal ? (BigDecimal) v : new BigDecimal(v.toString());
        return sum == null ? value : ((BigDecimal) sum).add(value);
      }
    };

    /** The sum of no values, for {@code $SUM0}. */
    abstract Object zero();

    /** Returns {@code -v}, in this addition's representation: what a retraction adds. */
    Object negate(Object v) {
      switch (this) {
      case LONG:
        return Math.negateExact(((Number) v).longValue());
      case DOUBLE:
        return -((Number) v).doubleValue();
      default:
        return (v instanceof BigDecimal ? (BigDecimal) v : new BigDecimal(v.toString())).negate();
      }
    }

    /** Returns {@code sum + v}; {@code sum} is null before the first value. */
    abstract Object add(Object sum, Object v);

    static Addition of(ValueKind resultKind) {
      switch (resultKind) {
      case INT:
      case LONG:
        return LONG;
      case DOUBLE:
        return DOUBLE;
      case DECIMAL:
        return DECIMAL;
      default:
        throw new IllegalArgumentException("SUM over " + resultKind + " is not supported");
      }
    }
  }

  /**
   * How a distinct call decides which values are the same, and the kind of set that holds them;
   * the partial and the merge accumulator of a call choose the same one.
   */
  private enum DistinctSet {
    /**
     * A hash set of canonical values: {@code -0.0} becomes {@code 0.0} and a decimal loses its
     * trailing zeros, so that values SQL calls equal are {@code equals}.
     */
    HASHED {
      @Override Set<Object> newSet() {
        return new HashSet<>();
      }

      @Override Set<Object> copy(Set<Object> set) {
        return new HashSet<>(set);
      }

      @Override Object canonical(Object v) {
        if (v instanceof Double) {
          return (Double) v == 0.0d ? 0.0d : v;
        }
        if (v instanceof Float) {
          return (Float) v == 0.0f ? 0.0f : v;
        }
        if (v instanceof BigDecimal) {
          return ((BigDecimal) v).stripTrailingZeros();
        }
        return v;
      }
    },
    /**
     * A sorted set of decimals, which compares 1.5 and 1.50 as equal and keeps the first one's
     * scale, so that {@code SUM(DISTINCT x)} has the scale that {@code SUM(x)} would have.
     */
    SORTED {
      @Override Set<Object> newSet() {
        return new TreeSet<>();
      }

      @SuppressWarnings("unchecked")
      @Override Set<Object> copy(Set<Object> set) {
        return new TreeSet<>((SortedSet<Object>) set);
      }

      @Override Object canonical(Object v) {
        return v;
      }
    };

    abstract Set<Object> newSet();

    /** Returns a new, modifiable set with the values of {@code set}. */
    abstract Set<Object> copy(Set<Object> set);

    /** The representative of the values that SQL calls equal to {@code v}. */
    abstract Object canonical(Object v);

    static DistinctSet of(AggregateCall call) {
      return call.function() == AggregateFunction.SUM && call.resultKind() == ValueKind.DECIMAL
          ? SORTED : HASHED;
    }
  }
}
