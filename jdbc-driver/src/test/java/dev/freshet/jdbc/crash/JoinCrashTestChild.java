package dev.freshet.jdbc.crash;

import static dev.freshet.testkit.crash.ChildLines.await;
import static dev.freshet.testkit.crash.ChildLines.number;
import static dev.freshet.testkit.crash.ChildLines.printRows;
import static dev.freshet.testkit.crash.ChildLines.receive;
import static dev.freshet.testkit.crash.ChildLines.say;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;

/**
 * The child JVM of {@link JoinExactlyOnceCrashTest}: an embedded engine on a data directory with
 * a named view joining two memory streams with watermarks in a time range.
 *
 * <p>{@code run}: step after step, INSERTs order {@code i} at step {@code i}'s time and then a
 * payment at that time for order {@code i - 2} (in range) and, every fifth step, one for
 * order {@code i - 15} (out of range: it joins nothing), printing {@code ACK i} after each step
 * and {@code VIEWED n}, the joined rows the view holds, until the parent kills the process.
 * Event times only grow, so no row is late and the join equals a batch join over all rows.
 * {@code verify}: prints the streams' rows ({@code ORDER}, {@code PAYMENT}) and {@code STREAMS},
 * reads from the parent the number of rows they join to, waits until the view holds as many,
 * prints the view's rows ({@code ROW}), and exits: one JVM where a count and a verify took two.
 */
public final class JoinCrashTestChild {
  private JoinCrashTestChild() {
  }

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    String mode = args[1];
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir
        + ";timeZone=UTC");
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM IF NOT EXISTS orders (id BIGINT, ots TIMESTAMP(3),"
          + " WATERMARK FOR ots AS ots - INTERVAL '5' SECOND) WITH (connector = 'memory')");
      s.execute("CREATE STREAM IF NOT EXISTS payments (order_id BIGINT, pts TIMESTAMP(3),"
          + " amount BIGINT, WATERMARK FOR pts AS pts - INTERVAL '5' SECOND)"
          + " WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS paid AS SELECT o.id, p.amount"
          + " FROM orders o JOIN payments p ON o.id = p.order_id"
          + " AND p.pts BETWEEN o.ots AND o.ots + INTERVAL '10' SECOND");
      long next = number(s, "SELECT COALESCE(MAX(id) + 1, 0) FROM orders");
      say("START " + next);
      if (mode.equals("run")) {
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
      printRows(s, "ORDER", "SELECT id FROM orders");
      printRows(s, "PAYMENT", "SELECT order_id, amount FROM payments");
      say("STREAMS");
      // The number of rows the streams join to, as the parent's H2 found from the lines above.
      long rows = Long.parseLong(receive());
      try {
        await("the view to hold " + rows + " rows", Duration.ofMinutes(1),
            () -> number(s, "SELECT COUNT(*) FROM paid") >= rows);
      } catch (IllegalStateException stillShort) {
        // The parent shows the difference.
      }
      printRows(s, "ROW", "SELECT id, amount FROM paid");
      say("LASTBATCH " + number(s, "SELECT LAST_BATCH_ID FROM sys.queries"
          + " WHERE NAME = 'PAID'"));
      say("DONE");
    }
    System.exit(0);
  }

  /**
   * The TIMESTAMP literal of step {@code step}: {@code 100 + step} seconds after the epoch, after
   * the first watermark (0), at or before which a row is late.
   */
  private static String at(long step) {
    return "TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '" + (100 + step) + "' SECOND";
  }
}
