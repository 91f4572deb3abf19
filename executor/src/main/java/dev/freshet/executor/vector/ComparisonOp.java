package dev.freshet.executor.vector;

/** The comparisons of {@link VectorExpressions#compare}. */
public enum ComparisonOp {
  EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL;

  boolean test(long a, long b) {
    switch (this) {
    case EQUALS:
      return a == b;
    case NOT_EQUALS:
      return a != b;
    case LESS_THAN:
      return a < b;
    case LESS_THAN_OR_EQUAL:
      return a <= b;
    case GREATER_THAN:
      return a > b;
    default:
      return a >= b;
    }
  }

  boolean test(double a, double b) {
    switch (this) {
    case EQUALS:
      return a == b;
    case NOT_EQUALS:
      return a != b;
    case LESS_THAN:
      return a < b;
    case LESS_THAN_OR_EQUAL:
      return a <= b;
    case GREATER_THAN:
      return a > b;
    default:
      return a >= b;
    }
  }
}
