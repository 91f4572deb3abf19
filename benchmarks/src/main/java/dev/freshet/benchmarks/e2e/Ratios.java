package dev.freshet.benchmarks.e2e;

/**
 * Freshet's figure over Spark's for a workload's headline metric, and how far that is from the
 * target of issue 6 (W1-W5), issue 15 (W6, W7) or issue 16 (W8).
 *
 * <p>Every ratio is Freshet/Spark; for throughput higher is better, for latency and heap lower is.
 * {@code advantage} turns it into "times better than Spark" so one plot can hold all of them.
 */
final class Ratios {
  private Ratios() {}

  static JsonLine of(Workload workload, JsonLine freshet, JsonLine spark) {
    JsonLine line = new JsonLine().put("engine", "freshet/spark").put("workload", workload.name());
    switch (workload) {
      case W1, W2, W4 -> put(line, "rows_per_s", freshet, spark, true, "throughput >= 10x Spark");
      case W8 -> put(line, "rows_per_s", freshet, spark, true, "throughput >= 3x Spark");
      case W5 -> put(line, "bytes_per_state_row", freshet, spark, false, "<= 100 bytes per row");
      case W3 -> {
        put(line, "embedded_p99_ms", freshet, spark, "p99_ms", "p99 <= 10 ms embedded");
        put(line, "remote_p99_ms", freshet, spark, "p99_ms", "p99 <= 25 ms remote");
      }
      case W6 -> {
        put(line, "p99_ms", freshet, spark, false, "p99 <= 5 ms");
        lower(line, "load_batch_", "load_batch_p99_ms", freshet, spark);
      }
      case W7 -> {
        lower(line, "lookup_", "lookup_p99_ms", freshet, spark);
        line.put("lookup_target", "p99 <= 1 ms");
        lower(line, "scan_", "scan_p50_ms", freshet, spark);
      }
    }
    return line;
  }

  private static void put(JsonLine line, String metric, JsonLine freshet, JsonLine spark,
      boolean higherIsBetter, String target) {
    double ratio = freshet.number(metric) / spark.number(metric);
    line.put(metric, ratio).put("advantage", higherIsBetter ? ratio : 1 / ratio)
        .put("target", target);
  }

  /** A lower-is-better metric both engines name alike: its ratio and "times better". */
  private static void lower(JsonLine line, String prefix, String metric, JsonLine freshet,
      JsonLine spark) {
    double ratio = freshet.number(metric) / spark.number(metric);
    line.put(metric, ratio).put(prefix + "advantage", 1 / ratio);
  }

  private static void put(JsonLine line, String freshetMetric, JsonLine freshet, JsonLine spark,
      String sparkMetric, String target) {
    double ratio = freshet.number(freshetMetric) / spark.number(sparkMetric);
    line.put(freshetMetric, ratio).put(freshetMetric.replace("_p99_ms", "_advantage"), 1 / ratio)
        .put(freshetMetric.replace("_p99_ms", "_target"), target);
  }
}
