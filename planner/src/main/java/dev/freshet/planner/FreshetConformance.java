package dev.freshet.planner;

import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * Calcite's default SQL conformance, with checked arithmetic: an integer {@code +}, {@code -},
 * {@code *} or {@code /} whose result does not fit its type fails (SQLSTATE 22003) instead of
 * wrapping around, as the SQL standard, PostgreSQL and Spark's ANSI mode have it. A wrapped sum
 * in a view would be a silently wrong result.
 *
 * <pre>{@code
 * SqlValidator.Config.DEFAULT.withConformance(FreshetConformance.INSTANCE);
 * }</pre>
 */
public final class FreshetConformance extends SqlDelegatingConformance {
  /** The one instance; conformances are immutable. */
  public static final FreshetConformance INSTANCE = new FreshetConformance();

  private FreshetConformance() {
    super(SqlConformanceEnum.DEFAULT);
  }

  @Override public boolean checkedArithmetic() {
    return true;
  }
}
