package dev.freshet.benchmarks.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness's arithmetic on results: the JSON lines, the Freshet/Spark ratios and the plot's
 * bars. Runs with {@code mvn -P benchmarks verify -pl benchmarks -am} (see the README for running
 * it alone); the benchmarks themselves run with {@code ./benchmarks/run}.
 */
class ResultsTest {
  private static final JsonLine FRESHET_W1 = JsonLine.parse(
      "{\"rows_per_s\":2.0e+07,\"engine\":\"freshet\",\"workload\":\"W1\",\"batch_ms\":\"40 38\"}");
  private static final JsonLine SPARK_W1 =
      JsonLine.parse("{\"rows_per_s\":4.0e+06,\"engine\":\"spark\",\"workload\":\"W1\"}");
  private static final JsonLine FRESHET_W5 =
      JsonLine.parse("{\"bytes_per_state_row\":80.0,\"engine\":\"freshet\",\"workload\":\"W5\"}");
  private static final JsonLine SPARK_W5 =
      JsonLine.parse("{\"bytes_per_state_row\":200.0,\"engine\":\"spark\",\"workload\":\"W5\"}");
  private static final JsonLine FRESHET_W3 = JsonLine.parse("{\"embedded_p99_ms\":0.5,"
      + "\"remote_p99_ms\":2.0,\"engine\":\"freshet\",\"workload\":\"W3\"}");
  private static final JsonLine SPARK_W3 =
      JsonLine.parse("{\"p99_ms\":1000.0,\"engine\":\"spark\",\"workload\":\"W3\"}");

  private static final JsonLine FRESHET_W6 = JsonLine.parse("{\"p99_ms\":100.0,"
      + "\"load_batch_p99_ms\":2000.0,\"engine\":\"freshet\",\"workload\":\"W6\"}");
  private static final JsonLine SPARK_W6 = JsonLine.parse("{\"p99_ms\":2000.0,"
      + "\"load_batch_p99_ms\":1000.0,\"engine\":\"spark\",\"workload\":\"W6\"}");
  private static final JsonLine FRESHET_W7 = JsonLine.parse("{\"lookup_p99_ms\":2500.0,"
      + "\"scan_p50_ms\":2000.0,\"engine\":\"freshet\",\"workload\":\"W7\"}");
  private static final JsonLine SPARK_W7 = JsonLine.parse("{\"lookup_p99_ms\":10000.0,"
      + "\"scan_p50_ms\":8000.0,\"engine\":\"spark\",\"workload\":\"W7\"}");

  @Test void shouldReadBackTheLinesItWrites() {
    JsonLine again = JsonLine.parse(FRESHET_W1.toString());
    assertEquals(2.0e7, again.number("rows_per_s"));
    assertEquals("40 38", again.string("batch_ms"));
    assertEquals("W1", again.string("workload"));
  }

  @Test void shouldTurnEveryRatioIntoTimesBetterThanSpark() {
    JsonLine w1 = Ratios.of(Workload.W1, FRESHET_W1, SPARK_W1);
    assertEquals(5.0, w1.number("rows_per_s"), 1e-9);
    assertEquals(5.0, w1.number("advantage"), 1e-9);
    JsonLine w5 = Ratios.of(Workload.W5, FRESHET_W5, SPARK_W5);
    assertEquals(0.4, w5.number("bytes_per_state_row"), 1e-9);
    assertEquals(2.5, w5.number("advantage"), 1e-9);
    JsonLine w3 = Ratios.of(Workload.W3, FRESHET_W3, SPARK_W3);
    assertEquals(2000, w3.number("embedded_advantage"), 1e-6);
    assertEquals(500, w3.number("remote_advantage"), 1e-6);
  }

