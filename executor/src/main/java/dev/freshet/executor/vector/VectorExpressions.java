package dev.freshet.executor.vector;

/**
 * The kernels a vector calc is built from, one small class each: column references, literals,
 * integer and double arithmetic, comparisons (of strings too), SQL's three-valued AND, OR and NOT,
 * IS [NOT] NULL and integer casts.
 *
 * <pre>{@code
 * // n % 1000 > 10 over a batch whose column 0 is a BIGINT n
 * VectorExpression key = VectorExpressions.arithmetic(ArithmeticOp.MOD,
 *     VectorExpressions.column(0, VectorType.LONG), VectorExpressions.literal(1000, VectorType.INT),
 *     VectorType.INT);
 * VectorExpression big = VectorExpressions.compare(ComparisonOp.GREATER_THAN, key,
 *     VectorExpressions.literal(10, VectorType.INT));
 * }</pre>
 *
 * <p>Semantics are the row path's (Calcite's generated Java): integer arithmetic wraps in the
 * result's width (a BIGINT sum past 2^63, an INTEGER product past 2^31), division truncates,
 * {@code %} has the dividend's sign, doubles follow IEEE 754; a NULL operand makes a NULL result.
 * Kernels that can fail for a row (checked arithmetic, a division by what may be zero, the
 * narrowing cast {@link #toInt}) record the row in a {@link RowFailures} with the row path's
 * message, and make its value NULL.
 */
public final class VectorExpressions {
  private VectorExpressions() {
  }

  /** Column {@code index} of the batch, of type {@code type}. */
  public static VectorExpression column(int index, VectorType type) {
    return new Column(index, type);
  }

  /** A literal integer, boolean (1 or 0) of {@code type}. */
  public static VectorExpression literal(long value, VectorType type) {
    if (type == VectorType.DOUBLE) {
      throw new IllegalArgumentException("a long literal of type DOUBLE");
    }
    return new Literal(type, value, 0, false);
  }

  /** A literal double. */
  public static VectorExpression literal(double value) {
    return new Literal(VectorType.DOUBLE, 0, value, false);
  }

  /** A literal string: a STRING vector whose every row is code 0 of a one-entry dictionary. */
  public static VectorExpression literal(String value) {
    return new StringLiteral(java.util.Objects.requireNonNull(value, "value"));
  }

  /** A NULL of {@code type}. */
  public static VectorExpression nullLiteral(VectorType type) {
    return new Literal(type, 0, 0, true);
  }

  /**
   * {@code left op right}, wrapping as Java does. Both operands are INT or LONG and
   * {@code resultType} INT or LONG (computed in 64 bits and wrapped to 32 for INT), or all three
   * DOUBLE. An integer division or modulo by zero fails its row ({@code "/ by zero"}).
   *
   * @throws IllegalArgumentException for other types
   */
  public static VectorExpression arithmetic(ArithmeticOp op, VectorExpression left,
      VectorExpression right, VectorType resultType) {
    return arithmetic(op, left, right, resultType, false);
  }

  /**
   * {@code left op right}; with {@code checked}, integer overflow fails the row as Calcite's
   * checked arithmetic ({@code SqlFunctions.checkedPlus} and the like) throws:
   * {@code "integer overflow"} for an INT result, {@code "long overflow"} for a LONG one (a
   * division's overflow, MIN / -1, is {@code "integer overflow"} for both). Doubles are never
   * checked.
   *
   * @throws IllegalArgumentException for other types, or MOD of doubles
   */
  public static VectorExpression arithmetic(ArithmeticOp op, VectorExpression left,
      VectorExpression right, VectorType resultType, boolean checked) {
    if (resultType == VectorType.DOUBLE) {
      if (left.type() != VectorType.DOUBLE || right.type() != VectorType.DOUBLE
          || op == ArithmeticOp.MOD) {
        throw new IllegalArgumentException("no double kernel for " + op + " of " + left.type()
            + " and " + right.type());
      }
      return new DoubleArithmetic(op, left, right);
    }
    if (!isInteger(resultType) || !isInteger(left.type()) || !isInteger(right.type())) {
      throw new IllegalArgumentException("no integer kernel for " + op + " of " + left.type()
          + " and " + right.type() + " to " + resultType);
    }
    return new LongArithmetic(op, left, right, resultType, checked);
  }

