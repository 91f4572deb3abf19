package dev.freshet.executor.operators.join;

import static dev.freshet.executor.operators.join.JoinHarness.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests {@link StreamStreamJoinOperator} on random rows over many batches against a nested-loop
 * oracle that sees every row at once: per batch, the pairs whose later row arrives in it, the
 * outer rows padded with NULLs in the batch whose watermark evicts them (and only those that match
 * no row of the whole input), the state's row count and the late rows dropped; and whether the
 * operator asks for a no-data batch exactly when the next watermark evicts a row. Batches run with
 * either input first; some are aborted half-way and re-run, and the operator is sometimes rebuilt
 * on its state directory between batches.
 *
 * <p>Rows are {@code (k BIGINT, ts TIMESTAMP, v BIGINT)} on both sides, with a few NULL keys and
 * event times; the watermark trails the largest event time by 2 s.
 */
class StreamStreamJoinRandomizedTest {
  private static final long DELAY_MS = 2_000;
  private static final int DATA_BATCHES = 30;

  @TempDir Path dir;

  @Test void shouldMatchNestedLoopOracleWhenInnerJoin() throws Exception {
    runSeeds(JoinKind.INNER);
  }

  @Test void shouldMatchNestedLoopOracleWhenLeftOuterJoin() throws Exception {
    runSeeds(JoinKind.LEFT_OUTER);
  }

  @Test void shouldMatchNestedLoopOracleWhenRightOuterJoin() throws Exception {
    runSeeds(JoinKind.RIGHT_OUTER);
  }

  @Test void shouldMatchNestedLoopOracleWhenFullOuterJoin() throws Exception {
    runSeeds(JoinKind.FULL_OUTER);
  }

  private void runSeeds(JoinKind kind) throws Exception {
    for (int seed = 0; seed < 2; seed++) {
      Path runDir = Files.createDirectory(dir.resolve(kind + "-" + seed));
      new Run(kind, new Random(seed * 31L + kind.ordinal()), runDir).run();
    }
  }

  /** One input row as the oracle sees it. */
  private record In(boolean left, int batch, Object[] row) {
    Long key() {
      return (Long) row[0];
    }

    Long ts() {
      return (Long) row[1];
    }
  }

  private static final class Run {
    private final JoinKind kind;
    private final Random random;
    private final Path dir;
    private final TimeRange range;
    private final boolean withResidual;
    private final StreamStreamJoinSpec spec;
    private final String description;
    /** Eviction watermark per batch. */
    private final List<Long> watermarks = new ArrayList<>();
    /** Per batch, its input as pushed, late rows included. */
    private final List<List<Object[]>> leftInput = new ArrayList<>();
    private final List<List<Object[]>> rightInput = new ArrayList<>();
    /** Every row that was not late. */
    private final List<In> accepted = new ArrayList<>();
    private final List<Integer> droppedPerBatch = new ArrayList<>();

    Run(JoinKind kind, Random random, Path dir) {
      this.kind = kind;
      this.random = random;
      this.dir = dir;
      long lower = random.nextInt(4) == 0 ? TimeRange.NO_LOWER : -random.nextInt(4_000);
      long upper = random.nextInt(4) == 0 ? TimeRange.NO_UPPER : random.nextInt(3_000);
      this.range = new TimeRange(lower, random.nextBoolean(), upper, random.nextBoolean());
      this.withResidual = random.nextBoolean();
      JoinCondition residual = withResidual ? Run::residual : null;
      this.spec = new StreamStreamJoinSpec(7, kind, new int[] {0}, new int[] {0}, 3, 3, 1, 1,
          range, residual);
      this.description = kind + " " + range + (withResidual ? " with residual" : "");
    }

    private static boolean residual(Object[] joined) {
      return ((Long) joined[2] + (Long) joined[5]) % 3 != 0;
    }

