package dev.freshet.engine.view;

import dev.freshet.engine.store.StoredColumnType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Child process of {@link AppendedRowsTest}: appends batches of {@value #ROWS} keyed rows
 * {@code (k, "r" + k)} to the file named by its argument, batch 0, 1, ..., without end, and prints
 * each batch's id once {@code addBatch} returned, until it is killed.
 */
public final class AppendedRowsCrashMain {
  static final int ROWS = 20_000;

  private AppendedRowsCrashMain() {
  }

  public static void main(String[] args) {
    AppendedRows rows = AppendedRows.open(Path.of(args[0]),
        new StoredColumnType[] {StoredColumnType.BIGINT, StoredColumnType.VARCHAR}, true);
    for (long b = 0; ; b++) {
      List<Object[]> batch = new ArrayList<>(ROWS);
      List<Object> keys = new ArrayList<>(ROWS);
      for (long k = b * ROWS; k < (b + 1) * ROWS; k++) {
        batch.add(AppendedRowsTest.numbered(k));
        keys.add(k);
      }
      rows.addBatch(b, batch, keys);
      System.out.println(b);
      System.out.flush();
    }
  }
}