  /**
   * {@code operand} as a value of {@code type}, the same values: an INT widened to a LONG, or a
   * TIMESTAMP column read as the LONG it is.
   */
  public static VectorExpression retype(VectorExpression operand, VectorType type) {
    if (operand.type() == type) {
      return operand;
    }
    if (!isInteger(operand.type()) || !isInteger(type)
        || operand.type() == VectorType.LONG && type == VectorType.INT) {
      throw new IllegalArgumentException("cannot read " + operand.type() + " as " + type);
    }
    return new Retyped(operand, type);
  }

  /** An INT or LONG operand as a DOUBLE. */
  public static VectorExpression toDouble(VectorExpression operand) {
    if (!isInteger(operand.type())) {
      throw new IllegalArgumentException("not an integer: " + operand.type());
    }
    return new ToDouble(operand);
  }

  /**
   * A LONG operand as an INT; a value out of INTEGER's range fails its row with the row path's
   * message ({@code "Value 3000000000 out of range"}).
   */
  public static VectorExpression toInt(VectorExpression operand) {
    if (operand.type() != VectorType.LONG) {
      throw new IllegalArgumentException("not a LONG: " + operand.type());
    }
    return new ToInt(operand);
  }

  /**
   * {@code left op right} over two integers (INT or LONG), two doubles or two strings; BOOLEAN.
   * Strings compare as the row path's {@code String.equals} and {@code String.compareTo} (UTF-16
   * code units); against a literal, each dictionary entry is compared once per batch.
   */
  public static VectorExpression compare(ComparisonOp op, VectorExpression left,
      VectorExpression right) {
    if (left.type() == VectorType.STRING || right.type() == VectorType.STRING) {
      if (left.type() != right.type()) {
        throw new IllegalArgumentException("no comparison of " + left.type() + " and "
            + right.type());
      }
      return new StringCompare(op, left, right);
    }
    boolean doubles = left.type() == VectorType.DOUBLE;
    if (doubles != (right.type() == VectorType.DOUBLE)
        || !doubles && (!isInteger(left.type()) || !isInteger(right.type()))) {
      throw new IllegalArgumentException("no comparison of " + left.type() + " and "
          + right.type());
    }
    return new Compare(op, left, right);
  }

  /** SQL's {@code left AND right} ({@code and} true) or {@code left OR right}. */
  public static VectorExpression logical(boolean and, VectorExpression left,
      VectorExpression right) {
    requireBoolean(left);
    requireBoolean(right);
    return new Logical(and, left, right);
  }

  /** SQL's {@code NOT operand}. */
  public static VectorExpression not(VectorExpression operand) {
    requireBoolean(operand);
    return new Not(operand);
  }

  /** {@code operand IS NULL}, or {@code IS NOT NULL} when {@code negated}. */
  public static VectorExpression isNull(VectorExpression operand, boolean negated) {
    return new IsNull(operand, negated);
  }

  private static boolean isInteger(VectorType type) {
    return type == VectorType.INT || type == VectorType.LONG;
  }

  private static void requireBoolean(VectorExpression e) {
    if (e.type() != VectorType.BOOLEAN) {
      throw new IllegalArgumentException("not a BOOLEAN: " + e.type());
    }
  }

  /** A column of the batch. */
  private static final class Column extends VectorExpression {
    private final int index;

    Column(int index, VectorType type) {
      super(type);
      this.index = index;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector v = batch.column(index);
      if (v == null) {
        throw new IllegalStateException("column " + index + " was not read");
      }
      return v;
    }
  }

