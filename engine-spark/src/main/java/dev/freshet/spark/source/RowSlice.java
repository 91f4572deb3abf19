package dev.freshet.spark.source;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * Input partition of a batch: {@code count} rows of the stream's offsets {@code (start, end]},
 * after the first {@code skip} of them; one Spark task reads it.
 *
 * <pre>{@code
 * new RowSlice("CLICKS#1", 2, 5, 100, 4096);   // rows 100..4195 of offsets 3, 4 and 5
 * }</pre>
 *
 * @param id the stream's registration id
 * @param start the offset before the first row's offset
 * @param end the last row's offset
 * @param skip how many rows of offset {@code start + 1} come before the slice
 * @param count how many rows the slice holds
 */
record RowSlice(String id, long start, long end, long skip, long count)
    implements InputPartition {
  RowSlice {
    if (start < 0 || end <= start || skip < 0 || count < 1) {
      throw new IllegalArgumentException("bad slice " + start + ".." + end + " skip " + skip
          + " count " + count);
    }
  }
}
