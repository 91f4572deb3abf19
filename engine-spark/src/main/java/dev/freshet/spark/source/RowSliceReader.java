package dev.freshet.spark.source;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;

/**
 * Reads one {@link RowSlice}, in the stream's order, from the stream's rows in this JVM or from
 * its log.
 *
 * <pre>{@code
 * try (RowSliceReader reader = new RowSliceReader(slice, schema, stream::readRange)) {
 *   while (reader.next()) { consume(reader.get()); }
 * }
 * }</pre>
 *
 * <p>The slice's rows are fetched on the first {@link #next}: the stream hands out its rows as
 * arrays it never changes, so the reader keeps references and converts one row per
 * {@link #get}.
 */
final class RowSliceReader implements PartitionReader<InternalRow> {
  /** Where the rows of offsets {@code (start, end]} come from. */
  interface Rows {
    void readRange(long start, long end, Consumer<Object[]> rows);
  }

  private final RowSlice slice;
  private final Rows source;
  private final InternalRowConverter converter;
  private List<Object[]> rows;
  private int next;

  RowSliceReader(RowSlice slice, StructType schema, Rows source) {
    this.slice = slice;
    this.source = source;
    this.converter = new InternalRowConverter(schema);
  }

  @Override public boolean next() {
    if (rows == null) {
      rows = read();
    }
    if (next < rows.size()) {
      next++;
      return true;
    }
    return false;
  }

  @Override public InternalRow get() {
    return converter.convert(rows.get(next - 1));
  }

  /** The slice's rows: those of its offsets after the first {@code skip}, {@code count} of them. */
  private List<Object[]> read() {
    List<Object[]> kept = new ArrayList<>((int) slice.count());
    long[] seen = new long[1];
    long from = slice.skip();
    long to = from + slice.count();
    source.readRange(slice.start(), slice.end(), row -> {
      long at = seen[0]++;
      if (at >= from && at < to) {
        kept.add(row);
      }
    });
    return kept;
  }

  @Override public void close() {
    rows = List.of();
  }
}
