package dev.freshet.benchmarks.jmh;

import dev.freshet.executor.operators.RowCalc;
import dev.freshet.planner.exec.CalcCompiler;
import java.util.concurrent.TimeUnit;
import org.apache.calcite.DataContexts;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * W1's projection compiled by {@link CalcCompiler}: {@code (n % 1000, n)} from {@code n BIGINT NOT
 * NULL}, applied to {@value #ROWS} rows. The score is rows per second.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CalcBenchmark {
  static final int ROWS = 100_000;

  private RowCalc calc;
  private Object[][] rows;
  private final Object[] out = new Object[2];

  @Setup
  public void setUp() {
    JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
    RexBuilder rex = new RexBuilder(types);
    RelDataType bigint = types.createSqlType(SqlTypeName.BIGINT);
    RelDataType input = types.builder().add("N", bigint).build();
    RexProgramBuilder program = new RexProgramBuilder(input, rex);
    RexNode n = rex.makeInputRef(bigint, 0);
    program.addProject(rex.makeCall(SqlStdOperatorTable.MOD, n,
        rex.makeLiteral(1000L, bigint)), "K");
    program.addProject(n, "N");
    RexProgram p = program.getProgram();
    calc = CalcCompiler.compile(p, types, DataContexts.EMPTY);
    rows = new Object[ROWS][];
    for (int i = 0; i < ROWS; i++) {
      rows[i] = new Object[] {(long) i};
    }
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public void project(Blackhole blackhole) {
    for (Object[] row : rows) {
      blackhole.consume(calc.apply(row, out));
      blackhole.consume(out[0]);
    }
  }
}
