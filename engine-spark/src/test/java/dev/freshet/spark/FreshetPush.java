package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a push query of Freshet's own executor (the embedded JDBC driver), a known number of
 * rows at a time, each batch's rows checked to come from batches after the last read.
 */
final class FreshetPush {
  /** Generous: a row arrives within milliseconds, but the test machine is loaded. */
  static final Duration DEADLINE = Duration.ofSeconds(30);

  private final ResultSet rs;
  private long lastBatch = -1;

  FreshetPush(ResultSet rs) {
    this.rs = rs;
  }

  /**
   * Reads exactly {@code n} rows, failing after {@link #DEADLINE}, as their data columns
   * (timestamps as UTC {@link LocalDateTime}s; the connection is in UTC). Their batch ids must
   * be above every id read before: a surplus row of an earlier step would show here.
   */
  List<List<Object>> read(int n) {
    long previous = lastBatch;
    return assertTimeoutPreemptively(DEADLINE, () -> {
      List<List<Object>> rows = new ArrayList<>();
      ResultSetMetaData meta = rs.getMetaData();
      int data = meta.getColumnCount() - 2;
      for (int i = 0; i < n; i++) {
        assertTrue(rs.next(), "the push result ended after " + i + " rows");
        long batch = rs.getLong(data + 1);
        assertTrue(batch > previous, "a row of batch " + batch + ", not after " + previous);
        lastBatch = Math.max(lastBatch, batch);
        rows.add(values(rs, data));
      }
      return rows;
    }, () -> "fewer than " + n + " rows arrived within " + DEADLINE);
  }

  static List<Object> values(ResultSet rs, int columns) throws SQLException {
    List<Object> row = new ArrayList<>();
    for (int c = 1; c <= columns; c++) {
      Object v = rs.getObject(c);
      row.add(v instanceof Timestamp t ? LocalDateTime.ofInstant(t.toInstant(), ZoneOffset.UTC)
          : v);
    }
    return row;
  }
}
