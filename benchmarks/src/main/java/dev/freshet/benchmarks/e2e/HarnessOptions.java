package dev.freshet.benchmarks.e2e;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The options of {@link Harness}, parsed by picocli.
 *
 * <pre>{@code
 * Harness --spark-classpath CP --quick --workloads W1,W3 --engines freshet
 * }</pre>
 */
@Command(name = "Harness", sortOptions = false,
    description = "The end-to-end benchmark: each workload on Freshet and on Spark, each run in a"
        + " JVM of its own, then the ratios; writes results.jsonl and results.png.")
final class HarnessOptions {
  @Option(names = "--spark-classpath", paramLabel = "CP",
      description = "The class path of the Spark runner (benchmarks/spark); needed for Spark.")
  String sparkClasspath;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "benchmarks/target/results",
      description = "Where results.jsonl and results.png go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--quick", description = "Smaller sizes, for development.")
  boolean quick;

  // SOAK (issue 32) runs only when named: 100 million INSERTed rows take long.
  @Option(names = "--workloads", split = ",", paramLabel = "W",
      defaultValue = "W1,W2,W4,W5,W3,W6,W7,W8,PGCOPY",
      description = "W1-W8, PGCOPY, SOAK and NEXMARK (the last two only when named; default:"
          + " ${DEFAULT-VALUE}).")
  List<String> workloads;

  @Option(names = "--engines", split = ",", paramLabel = "ENGINE",
      defaultValue = "freshet,spark",
      description = "freshet, spark (default: ${DEFAULT-VALUE}).")
  List<String> engines;

  @Option(names = "--warmup-rows", paramLabel = "N",
      description = "The warm-up rows of W1, W2, W4 and W6's calibration on both engines.")
  Long warmupRows;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Shows this help.")
  boolean help;
}
