package dev.freshet.benchmarks.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The end-to-end benchmark: every workload on Freshet and on Spark, each run in a fresh JVM with
 * the same heap, then the ratios and the plot.
 *
 * <p>A JVM per run keeps one workload's garbage, JIT state and threads out of the next, makes the
 * heap measurement of W5 clean, and keeps Spark's classpath (its Jackson and Janino) away from
 * Calcite's. Output: one JSON line per workload per engine, then one ratio line per workload, on
 * stdout and in {@code results.jsonl}; the plot in {@code results.png}.
 *
 * <p>Usage ({@link HarnessOptions}, {@code --help}): {@code Harness --spark-classpath CP
 * [--out DIR] [--quick] [--workloads W1,W3] [--engines freshet,spark] [--warmup-rows N]}; the
 * default runs W1-W8 (W8 starts a Kafka broker in this JVM for both engines, see
 * {@link KafkaTopic}). {@code --warmup-rows} sets the warm-up of the throughput workloads (W1,
 * W2, W4, and W6's calibration) on both engines, e.g. to measure them past the JIT's warm-up;
 * Freshet's figures come from its last 100 batches, so warm-up and measured rows together must
 * fit in 100 batches.
 */
public final class Harness {
  static final String HEAP = "-Xmx3g";

  /** What spark-submit adds on Java 17 (Spark's JavaModuleOptions), less what 17 refuses. */
  static final List<String> SPARK_JVM_OPTIONS = sparkJvmOptions();

  private Harness() {}

  public static void main(String[] args) throws Exception {
    HarnessOptions options = new HarnessOptions();
    CommandLine cli = new CommandLine(options);
    try {
      cli.parseArgs(args);
    } catch (ParameterException e) {
      cli.getErr().println(e.getMessage());
      cli.usage(cli.getErr());
      System.exit(2);
    }
    if (cli.isUsageHelpRequested()) {
      cli.usage(cli.getOut());
      return;
    }
    run(options);
  }

  private static void run(HarnessOptions options) throws Exception {
    Path out = options.out;
    Files.createDirectories(out);
    boolean quick = options.quick;
    List<String> engines = options.engines;
    String sparkClasspath = options.sparkClasspath;
    String warmupRows = options.warmupRows == null ? null : options.warmupRows.toString();
    List<Workload> workloads = new ArrayList<>();
    boolean nexmark = false;
    for (String w : options.workloads) {
      if (w.equalsIgnoreCase("NEXMARK")) {
        nexmark = true;
      } else {
        workloads.add(Workload.of(w));
      }
    }
    if (nexmark) {
      // Its own results file: a table per query, not a line per workload (NexmarkBenchmark).
      NexmarkBenchmark.run(engines, sparkClasspath, quick, out);
      if (workloads.isEmpty()) {
        return;
      }
    }
    List<JsonLine> lines = new ArrayList<>();
    for (Workload workload : workloads) {
      Workload.Size size = size(workload, quick, warmupRows);
      if (workload == Workload.W8) {
        runOnTopic(lines, engines, sparkClasspath, size);
      } else if (workload == Workload.SOAK || workload == Workload.PGCOPY) {
        // Freshet only: Spark has no INSERT-fed stream to soak, nor a PostgreSQL endpoint.
        runBoth(lines, List.of("freshet"), null, workload, size, List.of(), null);
      } else {
        runBoth(lines, engines, sparkClasspath, workload, size, List.of(), null);
      }
    }
    Files.write(out.resolve("results.jsonl"),
        lines.stream().map(JsonLine::toString).toList(), StandardCharsets.UTF_8);
    Plot.draw(lines, out.resolve("results.png"));
    System.err.println("Wrote " + out.resolve("results.jsonl") + " and " + out.resolve("results.png"));
  }

  /**
   * Runs {@code workload} on each engine asked for, each JVM given {@code extraArgs} after the
   * sizes, then their ratios; {@code extra}, if not null, is added to both engines' lines.
   */
  private static void runBoth(List<JsonLine> lines, List<String> engines, String sparkClasspath,
      Workload workload, Workload.Size size, List<String> extraArgs, JsonLine extra)
      throws IOException, InterruptedException {
    JsonLine freshet = null;
    JsonLine spark = null;
    if (engines.contains("freshet")) {
      List<String> command = freshetCommand(workload, size);
      command.addAll(extraArgs);
      freshet = withExtra(run(command), extra);
      emit(lines, freshet);
    }
    if (engines.contains("spark")) {
      List<String> command = sparkCommand(sparkClasspath, workload, size);
      command.addAll(extraArgs);
      spark = withExtra(run(command), extra);
      emit(lines, spark);
    }
    if (freshet != null && spark != null) {
      emit(lines, Ratios.of(workload, freshet, spark));
    }
  }

  private static JsonLine withExtra(JsonLine line, JsonLine extra) {
    if (extra != null) {
      for (String key : extra.keys()) {
        line.put(key, extra.get(key));
      }
    }
    return line;
  }

  /**
   * W8: one broker in this JVM for both engines, its topic filled once before either runs (not
   * timed with them); each engine's JVM reads the same topic from its beginning.
   */
  private static void runOnTopic(List<JsonLine> lines, List<String> engines,
      String sparkClasspath, Workload.Size size) throws Exception {
    try (KafkaTopic topic = KafkaTopic.start("w8", TOPIC_PARTITIONS)) {
      long start = System.nanoTime();
      topic.fill(size.totalRows());
      double fillSeconds = (System.nanoTime() - start) / 1e9;
      System.err.printf("W8: filled topic %s (%d partitions) with %,d rows in %.1f s%n",
          topic.topic(), TOPIC_PARTITIONS, size.totalRows(), fillSeconds);
      JsonLine extra = new JsonLine().put("topic_partitions", (long) TOPIC_PARTITIONS)
          .put("topic_compression", "lz4").put("topic_fill_s", fillSeconds);
      runBoth(lines, engines, sparkClasspath, Workload.W8, size,
          List.of(topic.bootstrapServers(), topic.topic()), extra);
    } catch (Exception e) {
      // A broker that does not start (or a topic that does not fill) must not lose the results
      // of the workloads that ran before: W8's line says why instead.
      e.printStackTrace();
      emit(lines, new JsonLine().put("engine", "harness").put("workload", "W8")
          .put("error", "the topic could not be set up: " + e));
    }
  }

  /** W8's topic's partitions. */
  private static final int TOPIC_PARTITIONS = 4;

  private static void emit(List<JsonLine> lines, JsonLine line) {
    lines.add(line);
    System.out.println(line);
    System.out.flush();
  }

  /**
   * Sizes per workload: the full run follows issue 6 (20 million rows after warm-up, 1M-row
   * batches, the size Spark's figures in the notes use); {@code --quick} is for development.
   * {@code warmupRows}, if not null, replaces the warm-up of W1, W2, W4 and W6's calibration.
   */
  static Workload.Size size(Workload workload, boolean quick, String warmupRows) {
    Workload.Size size = size(workload, quick);
    if (warmupRows == null || workload == Workload.W3 || workload == Workload.W5
        || workload == Workload.W7 || workload == Workload.W8 || workload == Workload.SOAK
        || workload == Workload.PGCOPY) {
      return size;
    }
    return new Workload.Size(Long.parseLong(warmupRows), size.measuredRows(),
        size.rowsPerBatch(), size.latencySeconds());
  }

  private static Workload.Size size(Workload workload, boolean quick) {
    long measured = quick ? 5_000_000 : 20_000_000;
    long warmup = quick ? 2_000_000 : 5_000_000;
    int latencySeconds = quick ? 10 : 30;
    return switch (workload) {
      case W2 -> new Workload.Size(quick ? 1_000_000 : 2_000_000, measured, 1_000_000,
          latencySeconds);
      // The calibration of W6: W1-like over 100k keys, long enough for a steady rate.
      case W6 -> new Workload.Size(quick ? 1_000_000 : 2_000_000, quick ? 2_000_000 : 6_000_000,
          1_000_000, latencySeconds);
      // W7 generates rows for as long as its lookups run; only the batch size is used.
      case W7 -> new Workload.Size(0, 0, 1_000_000, latencySeconds);
      // W8 reads its topic from the beginning once, warm-up and all: no warm-up rows.
      case W8 -> new Workload.Size(0, quick ? 2_000_000 : 20_000_000, 1_000_000, latencySeconds);
      // Issue 32: 100 million rows in 1,000-row INSERTs (10 million with --quick).
      case SOAK -> new Workload.Size(0, quick ? 10_000_000 : 100_000_000, 1_000, 0);
      // Issue 34: 1,000 INSERTs measured after 100, one row each.
      case PGCOPY -> new Workload.Size(100, 1_000, 1, 0);
      default -> new Workload.Size(warmup, measured, 1_000_000, latencySeconds);
    };
  }

  private static List<String> freshetCommand(Workload workload, Workload.Size size) {
    List<String> command = new ArrayList<>(List.of(java(), HEAP, "-cp",
        System.getProperty("java.class.path"), FreshetWorkloads.class.getName(), workload.name()));
    command.addAll(List.of(size.toArgs()));
    return command;
  }

  private static List<String> sparkCommand(String classpath, Workload workload,
      Workload.Size size) {
    if (classpath == null) {
      throw new IllegalArgumentException("--spark-classpath is required to run Spark");
    }
    List<String> command = new ArrayList<>(List.of(java(), HEAP));
    command.addAll(SPARK_JVM_OPTIONS);
    command.addAll(List.of("-cp", classpath, "dev.freshet.benchmarks.spark.SparkWorkloads",
        workload.name(), Long.toString(workload.keys())));
    command.addAll(List.of(size.toArgs()));
    return command;
  }

  private static List<String> sparkJvmOptions() {
    List<String> o = new ArrayList<>(List.of("-XX:+IgnoreUnrecognizedVMOptions",
        "--add-modules=jdk.incubator.vector", "-Dio.netty.tryReflectionSetAccessible=true",
        "--enable-native-access=ALL-UNNAMED",
        "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED"));
    for (String p : List.of("java.lang", "java.lang.invoke", "java.lang.reflect", "java.io",
        "java.net", "java.nio", "java.util", "java.util.concurrent",
        "java.util.concurrent.atomic", "jdk.internal.ref", "sun.nio.ch", "sun.nio.cs",
        "sun.security.action", "sun.util.calendar")) {
      o.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
    }
    return List.copyOf(o);
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** Runs a child JVM; its result line is the one starting with {@link JsonLine#RESULT_PREFIX}. */
  static JsonLine run(List<String> command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Path log = Files.createTempFile("freshet-bench-", ".log");
    Process process = builder.start();
    String result = null;
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
         var w = Files.newBufferedWriter(log)) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith(JsonLine.RESULT_PREFIX)) {
          result = line.substring(JsonLine.RESULT_PREFIX.length());
        }
        w.write(line);
        w.newLine();
      }
    }
    int exit = process.waitFor();
    if (result == null) {
      // The run's own log says why; the other workloads still run.
      return new JsonLine().put("engine", engineOf(command)).put("workload", workloadOf(command))
          .put("error", "exit " + exit + ", no result; see " + log);
    }
    Files.delete(log);
    return JsonLine.parse(result);
  }

  private static String engineOf(List<String> command) {
    return command.stream().anyMatch(c -> c.endsWith("SparkWorkloads")) ? "spark" : "freshet";
  }

  private static String workloadOf(List<String> command) {
    return command.stream().filter(c -> c.matches("W[0-9]+")).findFirst().orElse("?");
  }
}
