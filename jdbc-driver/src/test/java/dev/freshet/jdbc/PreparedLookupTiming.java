package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Not a test but a measurement, run on demand: the mean time of one execution of a prepared key
 * lookup ({@code SELECT c FROM v WHERE k = ?}) on a view of 100,000 groups, embedded.
 *
 * <pre>{@code
 * mvn -B -o test -pl jdbc-driver -Dtest=PreparedLookupTiming -Dfreshet.timing=true \
 *     [-Dfreshet.timing.executions=10000]
 * }</pre>
 */
@EnabledIfSystemProperty(named = "freshet.timing", matches = "true")
class PreparedLookupTiming {
  private static final int GROUPS = 100_000;

  @Test void measurePreparedKeyLookup() throws Exception {
    int executions = Integer.getInteger("freshet.timing.executions", 10_000);
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM nums (n BIGINT) WITH (connector = 'sequence', 'end' = '"
          + GROUPS + "')");
      s.execute("CREATE MATERIALIZED VIEW v AS SELECT n AS k, COUNT(*) AS c FROM nums"
          + " GROUP BY n");
      long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      while (count(s) != GROUPS) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("the view did not reach " + GROUPS + " groups");
        }
      }
      try (PreparedStatement p = c.prepareStatement("SELECT c FROM v WHERE k = ?")) {
        // Warm-up: class loading and the first plan are not what a lookup costs.
        for (int i = 0; i < Math.min(executions, 200); i++) {
          lookup(p, (i * 7919L) % GROUPS);
        }
        long start = System.nanoTime();
        for (int i = 0; i < executions; i++) {
          lookup(p, (i * 104_729L) % GROUPS);
        }
        double meanMicros = (System.nanoTime() - start) / 1000.0 / executions;
        System.out.printf("PreparedLookupTiming: %d executions over %d groups, mean %.1f us%n",
            executions, GROUPS, meanMicros);
      }
    }
  }

  private static void lookup(PreparedStatement p, long key) throws Exception {
    p.setLong(1, key);
    try (ResultSet rs = p.executeQuery()) {
      assertEquals(true, rs.next());
      assertEquals(1L, rs.getLong(1));
      assertEquals(false, rs.next());
    }
  }

  private static long count(Statement s) throws Exception {
    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM v")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
