package dev.freshet.executor.operators;

import java.math.BigDecimal;

/**
 * Updates one slot of an aggregation buffer with one value; chosen once per call when a plan is built.
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

  static Accumulator of(AggregateCall call, int slot) {
    int arg = call.argIndex();
    switch (call.function()) {
    case COUNT_STAR:
      return new CountStar(slot);
    case COUNT:
      return new Count(slot, arg);
    case SUM:
    case SUM0:
      boolean zero = call.function() == AggregateFunction.SUM0;
      switch (call.resultKind()) {
      case INT:
      case LONG:
        return new SumLong(slot, arg, zero);
      case DOUBLE:
        return new SumDouble(slot, arg, zero);
      case DECIMAL:
        return new SumDecimal(slot, arg, zero);
      default:
        throw new IllegalArgumentException("SUM over " + call.resultKind() + " is not supported");
      }
    case MIN:
      return new MinMax(slot, arg, -1);
    case MAX:
      return new MinMax(slot, arg, 1);
    default:
      throw new AssertionError(call.function());
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

  /** SUM and $SUM0 of exact integers, kept as a long. */
  private static final class SumLong extends Accumulator {
    private final boolean zeroWhenEmpty;

    SumLong(int slot, int argIndex, boolean zeroWhenEmpty) {
      super(slot, argIndex);
      this.zeroWhenEmpty = zeroWhenEmpty;
    }

    @Override Object initial() {
      return zeroWhenEmpty ? 0L : null;
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      Object v = row[argIndex];
      if (v != null) {
        Object acc = buffer[slot];
        long value = ((Number) v).longValue();
        buffer[slot] = acc == null ? value : Math.addExact((Long) acc, value);
      }
    }
  }

  /** SUM and $SUM0 of approximate numbers, kept as a double. */
  private static final class SumDouble extends Accumulator {
    private final boolean zeroWhenEmpty;

    SumDouble(int slot, int argIndex, boolean zeroWhenEmpty) {
      super(slot, argIndex);
      this.zeroWhenEmpty = zeroWhenEmpty;
    }

    @Override Object initial() {
      return zeroWhenEmpty ? 0D : null;
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      Object v = row[argIndex];
      if (v != null) {
        Object acc = buffer[slot];
        double value = ((Number) v).doubleValue();
        buffer[slot] = acc == null ? value : (Double) acc + value;
      }
    }
  }

  /** SUM and $SUM0 of decimals. */
  private static final class SumDecimal extends Accumulator {
    private final boolean zeroWhenEmpty;

    SumDecimal(int slot, int argIndex, boolean zeroWhenEmpty) {
      super(slot, argIndex);
      this.zeroWhenEmpty = zeroWhenEmpty;
    }

    @Override Object initial() {
      return zeroWhenEmpty ? BigDecimal.ZERO : null;
    }

    @Override void accumulate(Object[] buffer, Object[] row) {
      Object v = row[argIndex];
      if (v != null) {
        Object acc = buffer[slot];
        BigDecimal value = v instanceof BigDecimal ? (BigDecimal) v : new BigDecimal(v.toString());
        buffer[slot] = acc == null ? value : ((BigDecimal) acc).add(value);
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
}