    /** Generates the input and the watermarks, as the runtime would compute them. */
    private void generate() {
      long maxSeen = Long.MIN_VALUE;
      long watermark = 0;
      for (int b = 0; b < DATA_BATCHES + 3; b++) {
        if (b > 0 && maxSeen != Long.MIN_VALUE) {
          watermark = Math.max(watermark, maxSeen - DELAY_MS);
        }
        if (b >= DATA_BATCHES) {
          // Batches without data that move the watermark far: everything falls.
          watermark += 1_000_000;
          watermarks.add(watermark);
          leftInput.add(List.of());
          rightInput.add(List.of());
          continue;
        }
        watermarks.add(watermark);
        long base = 10_000 + b * 1_000L;
        List<Object[]> left = rows(base);
        List<Object[]> right = rows(base);
        leftInput.add(left);
        rightInput.add(right);
        for (Object[] row : left) {
          maxSeen = row[1] == null ? maxSeen : Math.max(maxSeen, (Long) row[1]);
        }
        for (Object[] row : right) {
          maxSeen = row[1] == null ? maxSeen : Math.max(maxSeen, (Long) row[1]);
        }
      }
      for (int b = 0; b < watermarks.size(); b++) {
        long late = b == 0 ? 0 : watermarks.get(b - 1);
        int dropped = 0;
        for (int side = 0; side < 2; side++) {
          for (Object[] row : (side == 0 ? leftInput : rightInput).get(b)) {
            if (row[1] != null && (Long) row[1] <= late) {
              dropped++;
            } else {
              accepted.add(new In(side == 0, b, row));
            }
          }
        }
        droppedPerBatch.add(dropped);
      }
    }

    private List<Object[]> rows(long base) {
      int n = random.nextInt(9);
      List<Object[]> rows = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        Long key = random.nextInt(20) == 0 ? null : (long) random.nextInt(4);
        Long ts = random.nextInt(25) == 0 ? null : base - 4_000 + random.nextInt(6_000);
        rows.add(new Object[] {key, ts, (long) random.nextInt(10)});
      }
      return rows;
    }

    void run() {
      generate();
      JoinHarness h = new JoinHarness(dir, spec);
      try {
        boolean stateKnown = true;
        for (int b = 0; b < watermarks.size(); b++) {
          BatchContext batch = batch(b, b == 0 ? 0 : watermarks.get(b - 1), watermarks.get(b));
          String at = description + ", batch " + b;
          if (b > 0 && stateKnown) {
            assertEquals(evictsInState(b), h.operator.needsNoDataBatch(watermarks.get(b)),
                at + ": needsNoDataBatch");
          }
          stateKnown = true;
          if (random.nextInt(8) == 0) {
            abortHalfWay(h, batch, b);
          }
          if (random.nextInt(8) == 0) {
            h.restart();
            stateKnown = false;
          }
          List<List<Object>> output = h.run(batch, leftInput.get(b), rightInput.get(b),
              random.nextBoolean());
          assertEquals(sorted(expectedOutput(b)), sorted(output), at + ": output");
          assertEquals(stateRows(b), h.operator.stateMetrics().numTotalStateRows(),
              at + ": state rows");
          assertEquals((long) droppedPerBatch.get(b),
              h.operator.stateMetrics().numRowsDroppedByWatermark(), at + ": dropped rows");
          assertEquals(output.size(), h.operator.stateMetrics().numOutputRows(), at);
        }
      } finally {
        h.close();
      }
    }

    /** Starts both inputs, pushes some rows, then one input fails and both abort. */
    private void abortHalfWay(JoinHarness h, BatchContext batch, int b) {
      Operator l = h.operator.left();
      Operator r = h.operator.right();
      l.startBatch(batch);
      leftInput.get(b).forEach(l::push);
      l.finishBatch(batch);
      r.startBatch(batch);
      List<Object[]> right = rightInput.get(b);
      right.subList(0, right.size() / 2).forEach(r::push);
      r.abortBatch(batch);
      l.abortBatch(batch);
    }

