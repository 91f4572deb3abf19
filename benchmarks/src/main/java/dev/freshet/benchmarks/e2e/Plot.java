package dev.freshet.benchmarks.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * Draws the run as a bar chart: for each headline metric, how many times better than Spark
 * Freshet measured, with issue 6's 10x line.
 */
final class Plot {
  private Plot() {}

  static void draw(List<JsonLine> lines, Path png) throws IOException {
    List<String> labels = new ArrayList<>();
    List<Double> advantage = new ArrayList<>();
    for (JsonLine line : lines) {
      if (!"freshet/spark".equals(line.string("engine"))) {
        continue;
      }
      String w = line.string("workload");
      add(labels, advantage, w + " rows/s", line.number("advantage"), "W1 W2 W4", w);
      add(labels, advantage, "W5 heap", line.number("advantage"), "W5", w);
      add(labels, advantage, "W3 p99 emb.", line.number("embedded_advantage"), "W3", w);
      add(labels, advantage, "W3 p99 rem.", line.number("remote_advantage"), "W3", w);
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
    List<Double> target = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      target.add(10.0);
    }
    chart.addSeries("target (10x)", labels, target);
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  private static void add(List<String> labels, List<Double> values, String label, double value,
      String workloads, String workload) {
    if (workloads.contains(workload) && !Double.isNaN(value) && value > 0) {
      labels.add(label);
      values.add(value);
    }
  }
}
