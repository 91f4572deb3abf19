package dev.freshet.planner.exec;

import org.apache.calcite.linq4j.tree.Primitive;

/**
 * Range-checked casts between primitive integers, called by generated code in place of Calcite's
 * boxing {@code Primitive.integerCast}; see {@link PrimitiveIntegerCasts}.
 *
 * <p>An out-of-range value throws the {@link ArithmeticException} Calcite throws, with its message.
 */
public final class IntegerCasts {
  private IntegerCasts() {
  }

  /** The method of this class casting to {@code target}, or null if there is none. */
  static String methodFor(Primitive target) {
    switch (target) {
    case LONG:
      return "toLong";
    case INT:
      return "toInt";
    case SHORT:
      return "toShort";
    case BYTE:
      return "toByte";
    default:
      return null;
    }
  }

  public static long toLong(long value) {
    return value;
  }

  public static int toInt(long value) {
    if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
      throw outOfRange(value);
    }
    return (int) value;
  }

  public static short toShort(long value) {
    if (value < Short.MIN_VALUE || value > Short.MAX_VALUE) {
      throw outOfRange(value);
    }
    return (short) value;
  }

  public static byte toByte(long value) {
    if (value < Byte.MIN_VALUE || value > Byte.MAX_VALUE) {
      throw outOfRange(value);
    }
    return (byte) value;
  }

  private static ArithmeticException outOfRange(long value) {
    return new ArithmeticException("Value " + value + " out of range");
  }
}
