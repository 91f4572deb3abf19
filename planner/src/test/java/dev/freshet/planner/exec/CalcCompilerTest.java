package dev.freshet.planner.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.operators.RowCalc;
import java.util.function.BiFunction;
import org.apache.calcite.DataContexts;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * {@link CalcCompiler}: the values its code computes, and the shape of that code where the shape
 * is the point (no {@code BigDecimal} for integer {@code MOD}, no boxing for integer casts).
 */
class CalcCompilerTest {
  private final JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
  private final RexBuilder rex = new RexBuilder(types);
  private final RelDataType bigint = types.createSqlType(SqlTypeName.BIGINT);
  private final RelDataType integer = types.createSqlType(SqlTypeName.INTEGER);
  private final RelDataType nullableBigint = types.createTypeWithNullability(bigint, true);

  /** {@code n % 1000} as the SQL validator types it: BIGINT by INTEGER, INTEGER result. */
  @Test void moduloOfBigintByIntegerStaysOnLongs() {
    RexProgram program = program(bigint, (b, n) -> b.makeCall(SqlStdOperatorTable.MOD, n,
        b.makeExactLiteral(java.math.BigDecimal.valueOf(1000), integer)));
    assertEquals(SqlTypeName.INTEGER,
        program.getOutputRowType().getFieldList().get(0).getType().getSqlTypeName());
    String source = CalcCompiler.generate("ModCalc", program, types);
    // Janino resolves mod(long, int) to SqlFunctions.mod(BigDecimal, int).
    assertTrue(source.contains("1000L"), source);
    assertFalse(source.contains("BigDecimal"), source);
    RowCalc calc = compile(program);
    assertEquals(807, apply(calc, Long.MAX_VALUE));
    assertEquals(-7, apply(calc, -2_000_007L));
    assertEquals(0, apply(calc, 0L));
  }

  @Test void moduloOfIntegerByBigint() {
    RelDataType input = types.builder().add("N", integer).build();
    RexProgramBuilder builder = new RexProgramBuilder(input, rex);
    builder.addProject(rex.makeCall(SqlStdOperatorTable.MOD, rex.makeInputRef(integer, 0),
        rex.makeLiteral(3_000_000_000L, bigint)), "K");
    RowCalc calc = compile(builder.getProgram());
    Object[] out = new Object[1];
    calc.apply(new Object[] {-7}, out);
    assertEquals(-7L, out[0]);
  }

  @Test void moduloOfNullIsNull() {
    RowCalc calc = compile(program(nullableBigint, (b, n) -> b.makeCall(SqlStdOperatorTable.MOD,
        n, b.makeExactLiteral(java.math.BigDecimal.TEN, integer))));
    Object[] out = new Object[1];
    calc.apply(new Object[] {null}, out);
    assertNull(out[0]);
    calc.apply(new Object[] {25L}, out);
    assertEquals(5, out[0]);
  }

  @Test void narrowingCastChecksRangeWithoutBoxing() {
    RexProgram program = program(bigint, (b, n) -> b.makeCast(integer, n));
    String source = CalcCompiler.generate("CastCalc", program, types);
    assertTrue(source.contains("IntegerCasts.toInt"), source);
    assertFalse(source.contains("integerCast"), source);
    RowCalc calc = compile(program);
    assertEquals(Integer.MIN_VALUE, apply(calc, (long) Integer.MIN_VALUE));
    ArithmeticException e = assertThrows(ArithmeticException.class,
        () -> apply(calc, 3_000_000_000L));
    // The message Calcite's own cast gives.
    assertEquals("Value 3000000000 out of range", e.getMessage());
  }

  @Test void passedThroughColumnKeepsItsObject() {
    RelDataType input = types.builder().add("N", bigint).add("S", nullableBigint).build();
    RexProgramBuilder builder = new RexProgramBuilder(input, rex);
    builder.addProject(rex.makeInputRef(nullableBigint, 1), "S");
    builder.addProject(rex.makeInputRef(bigint, 0), "N");
    // How a window's start reaches a projection: made nullable, otherwise the same.
    builder.addProject(rex.makeCast(nullableBigint, rex.makeInputRef(bigint, 0), true, false),
        "N2");
    RowCalc calc = compile(builder.getProgram());
    Long n = 123_456_789L;
    Object[] out = new Object[3];
    calc.apply(new Object[] {n, null}, out);
    assertArrayEquals(new Object[] {null, n, n}, out);
    assertSame(n, out[1]);
    assertSame(n, out[2]);
  }

  /** A program over one column {@code N} of type {@code type} projecting {@code f(N)}. */
  private RexProgram program(RelDataType type, BiFunction<RexBuilder, RexNode, RexNode> f) {
    RelDataType input = types.builder().add("N", type).build();
    RexProgramBuilder builder = new RexProgramBuilder(input, rex);
    builder.addProject(f.apply(rex, rex.makeInputRef(type, 0)), "K");
    return builder.getProgram();
  }

  private RowCalc compile(RexProgram program) {
    return CalcCompiler.compile(program, types, DataContexts.EMPTY);
  }

  private static Object apply(RowCalc calc, long n) {
    Object[] out = new Object[1];
    assertTrue(calc.apply(new Object[] {n}, out));
    return out[0];
  }
}
