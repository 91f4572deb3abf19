package dev.freshet.planner.exec;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.List;
import org.apache.calcite.linq4j.tree.ConstantExpression;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.runtime.SqlFunctions;
import org.apache.calcite.util.BuiltInMethod;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Rewrites Calcite's generated integer-to-integer casts so that they stay on primitives.
 *
 * <p>Why: Calcite casts every integer to a narrower integer type through
 * {@code Primitive.integerCast(Primitive, Object, RoundingMode)}, which boxes the value, checks its
 * range through a {@code double} and boxes the result again: for {@code n % 1000} over a
 * {@code BIGINT} that was a third of a row's cost. When the operand is already a primitive
 * integer this shuttle calls {@link IntegerCasts} instead, which checks the range the same way
 * (same exception, same message) on primitives, and drops the {@code SqlFunctions.toInt(...)}
 * unboxing that Calcite wraps around the result.
 *
 * <pre>{@code
 * BlockStatement fast = (BlockStatement) block.accept(new PrimitiveIntegerCasts());
 * }</pre>
 */
final class PrimitiveIntegerCasts extends Shuttle {
  private static final Method CAST = BuiltInMethod.INTEGER_CAST.method;
  private static final Method CAST_ROUNDING = BuiltInMethod.INTEGER_CAST_ROUNDING_MODE.method;

  @Override public Expression visit(MethodCallExpression call,
      @Nullable Expression targetExpression, List<Expression> expressions) {
    Expression visited = super.visit(call, targetExpression, expressions);
    if (!(visited instanceof MethodCallExpression)) {
      return visited;
    }
    MethodCallExpression c = (MethodCallExpression) visited;
    if ((c.method.equals(CAST) || c.method.equals(CAST_ROUNDING))
        && c.expressions.get(0) instanceof ConstantExpression) {
      Object target = ((ConstantExpression) c.expressions.get(0)).value;
      Expression operand = c.expressions.get(1);
      if (isPrimitiveInteger(operand.getType()) && target instanceof Primitive) {
        String name = IntegerCasts.methodFor((Primitive) target);
        if (name != null) {
          return Expressions.call(IntegerCasts.class, name, operand);
        }
      }
    }
    // SqlFunctions.toInt(x) and the like, when x is already the primitive they return.
    if (c.method.getDeclaringClass() == SqlFunctions.class && c.expressions.size() == 1
        && c.method.getName().startsWith("to") && c.targetExpression == null
        && c.expressions.get(0).getType() == c.method.getReturnType()
        && Primitive.is(c.method.getReturnType())) {
      return c.expressions.get(0);
    }
    return c;
  }

  private static boolean isPrimitiveInteger(Type type) {
    return type == long.class || type == int.class || type == short.class || type == byte.class;
  }
}
