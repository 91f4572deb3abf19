package dev.freshet.engine.store;

import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.StateCodec;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The view results that releases before views read their state kept in the engine's H2 database:
 * per view a table {@code RESULT$<view>} of its rows, a table {@code CHANGELOG$<view>} of its
 * changes, and a row in {@code FRESHET_VIEW_RESULTS}. Views now read their state, so these are
 * read once, for the rows the state does not hold (those of an APPEND view, an UPDATE view's
 * evicted windows), and dropped: when a view of the name is opened, and when it is dropped.
 *
 * <pre>{@code
 * Optional<Legacy> old = LegacyResults.read(database, "PER_USER", queryId, types, false);
 * LegacyResults.drop(database, "PER_USER");   // nothing to do in a data directory made since
 * }</pre>
 */
public final class LegacyResults {
  private static final String RESULTS = "FRESHET_VIEW_RESULTS";

  private LegacyResults() {
  }

  /** Drops what an older release kept of view {@code view}'s result, if anything. */
  public static void drop(ResultDatabase db, String view) throws SQLException {
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      boolean found = false;
      try (var tables = c.getMetaData().getTables(null, null, RESULTS, null)) {
        found = tables.next();
      }
      if (!found) {
        return;
      }
      s.execute("DROP TABLE IF EXISTS " + quote("RESULT$" + view));
      s.execute("DROP TABLE IF EXISTS " + quote("CHANGELOG$" + view));
      try (PreparedStatement p = c.prepareStatement(
          "DELETE FROM " + RESULTS + " WHERE VIEW_NAME = ?")) {
        p.setString(1, view);
        p.executeUpdate();
      }
      db.persist(c);
    }
  }

  /**
   * What an older release kept of the result of view {@code view} as query {@code queryId}
   * wrote it: the last batch it applied and its rows (in the order they were appended), with
   * each row's group key as the state holds it if {@code keyed}; empty if there is none, another
   * query wrote it (an earlier view of the name), or it holds no batch.
   *
   * @param types the view's column types, as the table was created with
   */
  public static Optional<Legacy> read(ResultDatabase db, String view, String queryId,
      StoredColumnType[] types, boolean keyed) throws SQLException {
    try (Connection c = db.connect()) {
      try (var tables = c.getMetaData().getTables(null, null, RESULTS, null)) {
        if (!tables.next()) {
          return Optional.empty();
        }
      }
      long batchId;
      try (PreparedStatement p = c.prepareStatement(
          "SELECT QUERY_ID, BATCH_ID FROM " + RESULTS + " WHERE VIEW_NAME = ?")) {
        p.setString(1, view);
        try (ResultSet r = p.executeQuery()) {
          if (!r.next() || !r.getString(1).equals(queryId) || r.getLong(2) < 0) {
            return Optional.empty();
          }
          batchId = r.getLong(2);
        }
      }
      StringBuilder columns = new StringBuilder(keyed ? "KEY$" : "SEQ$");
      for (int i = 0; i < types.length; i++) {
        columns.append(", C").append(i);
      }
      List<Object[]> rows = new ArrayList<>();
      List<Object> keys = new ArrayList<>();
      try (Statement s = c.createStatement();
           ResultSet r = s.executeQuery("SELECT " + columns + " FROM "
               + quote("RESULT$" + view) + (keyed ? "" : " ORDER BY SEQ$"))) {
        while (r.next()) {
          Object[] row = new Object[types.length];
          for (int i = 0; i < row.length; i++) {
            row[i] = types[i].read(r, i + 2);
          }
          rows.add(row);
          if (keyed) {
            keys.add(decodeKey(r.getObject(1)));
          }
        }
      }
      return Optional.of(new Legacy(batchId, rows, keyed ? keys : null));
    }
  }

  /**
   * A group key as the state holds it, from {@code KEY$}: one integral value (a BIGINT), or the
   * {@link StateCodec} encodings of the key's values one after the other.
   */
  private static Object decodeKey(Object stored) throws SQLException {
    if (stored instanceof Long value) {
      return value;
    }
    List<Object> values = new ArrayList<>();
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream((byte[]) stored))) {
      while (in.available() > 0) {
        values.add(StateCodec.read(in));
      }
    } catch (IOException e) {
      throw new SQLException("Cannot decode a group key of an older release's view result: "
          + e.getMessage(), "XX001", e);
    }
    return values.size() == 1 ? values.get(0) : GroupKey.adopt(values.toArray());
  }

  /**
   * The rows of an older release's view result.
   *
   * @param batchId the last batch applied to them
   * @param keys each row's group key, or null if the rows were not keyed
   */
  public record Legacy(long batchId, List<Object[]> rows, @Nullable List<Object> keys) {
  }

  /** {@code name} as a quoted identifier. */
  private static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }
}
