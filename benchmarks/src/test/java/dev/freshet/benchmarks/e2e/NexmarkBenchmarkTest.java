package dev.freshet.benchmarks.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The Nexmark workload's query list, its streams' declarations and its result check. */
class NexmarkBenchmarkTest {
  @Test void shouldDeclareEachQuerysStreamsWithTheirColumnsAWatermarkAndAlignedBatches() {
    Set<String> names = new HashSet<>();
    for (NexmarkQuery q : NexmarkQuery.all()) {
      assertTrue(names.add(q.name()), "one entry per query: " + q.name());
      q.streams().values().forEach(columns -> assertTrue(columns.contains("date_time"),
          q.name() + " reads date_time for its watermark"));
    }
    NexmarkQuery q0 = NexmarkQuery.all().get(0);
    assertEquals("CREATE STREAM bid (auction BIGINT, bidder BIGINT, price BIGINT,"
        + " date_time TIMESTAMP(3), WATERMARK FOR date_time AS date_time - INTERVAL '5' SECOND)"
        + " WITH (connector = 'nexmark', 'event.type' = 'bid', 'max-events' = '1000000',"
        + " 'rows.per.batch' = '92000')", q0.freshetStream("bid", 1_000_000, 92_000));
    NexmarkQuery q20 = NexmarkQuery.all().stream().filter(q -> q.name().equals("q20"))
        .findFirst().orElseThrow();
    assertTrue(q20.freshetStream("auction", 10, 46).startsWith("CREATE STREAM auction (id BIGINT,"
        + " item_name VARCHAR, seller BIGINT, category BIGINT, date_time TIMESTAMP(3),"
        + " expires TIMESTAMP(3), WATERMARK"), q20.freshetStream("auction", 10, 46));
    // A batch of each stream covers the same 100,000 global events: 2,000 groups of 50.
    assertEquals(2_000, NexmarkQuery.rowsPerBatch("person", 92_000));
    assertEquals(6_000, NexmarkQuery.rowsPerBatch("auction", 92_000));
    assertEquals(92_000, NexmarkQuery.rowsPerBatch("bid", 92_000));
  }

  @Test void shouldCompareRatesAndDigestsAndReportEitherEnginesError() {
    NexmarkQuery q0 = NexmarkQuery.all().get(0);
    JsonLine freshet = JsonLine.parse("{\"rows\":920000,\"rows_per_s\":2.0e+05,"
        + "\"digest\":\"920000 17\",\"query\":\"q0\"}");
    JsonLine spark = JsonLine.parse("{\"rows\":920000,\"rows_per_s\":1.0e+05,"
        + "\"digest\":\"920000 17\",\"query\":\"q0\"}");
    JsonLine same = NexmarkBenchmark.compare(q0, freshet, spark);
    assertEquals(2.0, same.number("ratio"), 1e-9);
    assertEquals("equal (920000 17)", same.string("check"));
    JsonLine other = JsonLine.parse("{\"rows\":920000,\"rows_per_s\":1.0e+05,"
        + "\"digest\":\"920000 18\",\"query\":\"q0\"}");
    assertEquals("DIFFERENT: Freshet 920000 17, Spark 920000 18",
        NexmarkBenchmark.compare(q0, freshet, other).string("check"));
    JsonLine refused = JsonLine.parse("{\"error\":\"Distinct aggregations are not supported\","
        + "\"query\":\"q0\"}");
    JsonLine line = NexmarkBenchmark.compare(q0, freshet, refused);
    assertEquals("Spark: Distinct aggregations are not supported", line.string("check"));
    assertEquals(null, line.get("ratio"));
  }
}
