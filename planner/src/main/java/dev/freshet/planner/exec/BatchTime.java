package dev.freshet.planner.exec;

import java.util.Locale;
import java.util.Set;
import java.util.TimeZone;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.rel.type.TimeFrames;
import org.apache.calcite.schema.SchemaPlus;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The current time as a continuous query's compiled expressions read it: the processing time of
 * the batch they run in. {@code CURRENT_TIMESTAMP}, {@code CURRENT_DATE}, {@code LOCALTIMESTAMP}
 * and the other niladic time functions give the same value for every row of a batch, and, since
 * the batch's time is written to its offset log entry before it runs, the same value when the
 * batch runs again after a crash (Spark's {@code CurrentBatchTimestamp}). Freshet's time zone is
 * UTC, as for pull queries, so local and current time are one value.
 *
 * <pre>{@code
 * BatchTime time = new BatchTime(typeFactory);
 * RowCalc calc = CalcCompiler.compile(program, typeFactory, time);
 * time.startBatch(batch.batchTimestampMs());   // before the batch's first row
 * }</pre>
 *
 * <p>Set once per batch on the batch thread before any row is pushed; input tasks read it after
 * they are handed the batch, so the write is visible to them.
 */
public final class BatchTime implements DataContext {
  /** The functions whose value is the batch's time, by name. */
  private static final Set<String> TIME_FUNCTIONS = Set.of("CURRENT_TIMESTAMP", "CURRENT_DATE",
      "CURRENT_TIME", "LOCALTIMESTAMP", "LOCALTIME");
  private static final TimeZone UTC = TimeZone.getTimeZone("UTC");

  private final JavaTypeFactory typeFactory;
  private final Object timeFrameSet;
  private volatile long batchTimestampMs = Long.MIN_VALUE;

  public BatchTime(JavaTypeFactory typeFactory) {
    this.typeFactory = typeFactory;
    this.timeFrameSet = typeFactory.getTypeSystem().deriveTimeFrameSet(TimeFrames.CORE);
  }

  /** Makes the time functions return {@code batchTimestampMs} until the next batch starts. */
  public void startBatch(long batchTimestampMs) {
    this.batchTimestampMs = batchTimestampMs;
  }

  /** Whether {@code program} calls a function whose value is the batch's time. */
  public static boolean reads(RexProgram program) {
    for (RexNode expr : program.getExprList()) {
      if (reads(expr)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code expr} calls a function whose value is the batch's time. */
  public static boolean reads(RexNode expr) {
    Boolean found = expr.accept(new RexVisitorImpl<@Nullable Boolean>(true) {
      @Override public @Nullable Boolean visitCall(RexCall call) {
        if (TIME_FUNCTIONS.contains(call.getOperator().getName())
            && call.getOperands().isEmpty()) {
          return true;
        }
        for (RexNode operand : call.getOperands()) {
          if (Boolean.TRUE.equals(operand.accept(this))) {
            return true;
          }
        }
        return null;
      }
    });
    return Boolean.TRUE.equals(found);
  }

  /**
   * Whether a calc between {@code physical}'s root and the first operator that is not a calc
   * (a plan's last aggregation) reads the batch's time: what an UPDATE view computes when it is
   * read, long after the batch that changed the row.
   */
  public static boolean readAboveTheTop(RelNode physical) {
    for (RelNode rel = physical; rel instanceof Calc calc; rel = calc.getInput()) {
      if (reads(calc.getProgram())) {
        return true;
      }
    }
    return false;
  }

  @Override public @Nullable Object get(String name) {
    if (Variable.CURRENT_TIMESTAMP.camelName.equals(name)
        || Variable.LOCAL_TIMESTAMP.camelName.equals(name)
        || Variable.UTC_TIMESTAMP.camelName.equals(name)
        || Variable.SYS_TIMESTAMP.camelName.equals(name)) {
      long time = batchTimestampMs;
      if (time == Long.MIN_VALUE) {
        throw new IllegalStateException("the batch time is read before a batch started");
      }
      return time;
    }
    if (Variable.TIME_ZONE.camelName.equals(name)) {
      return UTC;
    }
    if (Variable.TIME_FRAME_SET.camelName.equals(name)) {
      return timeFrameSet;
    }
    if (Variable.LOCALE.camelName.equals(name)) {
      return Locale.ROOT;
    }
    return null;
  }

  @Override public @Nullable SchemaPlus getRootSchema() {
    return null;
  }

  @Override public JavaTypeFactory getTypeFactory() {
    return typeFactory;
  }

  @Override public QueryProvider getQueryProvider() {
    throw new UnsupportedOperationException("a continuous query's expressions run no queries");
  }
}