  /** A constant: its vector is filled once and never written again. */
  private static final class Literal extends VectorExpression {
    final long longValue;
    final double doubleValue;
    final boolean isNull;
    private ColumnVector filled;

    Literal(VectorType type, long longValue, double doubleValue, boolean isNull) {
      super(type);
      this.longValue = longValue;
      this.doubleValue = doubleValue;
      this.isNull = isNull;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector out = output(batch);
      if (out != filled) {
        if (isNull) {
          java.util.Arrays.fill(out.nulls, true);
          out.noNulls = false;
        } else if (out.longs != null) {
          java.util.Arrays.fill(out.longs, longValue);
        } else if (out.doubles != null) {
          java.util.Arrays.fill(out.doubles, doubleValue);
        }
        filled = out;
      }
      return out;
    }
  }

  /** A constant string: code 0 in every row, of a dictionary that holds it alone. */
  private static final class StringLiteral extends VectorExpression {
    final String value;
    private ColumnVector filled;

    StringLiteral(String value) {
      super(VectorType.STRING);
      this.value = value;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector out = output(batch);
      if (out != filled) {
        out.dictionary.encode(value);
        // The codes are 0 already.
        filled = out;
      }
      return out;
    }
  }

  /**
   * Integer arithmetic in 64 bits, wrapped to 32 for an INT result; or, when checked or dividing
   * by what may be zero, row by row as the row path's Java, whose exceptions fail the row.
   */
  private static final class LongArithmetic extends VectorExpression {
    private final ArithmeticOp op;
    private final VectorExpression left;
    private final VectorExpression right;
    /** The right operand when it is a literal that is not NULL: a loop without its vector. */
    private final boolean scalar;
    private final long scalarValue;
    private final boolean toInt;
    private final boolean checked;
    private final boolean canFail;

    LongArithmetic(ArithmeticOp op, VectorExpression left, VectorExpression right,
        VectorType type, boolean checked) {
      super(type);
      this.op = op;
      this.left = left;
      this.right = right;
      this.scalar = right instanceof Literal l && !l.isNull;
      this.scalarValue = scalar ? ((Literal) right).longValue : 0;
      this.toInt = type == VectorType.INT;
      this.checked = checked;
      boolean divides = op == ArithmeticOp.DIVIDE || op == ArithmeticOp.MOD;
      this.canFail = checked && op != ArithmeticOp.MOD || divides && !(scalar && scalarValue != 0);
    }

    @Override public boolean canFail() {
      return canFail;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector a = left.evaluate(batch, failures);
      ColumnVector b = scalar ? null : right.evaluate(batch, failures);
      ColumnVector out = output(batch);
      boolean noNulls = propagateNulls(batch, out, a, b);
      int n = batch.selectedCount();
      int[] sel = batch.selection();
      boolean useSel = batch.selectionInUse();
      long[] x = a.longs;
      long[] r = out.longs;
      if (canFail) {
        long[] y = scalar ? null : b.longs;
        for (int j = 0; j < n; j++) {
          int i = useSel ? sel[j] : j;
          if (!noNulls && out.nulls[i]) {
            continue;
          }
          try {
            r[i] = exact(x[i], scalar ? scalarValue : y[i]);
          } catch (ArithmeticException e) {
            failures.record(i, e.getMessage());
            noNulls = markNull(batch, out, i, noNulls);
          }
        }
        return out;
      }
      if (scalar) {
        long s = scalarValue;
        switch (op) {
        case MOD:
          // The hot loop of GROUP BY n % k: no null check, no division by a variable.
          for (int j = 0; j < n; j++) {
            int i = useSel ? sel[j] : j;
            r[i] = x[i] % s;
          }
          break;
        case DIVIDE:
          for (int j = 0; j < n; j++) {
            int i = useSel ? sel[j] : j;
            r[i] = x[i] / s;
          }
          break;
        default:
          for (int j = 0; j < n; j++) {
            int i = useSel ? sel[j] : j;
            r[i] = wrapping(op, x[i], s);
          }
        }
      } else {
        long[] y = b.longs;
        for (int j = 0; j < n; j++) {
          int i = useSel ? sel[j] : j;
          r[i] = wrapping(op, x[i], y[i]);
        }
      }
      if (toInt) {
        for (int j = 0; j < n; j++) {
          int i = useSel ? sel[j] : j;
          r[i] = (int) r[i];
        }
      }
      return out;
    }

