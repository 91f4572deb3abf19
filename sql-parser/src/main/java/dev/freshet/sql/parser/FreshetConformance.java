package dev.freshet.sql.parser;

import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * Freshet's SQL conformance: Calcite's {@link SqlConformanceEnum#DEFAULT} plus {@code a % b} for
 * {@code MOD(a, b)}, which Spark SQL, Flink SQL and most databases accept and users of a
 * streaming engine write to bucket keys.
 *
 * <pre>{@code
 * SqlParser.config().withConformance(FreshetConformance.INSTANCE);
 * // "SELECT n % 10 AS bucket FROM nums" parses as MOD(n, 10)
 * }</pre>
 */
public final class FreshetConformance extends SqlDelegatingConformance {
  /** The conformance every Freshet statement is parsed with. */
  public static final SqlConformance INSTANCE = new FreshetConformance();

  private FreshetConformance() {
    super(SqlConformanceEnum.DEFAULT);
  }

  @Override public boolean isPercentRemainderAllowed() {
    return true;
  }
}
