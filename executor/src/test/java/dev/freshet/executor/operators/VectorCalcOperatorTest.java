package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.vector.ArithmeticOp;
import dev.freshet.executor.vector.ComparisonOp;
import dev.freshet.executor.vector.VectorBatch;
import dev.freshet.executor.vector.VectorExpression;
import dev.freshet.executor.vector.VectorExpressions;
import dev.freshet.executor.vector.VectorType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link VectorCalcOperator} fails a batch at the row where the row path would stop, whether its
 * condition or its projection failed, and drops exactly the failing rows when told to.
 */
class VectorCalcOperatorTest {
  /** {@code WHERE n * 3 > 0} (checked), projecting {@code CAST(n AS INTEGER)}. */
  private static VectorCalcOperator calc(RowErrors errors, List<Long> seen) {
    VectorExpression n = VectorExpressions.column(0, VectorType.LONG);
    VectorExpression condition = VectorExpressions.compare(ComparisonOp.GREATER_THAN,
        VectorExpressions.arithmetic(ArithmeticOp.MULTIPLY, n,
            VectorExpressions.literal(3, VectorType.LONG), VectorType.LONG, true),
        VectorExpressions.literal(0, VectorType.LONG));
    return new VectorCalcOperator(condition, new VectorExpression[] {VectorExpressions.toInt(n)},
        new VectorType[] {VectorType.INT}, errors, batch -> {
          for (int j = 0; j < batch.selectedCount(); j++) {
            seen.add(batch.column(0).longs[batch.selectedRow(j)]);
          }
        });
  }

  private static VectorBatch batch() {
    VectorBatch batch = VectorBatch.of(new VectorType[] {VectorType.LONG}, 8);
    // Row 1's projection fails (out of INTEGER's range); row 3's condition overflows.
    for (long n : new long[] {1, 3_000_000_000L, -5, Long.MAX_VALUE / 2, 7}) {
      batch.appendRow(new Object[] {n});
    }
    return batch;
  }

  @Test void shouldFailAtTheFirstFailingRowWhateverFailedInIt() {
    ArithmeticException e = assertThrows(ArithmeticException.class,
        () -> calc(RowErrors.failing(), new ArrayList<>()).push(batch()));
    assertEquals("Value 3000000000 out of range", e.getMessage());
  }

  @Test void shouldDropAndCountExactlyTheFailingRows() {
    RowErrors errors = RowErrors.skipping();
    List<Long> seen = new ArrayList<>();
    calc(errors, seen).push(batch());
    assertEquals(List.of(1L, 7L), seen);
    assertEquals(2, errors.droppedRows());
  }
}