    private static long wrapping(ArithmeticOp op, long x, long y) {
      switch (op) {
      case ADD:
        return x + y;
      case SUBTRACT:
        return x - y;
      case MULTIPLY:
        return x * y;
      case DIVIDE:
        return x / y;
      default:
        return x % y;
      }
    }

    /**
     * One row as the row path computes it, throwing what it throws: Java's {@code /} and
     * {@code %} in the result's width, Calcite's checked arithmetic when {@code checked}.
     */
    private long exact(long x, long y) {
      if (toInt) {
        int a = (int) x;
        int b = (int) y;
        if (!checked) {
          return op == ArithmeticOp.DIVIDE ? a / b : op == ArithmeticOp.MOD ? a % b
              : (int) wrapping(op, a, b);
        }
        switch (op) {
        case ADD:
          return Math.addExact(a, b);
        case SUBTRACT:
          return Math.subtractExact(a, b);
        case MULTIPLY:
          return Math.multiplyExact(a, b);
        case DIVIDE: {
          int q = a / b;
          if ((a & b & q) < 0) {
            throw new ArithmeticException("integer overflow");
          }
          return q;
        }
        default:
          return a % b;
        }
      }
      if (!checked) {
        return wrapping(op, x, y);
      }
      switch (op) {
      case ADD:
        return Math.addExact(x, y);
      case SUBTRACT:
        return Math.subtractExact(x, y);
      case MULTIPLY:
        return Math.multiplyExact(x, y);
      case DIVIDE: {
        long q = x / y;
        if ((x & y & q) < 0) {
          throw new ArithmeticException("integer overflow");
        }
        return q;
      }
      default:
        return x % y;
      }
    }
  }

  /** Double arithmetic. */
  private static final class DoubleArithmetic extends VectorExpression {
    private final ArithmeticOp op;
    private final VectorExpression left;
    private final VectorExpression right;

    DoubleArithmetic(ArithmeticOp op, VectorExpression left, VectorExpression right) {
      super(VectorType.DOUBLE);
      this.op = op;
      this.left = left;
      this.right = right;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector a = left.evaluate(batch, failures);
      ColumnVector b = right.evaluate(batch, failures);
      ColumnVector out = output(batch);
      propagateNulls(batch, out, a, b);
      int n = batch.selectedCount();
      int[] sel = batch.selection();
      boolean useSel = batch.selectionInUse();
      double[] x = a.doubles;
      double[] y = b.doubles;
      double[] r = out.doubles;
      for (int j = 0; j < n; j++) {
        int i = useSel ? sel[j] : j;
        switch (op) {
        case ADD:
          r[i] = x[i] + y[i];
          break;
        case SUBTRACT:
          r[i] = x[i] - y[i];
          break;
        case MULTIPLY:
          r[i] = x[i] * y[i];
          break;
        default:
          r[i] = x[i] / y[i];
        }
      }
      return out;
    }
  }

  /** The operand's vector, as a wider type. */
  private static final class Retyped extends VectorExpression {
    private final VectorExpression operand;

    Retyped(VectorExpression operand, VectorType type) {
      super(type);
      this.operand = operand;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      return operand.evaluate(batch, failures);
    }
  }

  /** An integer as a double. */
  private static final class ToDouble extends VectorExpression {
    private final VectorExpression operand;

