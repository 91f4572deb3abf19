package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.sql.parser.EmitMode;
import dev.freshet.testkit.SparkTest;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the translation refuses: SQLSTATE 0A000 and a message that names the construct and what
 * to do instead, while planning, with no Spark job or streaming query started.
 */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class SparkRefusalTest {
  private static final AtomicInteger JOBS_STARTED = new AtomicInteger();
  private static final SparkListener JOBS = new SparkListener() {
    @Override public void onJobStart(SparkListenerJobStart jobStart) {
      JOBS_STARTED.incrementAndGet();
    }
  };
  private static SparkBench bench;

  @BeforeAll static void startSpark() throws Exception {
    bench = new SparkBench();
    bench.spark.sparkContext().addSparkListener(JOBS);
  }

  @AfterAll static void stopSpark() {
    // The JVM's SparkContext outlives the class: its listener goes with it.
    bench.spark.sparkContext().removeSparkListener(JOBS);
    bench.close();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "SELECT STREAM user_id, COUNT(DISTINCT url) AS pages FROM clicks GROUP BY user_id"
          + "| UPDATE | COUNT(DISTINCT ...) is not supported on a stream by Spark. Spark refuses"
          + " distinct aggregates on streams: run the query on Freshet's own executor",
      "SELECT STREAM k, COUNT(*) AS n FROM events GROUP BY k, SESSION(ts, INTERVAL '5' SECOND)"
          + "| APPEND | A SESSION window is not yet on Spark: run it on Freshet's own executor",
      "SELECT STREAM user_id, amount FROM (SELECT user_id, amount, ROW_NUMBER() OVER"
          + " (PARTITION BY user_id ORDER BY amount DESC) AS r FROM clicks) WHERE r <= 2"
          + "| UPDATE | A top-N (ROW_NUMBER() ... <= n) is not yet on Spark: run it on Freshet's"
          + " own executor",
      "SELECT STREAM c.user_id, e.v FROM clicks c JOIN events e ON c.amount < e.v"
          + "| APPEND | A join of two streams without an equality of a column of each (ON l.k ="
          + " r.k) is not supported on a stream by Spark. Add an equality of columns",
      "SELECT STREAM e.k, w.n FROM events e JOIN (SELECT k, TUMBLE_END(ts, INTERVAL '10' SECOND)"
          + " AS we, COUNT(*) AS n FROM events GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), k) w"
          + " ON e.k = w.k AND e.ts BETWEEN w.we AND w.we + INTERVAL '10' SECOND"
          + "| APPEND | A join of a windowed aggregation is not yet on Spark: run it on Freshet's"
          + " own executor",
      "SELECT STREAM k FROM events UNION ALL SELECT STREAM user_id FROM clicks"
          + "| APPEND | UNION, INTERSECT or EXCEPT is not yet on Spark: run it on Freshet's own"
          + " executor",
      "SELECT STREAM TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, COUNT(*) AS n"
          + " FROM idle_events GROUP BY TUMBLE(ts, INTERVAL '10' SECOND)"
          + "| APPEND | A stream's 'watermark.idle-timeout' is not yet on Spark: run it on"
          + " Freshet's own executor",
      "SELECT STREAM user_id, POWER(amount, 2) AS p FROM clicks"
          + "| APPEND | 'POWER' in a continuous query is not yet on Spark: write the expression"
          + " with comparisons",
  })
  void shouldRefuseWithFeatureNotSupportedBeforeSparkRunsAnything(String sql, EmitMode mode,
      String message) throws Exception {
    int jobs = JOBS_STARTED.get();
    SQLException e = assertThrows(SQLException.class, () -> bench.translate(sql, mode));
    assertEquals("0A000", e.getSQLState(), e::getMessage);
    assertEquals(message, e.getMessage().substring(0, Math.min(message.length(),
        e.getMessage().length())), e::getMessage);
    assertEquals(jobs, JOBS_STARTED.get());
    assertEquals(0, bench.spark.streams().active().length);
  }
}