  @Test void shouldCompareIssue15sLatenciesLowerIsBetter() {
    JsonLine w6 = Ratios.of(Workload.W6, FRESHET_W6, SPARK_W6);
    assertEquals(0.05, w6.number("p99_ms"), 1e-9);
    assertEquals(20, w6.number("advantage"), 1e-9);
    assertEquals("p99 <= 5 ms", w6.string("target"));
    assertEquals(0.5, w6.number("load_batch_advantage"), 1e-9);
    JsonLine w7 = Ratios.of(Workload.W7, FRESHET_W7, SPARK_W7);
    assertEquals(0.25, w7.number("lookup_p99_ms"), 1e-9);
    assertEquals(4, w7.number("lookup_advantage"), 1e-9);
    assertEquals("p99 <= 1 ms", w7.string("lookup_target"));
    assertEquals(4, w7.number("scan_advantage"), 1e-9);
  }

  @Test void shouldPlotIssue15sTargetsAgainstSparksFigures() {
    List<Plot.Bar> bars = Plot.bars(List.of(FRESHET_W6, SPARK_W6,
        Ratios.of(Workload.W6, FRESHET_W6, SPARK_W6), FRESHET_W7, SPARK_W7,
        Ratios.of(Workload.W7, FRESHET_W7, SPARK_W7)));
    assertEquals(List.of(
        // p99 at most 5 ms against Spark's 2 s; a lookup's p99 at most 1 ms against its 10 s.
        new Plot.Bar("W6 p99 loaded", 20, 400),
        new Plot.Bar("W7 lookup p99", 4, 10_000)),
        bars.stream().map(ResultsTest::rounded).toList());
  }

  @Test void shouldPlotEachMetricBesideItsOwnTarget(@TempDir Path dir) throws Exception {
    List<JsonLine> lines = List.of(FRESHET_W1, SPARK_W1, Ratios.of(Workload.W1, FRESHET_W1,
        SPARK_W1), FRESHET_W5, SPARK_W5, Ratios.of(Workload.W5, FRESHET_W5, SPARK_W5),
        FRESHET_W3, SPARK_W3, Ratios.of(Workload.W3, FRESHET_W3, SPARK_W3));
    List<Plot.Bar> bars = Plot.bars(lines);
    assertEquals(List.of(
        new Plot.Bar("W1 rows/s", 5.0, 10),
        // At most 100 bytes a row against Spark's 200: 2x better than Spark.
        new Plot.Bar("W5 heap", 2.5, 2.0),
        // p99 at most 10 ms embedded and 25 ms remote against Spark's 1 s.
        new Plot.Bar("W3 p99 emb.", 2000, 100),
        new Plot.Bar("W3 p99 rem.", 500, 40)), bars.stream().map(ResultsTest::rounded).toList());
    Path png = dir.resolve("results.png");
    Plot.draw(lines, png);
    assertTrue(Files.size(png) > 1000, "no plot drawn");
  }

  @Test void shouldCompareW8sRowsPerSecondAgainstIssue16sTarget() {
    JsonLine freshet = JsonLine.parse("{\"rows_per_s\":1.5e+06,\"engine\":\"freshet\","
        + "\"workload\":\"W8\",\"topic_compression\":\"lz4\"}");
    JsonLine spark = JsonLine.parse("{\"rows_per_s\":6.0e+05,\"engine\":\"spark\","
        + "\"workload\":\"W8\"}");
    JsonLine w8 = Ratios.of(Workload.W8, freshet, spark);
    assertEquals(2.5, w8.number("advantage"), 1e-9);
    assertEquals("throughput >= 3x Spark", w8.string("target"));
    assertEquals(List.of(new Plot.Bar("W8 Kafka rows/s", 2.5, 3)),
        Plot.bars(List.of(freshet, spark, w8)).stream().map(ResultsTest::rounded).toList());
  }

  private static Plot.Bar rounded(Plot.Bar bar) {
    return new Plot.Bar(bar.label(), Math.round(bar.advantage() * 1e6) / 1e6,
        Math.round(bar.target() * 1e6) / 1e6);
  }
}
