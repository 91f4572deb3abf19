package dev.freshet.engine.view;

import dev.freshet.engine.store.StoredColumnType;
import dev.freshet.executor.state.ByteSlice;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Decodes rows that {@link AppendedRows} encoded, one reader per thread: a {@link ByteSlice} over
 * the row's bytes, reused from row to row so that a scan allocates only the rows it returns.
 *
 * <pre>{@code
 * RowReader reader = new RowReader(types);
 * Object[] row = reader.decode(bytes);   // each column as StoredColumnType.readFrom reads it
 * }</pre>
 */
final class RowReader {
  private final StoredColumnType[] types;
  private final ByteSlice in = new ByteSlice(new byte[0], 0, 0);

  RowReader(StoredColumnType[] types) {
    this.types = types;
  }

  /** The row encoded in {@code row}: a fresh array. */
  Object[] decode(byte[] row) {
    in.reset(row, 0, row.length);
    Object[] values = new Object[types.length];
    try {
      for (int c = 0; c < values.length; c++) {
        values[c] = types[c].readFrom(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("An appended row does not decode: the file is damaged", e);
    }
    if (in.remaining() != 0) {
      throw new IllegalStateException(in.remaining() + " bytes left over after an"
          + " appended row: the file is damaged");
    }
    return values;
  }
}
