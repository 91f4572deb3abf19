package dev.freshet.benchmarks.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Nexmark workload: every query of {@link NexmarkQuery#all()} on Freshet and on Spark, each
 * engine in one JVM of its own that runs the queries one after the other, both reading the same
 * events from the same generator; then a line per query with both rates, their ratio and whether
 * the final results' digests are equal, as a table on stderr and JSON lines in
 * {@code nexmark.jsonl}.
 *
 * <p>Sizes: {@code --quick} 400,000 events (368,000 bids) in batches of 36,800 bids;
 * otherwise 1,000,000 events (920,000 bids) in batches of 92,000 (ten batches either way; the
 * full run takes about five minutes on two cores, most of it Spark's). A query's
 * "events" are the rows of its streams; its rate is those rows over the time of the batches that
 * read them.
 */
final class NexmarkBenchmark {
  private NexmarkBenchmark() {}

  static void run(List<String> engines, String sparkClasspath, boolean quick, Path out)
      throws IOException, InterruptedException {
    long events = quick ? 400_000 : 1_000_000;
    // Multiples of 46, so that a batch of each stream covers the same global events.
    long bidsPerBatch = quick ? 36_800 : 92_000;
    List<NexmarkQuery> queries = NexmarkQuery.all();
    Map<String, JsonLine> freshet = new LinkedHashMap<>();
    Map<String, JsonLine> spark = new LinkedHashMap<>();
    if (engines.contains("freshet")) {
      List<String> command = new ArrayList<>(List.of(Harness.java(), Harness.HEAP, "-cp",
          System.getProperty("java.class.path"), NexmarkFreshet.class.getName(),
          Long.toString(events), Long.toString(bidsPerBatch)));
      queries.forEach(q -> command.add(q.name()));
      runAll(command, freshet);
    }
    if (engines.contains("spark")) {
      if (sparkClasspath == null) {
        throw new IllegalArgumentException("--spark-classpath is required to run Spark");
      }
      Path file = Files.createTempFile("nexmark-queries-", ".tsv");
      List<String> lines = new ArrayList<>();
      for (NexmarkQuery q : queries) {
        StringBuilder streams = new StringBuilder();
        q.streams().forEach((type, columns) -> streams.append(streams.length() == 0 ? "" : ";")
            .append(type).append('=').append(columns.replace(" ", "")));
        lines.add(String.join("\t", q.name(), q.mode().name(), Integer.toString(q.keyColumns()),
            streams, q.spark(), q.digest()));
      }
      Files.write(file, lines, StandardCharsets.UTF_8);
      List<String> command = new ArrayList<>(List.of(Harness.java(), Harness.HEAP));
      command.addAll(Harness.SPARK_JVM_OPTIONS);
      command.addAll(List.of("-cp", sparkClasspath, "dev.freshet.benchmarks.spark.SparkNexmark",
          Long.toString(events), Long.toString(bidsPerBatch), file.toString()));
      runAll(command, spark);
      Files.delete(file);
    }
    List<JsonLine> results = new ArrayList<>();
    results.addAll(freshet.values());
    results.addAll(spark.values());
    StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
        "%-15s %10s %14s %14s %7s  %s%n", "query", "events", "freshet ev/s", "spark ev/s",
        "ratio", "result check"));
    for (NexmarkQuery q : queries) {
      JsonLine f = freshet.get(q.name());
      JsonLine s = spark.get(q.name());
      JsonLine line = compare(q, f, s);
      results.add(line);
      table.append(String.format(Locale.ROOT, "%-15s %10s %14s %14s %7s  %s%n", q.name(),
          line.get("rows") == null ? "-" : line.get("rows"), rate(f), rate(s),
          line.get("ratio") == null ? "-" : String.format(Locale.ROOT, "%.2f",
              line.number("ratio")), line.get("check")));
    }
    Files.write(out.resolve("nexmark.jsonl"), results.stream().map(JsonLine::toString).toList(),
        StandardCharsets.UTF_8);
    System.out.println(table);
    System.err.println("Wrote " + out.resolve("nexmark.jsonl"));
  }

  private static String rate(JsonLine line) {
    if (line == null) {
      return "-";
    }
    if (line.get("error") != null) {
      return "error";
    }
    return String.format(Locale.ROOT, "%,.0f", line.number("rows_per_s"));
  }

  /** The comparison line of query {@code q}: rates, their ratio, and the result check. */
  static JsonLine compare(NexmarkQuery q, JsonLine freshet, JsonLine spark) {
    JsonLine line = new JsonLine().put("engine", "freshet/spark").put("workload", "NEXMARK")
        .put("query", q.name()).put("mode", q.mode().name()).put("note", q.note());
    if (freshet != null && freshet.get("rows") != null) {
      line.put("rows", freshet.get("rows"));
    } else if (spark != null && spark.get("rows") != null) {
      line.put("rows", spark.get("rows"));
    }
    String check;
    if (freshet == null || spark == null) {
      check = "not run on both";
    } else if (freshet.get("error") != null || spark.get("error") != null) {
      check = (freshet.get("error") != null ? "Freshet: " + freshet.get("error") : "")
          + (freshet.get("error") != null && spark.get("error") != null ? "; " : "")
          + (spark.get("error") != null ? "Spark: " + spark.get("error") : "");
    } else {
      line.put("freshet_rows_per_s", freshet.number("rows_per_s"))
          .put("spark_rows_per_s", spark.number("rows_per_s"))
          .put("ratio", freshet.number("rows_per_s") / spark.number("rows_per_s"));
      boolean equal = freshet.string("digest").equals(spark.string("digest"));
      check = equal ? "equal (" + freshet.string("digest") + ")"
          : "DIFFERENT: Freshet " + freshet.string("digest") + ", Spark "
              + spark.string("digest");
    }
    return line.put("check", check);
  }

  /** Runs a child JVM and keeps each of its result lines by query. */
  private static void runAll(List<String> command, Map<String, JsonLine> results)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Path log = Files.createTempFile("freshet-nexmark-", ".log");
    Process process = builder.start();
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
         var w = Files.newBufferedWriter(log)) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith(JsonLine.RESULT_PREFIX)) {
          JsonLine result = JsonLine.parse(line.substring(JsonLine.RESULT_PREFIX.length()));
          results.put(result.string("query"), result);
          System.out.println(result);
          System.out.flush();
        }
        w.write(line);
        w.newLine();
      }
    }
    int exit = process.waitFor();
    System.err.println("Exit " + exit + "; the run's log: " + log);
  }
}
