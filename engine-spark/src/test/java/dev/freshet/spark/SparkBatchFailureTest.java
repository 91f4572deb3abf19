package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.sql.parser.EmitMode;
import dev.freshet.testkit.SparkTest;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A batch that fails on Spark reaches the caller as an SQLException with Freshet's SQLSTATE. */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class SparkBatchFailureTest {
  private static SparkBench bench;

  @BeforeAll static void startSpark() throws Exception {
    bench = new SparkBench();
  }

  @AfterAll static void stopSpark() {
    bench.close();
  }

  @Test void shouldFailWithTheSqlStateOfTheErrorWhenABatchDividesByZero() throws Exception {
    try (SparkBench.Running spark = bench.start("SELECT STREAM k, v / (v - 1) AS x FROM events",
        EmitMode.APPEND, "EVENTS")) {
      assertEquals(List.of(new SparkBench.Batch(0, List.of(List.of("a", 2)),
          List.of(List.of("a", 2)))),
          spark.add(List.<Object[]>of(event(2))));
      SQLException e = assertThrows(SQLException.class,
          () -> spark.add(List.<Object[]>of(event(1))));
      assertEquals("22012", e.getSQLState(), e::getMessage);
      assertTrue(e.getMessage().startsWith("The continuous query failed on Spark: "
          + "[DIVIDE_BY_ZERO] Division by zero."), e::getMessage);
    }
  }

  private static Object[] event(int v) {
    return new Object[] {"a", LocalDateTime.of(1970, 1, 1, 0, 0, 1), v};
  }
}