    ToDouble(VectorExpression operand) {
      super(VectorType.DOUBLE);
      this.operand = operand;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector a = operand.evaluate(batch, failures);
      ColumnVector out = output(batch);
      propagateNulls(batch, out, a, null);
      int n = batch.selectedCount();
      int[] sel = batch.selection();
      boolean useSel = batch.selectionInUse();
      for (int j = 0; j < n; j++) {
        int i = useSel ? sel[j] : j;
        out.doubles[i] = a.longs[i];
      }
      return out;
    }
  }

  /** A BIGINT as an INTEGER, range-checked as the row path's {@code IntegerCasts.toInt}. */
  private static final class ToInt extends VectorExpression {
    private final VectorExpression operand;

    ToInt(VectorExpression operand) {
      super(VectorType.INT);
      this.operand = operand;
    }

    @Override public boolean canFail() {
      return true;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector a = operand.evaluate(batch, failures);
      ColumnVector out = output(batch);
      boolean noNulls = propagateNulls(batch, out, a, null);
      int n = batch.selectedCount();
      int[] sel = batch.selection();
      boolean useSel = batch.selectionInUse();
      for (int j = 0; j < n; j++) {
        int i = useSel ? sel[j] : j;
        long v = a.longs[i];
        if (v != (int) v && (noNulls || !out.nulls[i])) {
          failures.record(i, "Value " + v + " out of range");
          noNulls = markNull(batch, out, i, noNulls);
        }
        out.longs[i] = v;
      }
      return out;
    }
  }

  /** A comparison, BOOLEAN 1 or 0. */
  private static final class Compare extends VectorExpression {
    private final ComparisonOp op;
    private final VectorExpression left;
    private final VectorExpression right;

    Compare(ComparisonOp op, VectorExpression left, VectorExpression right) {
      super(VectorType.BOOLEAN);
      this.op = op;
      this.left = left;
      this.right = right;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector a = left.evaluate(batch, failures);
      ColumnVector b = right.evaluate(batch, failures);
      ColumnVector out = output(batch);
      propagateNulls(batch, out, a, b);
      int n = batch.selectedCount();
      int[] sel = batch.selection();
      boolean useSel = batch.selectionInUse();
      long[] r = out.longs;
      if (a.longs != null) {
        long[] x = a.longs;
        long[] y = b.longs;
        for (int j = 0; j < n; j++) {
          int i = useSel ? sel[j] : j;
          r[i] = op.test(x[i], y[i]) ? 1 : 0;
        }
      } else {
        double[] x = a.doubles;
        double[] y = b.doubles;
        for (int j = 0; j < n; j++) {
          int i = useSel ? sel[j] : j;
          r[i] = op.test(x[i], y[i]) ? 1 : 0;
        }
      }
      return out;
    }
  }

  /**
   * A comparison of strings, BOOLEAN 1 or 0. Against a literal on the right, the kernel compares
   * each entry of the left vector's dictionary once and reads the rows' results by code;
   * otherwise it compares the rows' strings (no copy: both are dictionary entries).
   */
  private static final class StringCompare extends VectorExpression {
    private final ComparisonOp op;
    private final VectorExpression left;
    private final VectorExpression right;
    /** The right operand when it is a literal string. */
    private final String scalar;
    /** Per code of the left vector's dictionary, the comparison's result (1 or 0). */
    private long[] byCode = new long[0];

