package dev.freshet.benchmarks.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * Draws the run as a bar chart: for each headline metric, how many times better than Spark
 * Freshet measured, beside issue 6's target for it in the same unit: 10x for throughput; for W5
 * (at most 100 bytes per row), W3 (p99 at most 10 ms embedded, 25 ms remote), and issue 15's W6
 * (p99 at most 5 ms) and W7 (point lookup p99 at most 1 ms), the advantage that the absolute target
 * is over Spark's figure of the same run; issue 16's W8 (a Kafka topic's rows/s): 3x.
 *
 * <p>{@code Plot results.jsonl results.png} redraws a saved run.
 */
final class Plot {
  private Plot() {}

  public static void main(String[] args) throws IOException {
    List<JsonLine> lines = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args[0]))) {
      if (!line.isBlank()) {
        lines.add(JsonLine.parse(line));
      }
    }
    draw(lines, Path.of(args[1]));
  }

  /** A bar of the plot: Freshet's advantage over Spark and the target's, in the same unit. */
  record Bar(String label, double advantage, double target) {}

  /** The bars of a run's lines; a metric without Spark's figure has its target at 0.01. */
  static List<Bar> bars(List<JsonLine> lines) {
    double sparkBytes = Double.NaN;
    double sparkP99 = Double.NaN;
    double sparkW6P99 = Double.NaN;
    double sparkLookupP99 = Double.NaN;
    for (JsonLine line : lines) {
      if ("spark".equals(line.string("engine")) && "W6".equals(line.string("workload"))) {
        sparkW6P99 = line.number("p99_ms");
      }
      if ("spark".equals(line.string("engine")) && "W7".equals(line.string("workload"))) {
        sparkLookupP99 = line.number("lookup_p99_ms");
      }
      if ("spark".equals(line.string("engine")) && "W5".equals(line.string("workload"))) {
        sparkBytes = line.number("bytes_per_state_row");
      }
      if ("spark".equals(line.string("engine")) && "W3".equals(line.string("workload"))) {
        sparkP99 = line.number("p99_ms");
      }
    }
    List<Bar> bars = new ArrayList<>();
    for (JsonLine line : lines) {
      if (!"freshet/spark".equals(line.string("engine"))) {
        continue;
      }
      String w = line.string("workload");
      add(bars, w + " rows/s", line.number("advantage"), 10, "W1 W2 W4", w);
      add(bars, "W8 Kafka rows/s", line.number("advantage"), 3, "W8", w);
      add(bars, "W5 heap", line.number("advantage"), sparkBytes / 100, "W5", w);
      add(bars, "W3 p99 emb.", line.number("embedded_advantage"), sparkP99 / 10, "W3", w);
      add(bars, "W3 p99 rem.", line.number("remote_advantage"), sparkP99 / 25, "W3", w);
      add(bars, "W6 p99 loaded", line.number("advantage"), sparkW6P99 / 5, "W6", w);
      add(bars, "W7 lookup p99", line.number("lookup_advantage"), sparkLookupP99 / 1, "W7", w);
    }
    return bars;
  }

  static void draw(List<JsonLine> lines, Path png) throws IOException {
    List<String> labels = new ArrayList<>();
    List<Double> advantage = new ArrayList<>();
    List<Double> target = new ArrayList<>();
    for (Bar bar : bars(lines)) {
      labels.add(bar.label());
      advantage.add(bar.advantage());
      target.add(bar.target());
    }
    if (labels.isEmpty()) {
      return;
    }
    CategoryChart chart = new CategoryChartBuilder().width(1000).height(500)
        .title("Freshet vs Spark Structured Streaming 4.2 (2 cores): times better than Spark")
        .xAxisTitle("workload").yAxisTitle("x Spark").build();
    // Logarithmic: the ratios run from 0.05 to thousands.
    chart.getStyler().setYAxisLogarithmic(true);
    // Bars start at the axis minimum, which must be above zero on a logarithmic axis.
    chart.getStyler().setYAxisMin(0.01);
    chart.getStyler().setLegendVisible(true);
    chart.addSeries("Freshet / Spark", labels, advantage);
    chart.addSeries("target (issues 6, 15, 16)", labels, target);
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  private static void add(List<Bar> bars, String label, double value, double target,
      String workloads, String workload) {
    if (workloads.contains(workload) && !Double.isNaN(value) && value > 0) {
      // Without Spark's figure there is no target in these units: a bar at the axis minimum.
      bars.add(new Bar(label, value, Double.isNaN(target) ? 0.01 : target));
    }
  }
}
