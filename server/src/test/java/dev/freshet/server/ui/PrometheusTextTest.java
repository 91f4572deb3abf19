package dev.freshet.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The test-side parser of the text format: what it reads, and what it refuses. */
class PrometheusTextTest {
  /** As the Prometheus Java client writes it, escapes included. */
  private static final String WRITTEN = """
      # HELP x_rows_total h \\\\ \\n x
      # TYPE x_rows_total counter
      x_rows_total{kind="view",query="a\\"b\\\\c\\nd"} 3.0
      # HELP x_seconds d
      # TYPE x_seconds histogram
      x_seconds_bucket{le="0.001"} 1
      x_seconds_bucket{le="+Inf"} 3
      x_seconds_count 3
      x_seconds_sum 1.5
      """;

  @Test void shouldReadTheFamiliesAndSamplesTheClientWrites() {
    PrometheusText.Scrape scrape = PrometheusText.parse(WRITTEN);
    assertEquals(Map.of("x_rows_total", "counter", "x_seconds", "histogram"), scrape.types());
    assertEquals("h \\ \n x", scrape.help().get("x_rows_total"));
    assertEquals(OptionalDouble.of(3.0), scrape.value("x_rows_total", "kind", "view", "query",
        "a\"b\\c\nd"));
    assertEquals(OptionalDouble.of(3.0), scrape.value("x_seconds_bucket", "le", "+Inf"));
    assertEquals(OptionalDouble.of(1.5), scrape.value("x_seconds_sum"));
    assertEquals(OptionalDouble.empty(), scrape.value("x_rows_total"));
  }

  @Test void shouldRefuseWhatPrometheusWouldRefuseOrWhatHidesABug() {
    for (String bad : List.of(
        "x 1\n",
        "# TYPE x gauge\nx 1\nx 2\n",
        "# TYPE x gauge\n# TYPE y gauge\nx 1\ny 1\nx{a=\"b\"} 1\n",
        "# TYPE x gauge\n# TYPE x gauge\n",
        "# TYPE x gauge\nx{a=\"\\t\"} 1\n",
        "# TYPE x histogram\nx 1\n",
        "# TYPE x histogram\nx_bucket 1\n",
        "# TYPE x gauge\nx one\n",
        "# TYPE x gauge\nx 1")) {
      assertThrows(IllegalArgumentException.class, () -> PrometheusText.parse(bad), bad);
    }
  }
}
