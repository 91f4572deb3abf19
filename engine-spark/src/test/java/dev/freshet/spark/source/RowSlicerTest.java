package dev.freshet.spark.source;

import static dev.freshet.spark.source.FreshetSourceTest.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamColumn;
import dev.freshet.testkit.SparkTest;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How a batch's offsets become input partitions, and what each partition's reader reads: three
 * INSERTs of 3, 10 and 5 rows whose V values count 0..17.
 */
@SparkTest
class RowSlicerTest {
  private final MemoryStream stream = new MemoryStream("SLICED", 2);
  private StreamRegistration registration;

  @BeforeEach void insert() throws Exception {
    int v = 0;
    for (int rows : new int[] {3, 10, 5}) {
      List<Object[]> insert = new ArrayList<>();
      for (int i = 0; i < rows; i++, v++) {
        insert.add(row("k", v));
      }
      stream.addData(insert);
    }
    registration = FreshetSource.register("SLICED", stream, List.of(
        new StreamColumn("K", "VARCHAR"), new StreamColumn("V", "INTEGER")));
  }

  @AfterEach void unregister() {
    registration.close();
  }

  @Test void shouldReadASmallBatchInOneSlice() {
    List<RowSlice> slices = new RowSlicer(4, 100).slices(id(), stream, 0, 3);
    assertEquals(List.of(new RowSlice(id(), 0, 3, 0, 18)), slices);
    assertEquals(range(0, 18), read(slices.get(0)));
  }

  @Test void shouldSplitRowsEvenlyAndInsideAnInsert() {
    List<RowSlice> slices = new RowSlicer(3, 4).slices(id(), stream, 0, 3);
    assertEquals(List.of(new RowSlice(id(), 0, 2, 0, 6), new RowSlice(id(), 1, 2, 3, 6),
        new RowSlice(id(), 1, 3, 9, 6)), slices);
    assertEquals(range(0, 6), read(slices.get(0)));
    assertEquals(range(6, 12), read(slices.get(1)));
    assertEquals(range(12, 18), read(slices.get(2)));
  }

  @Test void shouldSliceOnlyTheBatchsOffsets() {
    List<RowSlice> slices = new RowSlicer(2, 1).slices(id(), stream, 1, 3);
    assertEquals(List.of(new RowSlice(id(), 1, 2, 0, 7), new RowSlice(id(), 1, 3, 7, 8)),
        slices);
    assertEquals(range(3, 10), read(slices.get(0)));
    assertEquals(range(10, 18), read(slices.get(1)));
  }

  @Test void shouldMakeNoSliceOfAnEmptyRange() {
    assertEquals(List.of(), new RowSlicer(2, 1).slices(id(), stream, 3, 3));
  }

  private String id() {
    return registration.id();
  }

  /** The V values that the factory's reader of {@code slice} reads, in order. */
  private List<Integer> read(RowSlice slice) {
    List<Integer> values = new ArrayList<>();
    try (PartitionReader<InternalRow> reader =
        new RowSliceReaderFactory(registration.schema()).createReader(slice)) {
      while (reader.next()) {
        values.add(reader.get().getInt(1));
      }
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    return values;
  }

  private static List<Integer> range(int from, int to) {
    List<Integer> values = new ArrayList<>();
    for (int v = from; v < to; v++) {
      values.add(v);
    }
    return values;
  }
}