    StringCompare(ComparisonOp op, VectorExpression left, VectorExpression right) {
      super(VectorType.BOOLEAN);
      this.op = op;
      this.left = left;
      this.right = right;
      this.scalar = right instanceof StringLiteral l ? l.value : null;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector a = left.evaluate(batch, failures);
      ColumnVector b = right.evaluate(batch, failures);
      ColumnVector out = output(batch);
      propagateNulls(batch, out, a, b);
      int n = batch.selectedCount();
      int[] sel = batch.selection();
      boolean useSel = batch.selectionInUse();
      long[] r = out.longs;
      int[] x = a.codes;
      if (scalar != null) {
        StringDictionary d = a.dictionary;
        int entries = d.size();
        if (byCode.length < entries) {
          byCode = new long[Math.max(entries, 2 * byCode.length)];
        }
        for (int code = 0; code < entries; code++) {
          byCode[code] = op.test(d.get(code).compareTo(scalar), 0) ? 1 : 0;
        }
        long[] results = byCode;
        for (int j = 0; j < n; j++) {
          int i = useSel ? sel[j] : j;
          // A NULL row's code is stale: its result is not read, but must be in range.
          r[i] = a.isNull(i) ? 0 : results[x[i]];
        }
        return out;
      }
      for (int j = 0; j < n; j++) {
        int i = useSel ? sel[j] : j;
        if (a.isNull(i) || b.isNull(i)) {
          r[i] = 0;
          continue;
        }
        r[i] = op.test(a.dictionary.get(x[i]).compareTo(b.dictionary.get(b.codes[i])), 0)
            ? 1 : 0;
      }
      return out;
    }
  }

  /** Three-valued AND or OR: FALSE (AND) or TRUE (OR) wins over NULL. */
  private static final class Logical extends VectorExpression {
    private final boolean and;
    private final VectorExpression left;
    private final VectorExpression right;

    Logical(boolean and, VectorExpression left, VectorExpression right) {
      super(VectorType.BOOLEAN);
      this.and = and;
      this.left = left;
      this.right = right;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector a = left.evaluate(batch, failures);
      ColumnVector b = right.evaluate(batch, failures);
      ColumnVector out = output(batch);
      int n = batch.selectedCount();
      int[] sel = batch.selection();
      boolean useSel = batch.selectionInUse();
      long dominant = and ? 0 : 1;
      boolean anyNull = false;
      for (int j = 0; j < n; j++) {
        int i = useSel ? sel[j] : j;
        boolean an = a.isNull(i);
        boolean bn = b.isNull(i);
        long x = a.longs[i];
        long y = b.longs[i];
        boolean isNull;
        long v;
        if (!an && x == dominant || !bn && y == dominant) {
          isNull = false;
          v = dominant;
        } else if (an || bn) {
          isNull = true;
          v = 0;
        } else {
          isNull = false;
          v = 1 - dominant;
        }
        out.nulls[i] = isNull;
        anyNull |= isNull;
        out.longs[i] = v;
      }
      out.noNulls = !anyNull;
      return out;
    }
  }

  /** NOT. */
  private static final class Not extends VectorExpression {
    private final VectorExpression operand;

    Not(VectorExpression operand) {
      super(VectorType.BOOLEAN);
      this.operand = operand;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector a = operand.evaluate(batch, failures);
      ColumnVector out = output(batch);
      propagateNulls(batch, out, a, null);
      int n = batch.selectedCount();
      int[] sel = batch.selection();
      boolean useSel = batch.selectionInUse();
      for (int j = 0; j < n; j++) {
        int i = useSel ? sel[j] : j;
        out.longs[i] = 1 - a.longs[i];
      }
      return out;
    }
  }

  /** IS NULL and IS NOT NULL, never NULL themselves. */
  private static final class IsNull extends VectorExpression {
    private final VectorExpression operand;
    private final boolean negated;

    IsNull(VectorExpression operand, boolean negated) {
      super(VectorType.BOOLEAN);
      this.operand = operand;
      this.negated = negated;
    }

    @Override public ColumnVector evaluate(VectorBatch batch, RowFailures failures) {
      ColumnVector a = operand.evaluate(batch, failures);
      ColumnVector out = output(batch);
      out.noNulls = true;
      int n = batch.selectedCount();
      int[] sel = batch.selection();
      boolean useSel = batch.selectionInUse();
      for (int j = 0; j < n; j++) {
        int i = useSel ? sel[j] : j;
        out.longs[i] = a.isNull(i) != negated ? 1 : 0;
      }
      return out;
    }
  }
}
