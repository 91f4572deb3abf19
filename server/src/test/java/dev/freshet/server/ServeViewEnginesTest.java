package dev.freshet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.ViewEngines;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code freshet serve --engine --spark-master --spark-checkpoint-dir --spark-conf}: the view
 * engines the server's engine gets, and the options' errors. No Spark here: the engine opens a
 * view runner only for a view.
 */
class ServeViewEnginesTest {
  @Test void shouldGiveTheServersEngineTheViewEnginesOfTheOptions() {
    ViewEngines engines = servedViewEngines("--engine", "spark",
        "--spark-master", "spark://10.0.0.5:7077",
        "--spark-checkpoint-dir", "hdfs://nn:8020/freshet",
        "--spark-conf", "spark.executor.memory=4g",
        "--spark-conf", "spark.sql.shuffle.partitions=8");
    assertEquals(new ViewEngines("spark", Map.of(
        "spark.master", "spark://10.0.0.5:7077",
        "spark.checkpoint.dir", "hdfs://nn:8020/freshet",
        "spark.executor.memory", "4g",
        "spark.sql.shuffle.partitions", "8")), engines);
  }

  @Test void shouldRunViewsOnFreshetByDefault() {
    assertEquals(ViewEngines.DEFAULT, servedViewEngines());
  }

  @Test void shouldKeepSparkSettingsForViewsThatAskForSparkWithoutEngineSpark() {
    // Views WITH ('engine' = 'spark') use them; the others run on Freshet's executor.
    assertEquals(new ViewEngines("freshet", Map.of("spark.master", "local[4]",
            "spark.driver.host", "10.0.0.2")),
        servedViewEngines("--spark-master", "local[4]", "--spark-conf",
            "spark.driver.host=10.0.0.2"));
  }

  @Test void shouldKeepEverythingAfterTheFirstEqualsSignAsTheValue() {
    assertEquals(new ViewEngines("freshet", Map.of("spark.executor.extraJavaOptions",
            "-Dkey=value -Da=b")),
        servedViewEngines("--spark-conf", "spark.executor.extraJavaOptions=-Dkey=value -Da=b"));
  }

  @Test void shouldRefuseAnEngineThatIsNeitherFreshetNorSpark() {
    assertEquals("freshet serve: --engine must be freshet (Freshet's own executor, the default)"
        + " or spark (Apache Spark, see --spark-master), not 'flink'",
        refusal("--engine", "flink"));
  }

  @Test void shouldRefuseASparkConfWithoutEqualsSign() {
    assertEquals("freshet serve: --spark-conf takes key=value, e.g. --spark-conf"
        + " spark.executor.memory=4g, not 'spark.executor.memory'",
        refusal("--spark-conf", "spark.executor.memory"));
  }

  @Test void shouldRefuseASparkConfKeyThatIsNotSparks() {
    assertEquals("freshet serve: --spark-conf takes Spark's own keys, which begin with 'spark.'"
        + " (e.g. spark.executor.memory=4g), not 'executor.memory'",
        refusal("--spark-conf", "executor.memory=4g"));
  }

  @Test void shouldRefuseTheMasterGivenTwice() {
    assertEquals("freshet serve: --spark-master sets spark.master, which another option already"
        + " set to 'local[2]'; give it once",
        refusal("--spark-conf", "spark.master=local[2]", "--spark-master", "spark://h:7077"));
  }

  @Test void shouldRefuseEngineSparkWithoutSparkOnTheClassPath() {
    // The server module's tests have no engine-spark: the server would start, and every view
    // fail.
    assertEquals("freshet serve: --engine spark needs Freshet's spark module"
        + " (dev.freshet:freshet-engine-spark) and its dependencies on the class path; the"
        + " launcher adds them: ./freshet serve --engine spark",
        refusal("--engine", "spark"));
  }

  @Test void shouldDocumentTheOptionsInTheHelp() {
    String help = new CommandLine(new ServeCommand()).getUsageMessage();
    assertTrue(help.contains("--engine=<freshet|spark>"), help);
    assertTrue(help.contains("--spark-master=<url>"), help);
    assertTrue(help.contains("--spark-checkpoint-dir=<dir>"), help);
    assertTrue(help.contains("--spark-conf=<key=value>"), help);
    assertTrue(help.contains("(default: freshet)"), help);
  }

  /** The view engines of a server started, as {@code freshet serve} would, with {@code args}. */
  private static ViewEngines servedViewEngines(String... args) {
    ServeCommand command = new ServeCommand();
    new CommandLine(command).parseArgs(args);
    try (FreshetServer server = command.builder().port(0).start()) {
      return server.engine().viewEngines();
    }
  }

  /** What {@code freshet serve args} prints on standard error, failing to start. */
  private static String refusal(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
    String[] all = new String[args.length + 2];
    all[0] = "--port";
    all[1] = "0";
    System.arraycopy(args, 0, all, 2, args.length);
    int exit = new CommandLine(new ServeCommand(System.out, errors, new CountDownLatch(0)))
        .execute(all);
    assertEquals(ServeCommand.CANNOT_START, exit);
    return err.toString(StandardCharsets.UTF_8).strip();
  }
}