    private boolean matches(In l, In r) {
      if (l.key() == null || !l.key().equals(r.key())) {
        return false;
      }
      if (range.hasLower() || range.hasUpper()) {
        if (l.ts() == null || r.ts() == null) {
          return false;
        }
        long d = l.ts() - r.ts();
        if (range.hasLower() && (range.lowerInclusive() ? d < range.lowerMs()
            : d <= range.lowerMs())) {
          return false;
        }
        if (range.hasUpper() && (range.upperInclusive() ? d > range.upperMs()
            : d >= range.upperMs())) {
          return false;
        }
      }
      if (withResidual) {
        Object[] joined = new Object[6];
        System.arraycopy(l.row(), 0, joined, 0, 3);
        System.arraycopy(r.row(), 0, joined, 3, 3);
        return residual(joined);
      }
      return true;
    }

    /**
     * The batch in which the watermark evicts a kept row, or -1 if never: the first from its
     * arrival whose state watermark (the other side's rows are later than the eviction
     * watermark, so a row below it plus the range's bound can match none) passes it.
     */
    private int evictionBatch(In in) {
      for (int b = in.batch(); b < watermarks.size(); b++) {
        long w = watermarks.get(b);
        boolean bounded = in.left() ? range.hasLower() : range.hasUpper();
        if (!bounded) {
          return -1;
        }
        long stateWatermark = in.left()
            ? w + range.lowerMs() + (range.lowerInclusive() ? 0 : 1)
            : w - range.upperMs() + (range.upperInclusive() ? 0 : 1);
        if (in.ts() == null || in.ts() <= stateWatermark) {
          return b;
        }
      }
      return -1;
    }

    private boolean keepsUnmatched(In in) {
      return in.left() ? kind.keepsLeft() : kind.keepsRight();
    }

    private boolean matchedEver(In in) {
      for (In other : accepted) {
        if (other.left() != in.left()
            && (in.left() ? matches(in, other) : matches(other, in))) {
          return true;
        }
      }
      return false;
    }

    private List<List<Object>> expectedOutput(int b) {
      List<List<Object>> rows = new ArrayList<>();
      for (In l : accepted) {
        if (!l.left()) {
          continue;
        }
        for (In r : accepted) {
          if (!r.left() && Math.max(l.batch(), r.batch()) == b && matches(l, r)) {
            rows.add(joined(l.row(), r.row()));
          }
        }
      }
      for (In in : accepted) {
        if (!keepsUnmatched(in) || matchedEver(in)) {
          continue;
        }
        int emitted = in.key() == null ? in.batch() : evictionBatch(in);
        if (emitted == b) {
          rows.add(in.left() ? joined(in.row(), new Object[3]) : joined(new Object[3], in.row()));
        }
      }
      return rows;
    }

    /** Rows in state after batch {@code b}: kept (a key), arrived by then, not yet evicted. */
    private long stateRows(int b) {
      long n = 0;
      for (In in : accepted) {
        int evicted = evictionBatch(in);
        if (in.key() != null && in.batch() <= b && (evicted < 0 || evicted > b)) {
          n++;
        }
      }
      return n;
    }

    /** Whether batch {@code b}'s watermark evicts a row that earlier batches kept. */
    private boolean evictsInState(int b) {
      for (In in : accepted) {
        if (in.key() != null && in.batch() < b && evictionBatch(in) == b) {
          return true;
        }
      }
      return false;
    }

    private static List<Object> joined(Object[] left, Object[] right) {
      List<Object> row = new ArrayList<>(Arrays.asList(left));
      row.addAll(Arrays.asList(right));
      return row;
    }

    private static List<String> sorted(List<List<Object>> rows) {
      List<String> s = new ArrayList<>();
      for (List<Object> row : rows) {
        s.add(row.toString());
      }
      s.sort(null);
      return s;
    }
  }
}
