package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Reads rows of a never-ending result set, failing if they do not arrive before a deadline. */
final class PushResults {
  /** Generous: a row normally arrives within milliseconds, but CI machines are loaded. */
  static final Duration DEADLINE = Duration.ofSeconds(30);

  private PushResults() {
  }

  /** Reads exactly {@code n} rows, each as a list of its column values. */
  static List<List<Object>> read(ResultSet rs, int n) {
    return assertTimeoutPreemptively(DEADLINE, () -> {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        assertTrue(rs.next(), "the push result ended after " + i + " rows");
        rows.add(row(rs));
      }
      return rows;
    }, () -> "fewer than " + n + " rows arrived within " + DEADLINE);
  }

  static List<Object> row(ResultSet rs) throws SQLException {
    List<Object> row = new ArrayList<>();
    for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
      row.add(rs.getObject(c));
    }
    return row;
  }
}
