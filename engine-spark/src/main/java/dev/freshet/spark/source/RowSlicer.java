package dev.freshet.spark.source;

import dev.freshet.executor.source.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Splits a batch's offsets {@code (start, end]} into input partitions of about equal row
 * counts, so that more than one task reads a large batch.
 *
 * <pre>{@code
 * new RowSlicer(2, 4096).slices("CLICKS#1", stream, 0, 3);
 * // 10 000 rows in one INSERT: [RowSlice(0, 1, skip 0, 5000), RowSlice(0, 1, skip 5000, 5000)]
 * }</pre>
 *
 * <p>One offset is one INSERT statement and may hold any number of rows, so a slice can start
 * or end inside an offset. There are at most {@code maxPartitions} slices, and no more than one
 * per {@code minRowsPerPartition} rows: a small batch is one task.
 */
final class RowSlicer {
  private final int maxPartitions;
  private final int minRowsPerPartition;

  RowSlicer(int maxPartitions, int minRowsPerPartition) {
    if (maxPartitions < 1 || minRowsPerPartition < 1) {
      throw new IllegalArgumentException("maxPartitions " + maxPartitions
          + ", minRowsPerPartition " + minRowsPerPartition);
    }
    this.maxPartitions = maxPartitions;
    this.minRowsPerPartition = minRowsPerPartition;
  }

  /** The slices of {@code source}'s offsets {@code (start, end]}; none if they hold no row. */
  List<RowSlice> slices(String id, Source source, long start, long end) {
    // Rows before each offset, so that a row's position in the batch finds its offset: one pass
    // over the batch, which also gives its total.
    long[] before = new long[(int) (end - start) + 1];
    long[] rows = new long[1];
    Consumer<Object[]> count = row -> rows[0]++;
    for (long offset = start + 1; offset <= end; offset++) {
      rows[0] = 0;
      source.readRange(offset - 1, offset, count);
      int i = (int) (offset - start);
      before[i] = before[i - 1] + rows[0];
    }
    long total = before[before.length - 1];
    if (total == 0) {
      return List.of();
    }
    long parts = Math.min(maxPartitions,
        (total + minRowsPerPartition - 1) / minRowsPerPartition);
    if (parts <= 1) {
      return List.of(new RowSlice(id, start, end, 0, total));
    }
    List<RowSlice> slices = new ArrayList<>();
    int first = 0;
    for (long part = 0; part < parts; part++) {
      long from = total * part / parts;
      long to = total * (part + 1) / parts;
      // The offsets (first, last]: the first holds row `from`, the last row `to - 1`.
      while (before[first + 1] <= from) {
        first++;
      }
      int last = first + 1;
      while (before[last] < to) {
        last++;
      }
      slices.add(new RowSlice(id, start + first, start + last, from - before[first], to - from));
    }
    return slices;
  }
}
