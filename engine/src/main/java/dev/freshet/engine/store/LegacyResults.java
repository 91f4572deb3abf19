package dev.freshet.engine.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The view results that releases before views read their state kept in the engine's H2 database:
 * per view a table {@code RESULT$<view>} of its rows, a table {@code CHANGELOG$<view>} of its
 * changes, and a row in {@code FRESHET_VIEW_RESULTS}. Views now read their state, so these are
 * only ever dropped: when a view of the name is created or opened again, and when it is dropped.
 *
 * <pre>{@code
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

  /** {@code name} as a quoted identifier. */
  private static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }
}
