package dev.freshet.executor.vector;

/** The arithmetic of {@link VectorExpressions#arithmetic}: Java's, as the row path computes it. */
public enum ArithmeticOp {
  ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD
}
