package dev.freshet.benchmarks.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The sizes the harness gives each workload, and what {@code --warmup-rows} changes. */
class HarnessTest {
  @Test void shouldSetTheWarmUpOfTheThroughputWorkloadsOnly() {
    assertEquals(new Workload.Size(5_000_000, 20_000_000, 1_000_000, 30),
        Harness.size(Workload.W1, false, null));
    assertEquals(new Workload.Size(2_000_000, 20_000_000, 1_000_000, 30),
        Harness.size(Workload.W2, false, null));
    for (Workload throughput : new Workload[] {Workload.W1, Workload.W2, Workload.W4}) {
      assertEquals(new Workload.Size(55_000_000, 20_000_000, 1_000_000, 30),
          Harness.size(throughput, false, "55000000"));
    }
    // W6's calibration is a throughput run: its warm-up is set too.
    assertEquals(new Workload.Size(55_000_000, 6_000_000, 1_000_000, 30),
        Harness.size(Workload.W6, false, "55000000"));
    for (Workload other : new Workload[] {Workload.W3, Workload.W5, Workload.W7}) {
      assertEquals(Harness.size(other, false, null), Harness.size(other, false, "55000000"));
    }
  }

  @Test void shouldSizeIssue15sWorkloads() {
    assertEquals(new Workload.Size(2_000_000, 6_000_000, 1_000_000, 30),
        Harness.size(Workload.W6, false, null));
    assertEquals(new Workload.Size(1_000_000, 2_000_000, 1_000_000, 10),
        Harness.size(Workload.W6, true, null));
    assertEquals(new Workload.Size(0, 0, 1_000_000, 30), Harness.size(Workload.W7, false, null));
    assertEquals(Workload.W7, Workload.of("w7"));
  }

  @Test void shouldSizeW8AsOneTopicReadOnceWithoutWarmUp() {
    assertEquals(new Workload.Size(0, 20_000_000, 1_000_000, 30),
        Harness.size(Workload.W8, false, null));
    assertEquals(new Workload.Size(0, 2_000_000, 1_000_000, 10),
        Harness.size(Workload.W8, true, "55000000"));
    assertEquals(Workload.W8, Workload.of("w8"));
  }

  @Test void shouldKnowTheSumOfW8sValues() {
    long sum = 0;
    for (long n = 0; n < 2_345; n++) {
      sum += n % KafkaTopic.VALUES;
    }
    assertEquals(sum, KafkaTopic.sumOfV(2_345));
    assertEquals("{\"id\":123456,\"k\":23456,\"v\":456}",
        new String(KafkaTopic.row(123_456), java.nio.charset.StandardCharsets.US_ASCII));
  }
}
