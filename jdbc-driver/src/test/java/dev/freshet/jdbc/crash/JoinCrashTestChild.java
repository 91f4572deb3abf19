package dev.freshet.jdbc.crash;

import static dev.freshet.testkit.crash.ChildLines.number;
import static dev.freshet.testkit.crash.ChildLines.say;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

/**
 * The child JVM of {@link JoinExactlyOnceCrashTest}: an embedded engine on a data directory with
 * a named view joining two memory streams with watermarks in a time range.
 *
 * <p>Step after step, it INSERTs order {@code i} at step {@code i}'s time and then a
 * payment at that time for order {@code i - 2} (in range) and, every fifth step, one for
 * order {@code i - 15} (out of range: it joins nothing), printing {@code ACK i} after each step
 * and {@code VIEWED n}, the joined rows the view holds, until the parent kills the process.
 * Event times only grow, so no row is late and the join equals a batch join over all rows. The
 * parent checks the data directory after the last kill in an engine of its own
 * ({@link RestartedEngine}).
 */
public final class JoinCrashTestChild {
  private JoinCrashTestChild() {
  }

  /** The child's declarations, which the test's restarted engine repeats. */
  static List<String> declarations() {
    return List.of("CREATE STREAM IF NOT EXISTS orders (id BIGINT, ots TIMESTAMP(3),"
            + " WATERMARK FOR ots AS ots - INTERVAL '5' SECOND) WITH (connector = 'memory')",
        "CREATE STREAM IF NOT EXISTS payments (order_id BIGINT, pts TIMESTAMP(3),"
            + " amount BIGINT, WATERMARK FOR pts AS pts - INTERVAL '5' SECOND)"
            + " WITH (connector = 'memory')",
        "CREATE MATERIALIZED VIEW IF NOT EXISTS paid AS SELECT o.id, p.amount"
            + " FROM orders o JOIN payments p ON o.id = p.order_id"
            + " AND p.pts BETWEEN o.ots AND o.ots + INTERVAL '10' SECOND");
  }

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir
        + ";timeZone=UTC");
         Statement s = c.createStatement()) {
      for (String sql : declarations()) {
        s.execute(sql);
      }
      long next = number(s, "SELECT COALESCE(MAX(id) + 1, 0) FROM orders");
      say("START " + next);
      for (long i = next; ; i++) {
        s.executeUpdate("INSERT INTO orders VALUES (" + i + ", " + at(i) + ")");
        String payments = "(" + (i - 2) + ", " + at(i) + ", " + i + ")";
        if (i % 5 == 0) {
          payments += ", (" + (i - 15) + ", " + at(i) + ", " + -i + ")";
        }
        s.executeUpdate("INSERT INTO payments VALUES " + payments);
        say("ACK " + i);
        say("VIEWED " + number(s, "SELECT COUNT(*) FROM paid"));
      }
    }
  }

  /**
   * The TIMESTAMP literal of step {@code step}: {@code 100 + step} seconds after the epoch, after
   * the first watermark (0), at or before which a row is late.
   */
  private static String at(long step) {
    return "TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '" + (100 + step) + "' SECOND";
  }
}
