package dev.freshet.benchmarks.e2e;

import java.util.Arrays;

/** Percentiles of latencies in nanoseconds, reported in milliseconds. */
final class Latencies {
  private final long[] sorted;

  Latencies(long[] nanos, int count) {
    this.sorted = Arrays.copyOf(nanos, count);
    Arrays.sort(sorted);
  }

  int count() {
    return sorted.length;
  }

  double percentileMs(double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    // Nearest rank: the smallest value with at least p of the samples at or below it.
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
  }

  void addTo(JsonLine line) {
    line.put("samples", (long) sorted.length)
        .put("p50_ms", percentileMs(50))
        .put("p99_ms", percentileMs(99))
        .put("p999_ms", percentileMs(99.9))
        .put("max_ms", percentileMs(100));
  }
}
