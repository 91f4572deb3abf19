package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link TimeWindowOperator} against the windows computed row by row from their definition. */
class TimeWindowOperatorTest {
  @Test void shouldPutRowsInTheirWindowsWhenTimeMovesEitherWay() {
    long[][] sizesAndSlides = {{10_000, 10_000}, {10_000, 5_000}, {10, 4}, {10, 3}, {7, 7}};
    Random random = new Random(7);
    for (long[] ss : sizesAndSlides) {
      long size = ss[0];
      long slide = ss[1];
      List<Long> times = new ArrayList<>();
      long t = -50;
      for (int i = 0; i < 2_000; i++) {
        // Mostly forward in small steps, as event time goes, sometimes back or repeated.
        t += random.nextInt(10) == 0 ? -random.nextInt(30) : random.nextInt(4);
        times.add(t);
      }
      Collect collect = new Collect();
      TimeWindowOperator op = new TimeWindowOperator(0, size, slide, 1, collect);
      op.startBatch(new BatchContext(0, 0));
      for (long time : times) {
        op.push(new Object[] {time});
      }
      op.push(new Object[] {null});
      List<List<Object>> expected = new ArrayList<>();
      for (long time : times) {
        for (long start = Math.floorDiv(time, slide) * slide; start + size > time;
            start -= slide) {
          expected.add(List.of(time, start, start + size));
        }
      }
      assertEquals(expected, collect.rows, "size " + size + ", slide " + slide);
    }
  }

  /** Keeps copies of the rows it is pushed. */
  private static final class Collect implements Operator {
    final List<List<Object>> rows = new ArrayList<>();

    @Override public void startBatch(BatchContext batch) {}

    @Override public void push(Object[] row) {
      rows.add(List.of(row));
    }

    @Override public void finishBatch(BatchContext batch) {}
  }
}
