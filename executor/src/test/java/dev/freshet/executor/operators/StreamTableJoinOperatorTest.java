package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.source.ReferenceData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The stream-table join on its own: keys, NULLs, outer rows, column order and snapshots. */
class StreamTableJoinOperatorTest {
  /** A table whose rows and version the test sets, counting its scans. */
  private static final class Rows implements ReferenceData {
    List<Object[]> rows = new ArrayList<>();
    long version;
    int scans;

    @Override public String description() {
      return "test rows";
    }

    @Override public void scan(Consumer<Object[]> consumer) {
      scans++;
      rows.forEach(r -> consumer.accept(r.clone()));
    }

    @Override public long version() {
      return version;
    }
  }

  private static List<List<Object>> run(StreamTableJoinOperator join, CollectOperator out,
      long batch, Object[]... rows) {
    join.startBatch(new BatchContext(batch, 0));
    for (Object[] row : rows) {
      join.push(row);
    }
    join.finishBatch(new BatchContext(batch, 0));
    List<List<Object>> result = new ArrayList<>();
    out.takeRows().forEach(r -> result.add(Arrays.asList(r)));
    return result;
  }

  @Test void twoKeyColumnsMatchEqualValuesAndNullsMatchNothing() {
    Rows table = new Rows();
    table.rows.add(new Object[] {"eu", 1L, "a"});
    table.rows.add(new Object[] {"eu", 1L, "b"});
    table.rows.add(new Object[] {"us", 1L, "c"});
    table.rows.add(new Object[] {null, 2L, "null key"});
    CollectOperator out = new CollectOperator();
    // Stream (id, region, sku) LEFT JOIN table (region, sku, name) ON both.
    StreamTableJoinOperator join = new StreamTableJoinOperator(new StreamTableJoinOperator.Spec(
        table, null, 3, new int[] {1, 2}, new int[] {0, 1}, null, true, false, 3), out);
    assertEquals(List.of(
            Arrays.asList(10, "eu", 1L, "eu", 1L, "a"), Arrays.asList(10, "eu", 1L, "eu", 1L, "b"),
            Arrays.asList(11, "us", 1L, "us", 1L, "c"),
            Arrays.asList(12, null, 2L, null, null, null),
            Arrays.asList(13, "us", 2L, null, null, null)),
        run(join, out, 0, new Object[] {10, "eu", 1L}, new Object[] {11, "us", 1L},
            new Object[] {12, null, 2L}, new Object[] {13, "us", 2L}));
  }

  @Test void anInnerJoinWithTheTableFirstAndAResidualCondition() {
    Rows table = new Rows();
    table.rows.add(new Object[] {1L, 5});
    table.rows.add(new Object[] {1L, 50});
    CollectOperator out = new CollectOperator();
    // Joined row (table key, limit, stream id, key, amount): amount < limit.
    RowCalc residual = (in, o) -> (Integer) in[4] < (Integer) in[1];
    StreamTableJoinOperator join = new StreamTableJoinOperator(new StreamTableJoinOperator.Spec(
        table, null, 2, new int[] {1}, new int[] {0}, residual, false, true, 3), out);
    assertEquals(List.of(Arrays.asList(1L, 50, 7, 1L, 10)),
        run(join, out, 0, new Object[] {7, 1L, 10}, new Object[] {8, 2L, 1}));
  }

  @Test void aBatchReadsTheTableAgainOnlyWhenItsVersionChanged() {
    Rows table = new Rows();
    table.rows.add(new Object[] {1L, "a"});
    CollectOperator out = new CollectOperator();
    StreamTableJoinOperator join = new StreamTableJoinOperator(new StreamTableJoinOperator.Spec(
        table, null, 2, new int[] {0}, new int[] {0}, null, false, false, 1), out);
    assertEquals(List.of(Arrays.asList(1L, 1L, "a")), run(join, out, 0, new Object[] {1L}));
    table.rows.set(0, new Object[] {1L, "b"});
    // Same version: the rows read at the batch before stand.
    assertEquals(List.of(Arrays.asList(1L, 1L, "a")), run(join, out, 1, new Object[] {1L}));
    table.version++;
    assertEquals(List.of(Arrays.asList(1L, 1L, "b")), run(join, out, 2, new Object[] {1L}));
    assertEquals(2, table.scans);
    table.version = ReferenceData.UNKNOWN_VERSION;
    run(join, out, 3, new Object[] {1L});
    run(join, out, 4, new Object[] {1L});
    assertEquals(4, table.scans, "a table that cannot tell its version is read every batch");
  }
}
