package dev.freshet.spark;

import com.tngtech.archunit.lang.ArchRule;
import dev.freshet.testkit.ArchitectureCheck;
import dev.freshet.testkit.SparkTest;
import dev.freshet.testkit.archfixture.Breaches;
import dev.freshet.testkit.archfixture.lower.Lower;
import dev.freshet.testkit.archfixture.upper.Upper;
import java.util.List;

/**
 * The architecture of Freshet on Spark (STYLE.md §1), checked on its production classes: it sits
 * beside the engine, under the JDBC driver and the server, so it knows neither; it talks to the
 * engine through the view runner SPI ({@code engine.spi}) and reports in the SPI's types, so it
 * knows nothing of the executor's runtime ({@code StreamExecution}, {@code StreamingQuery},
 * {@code StreamingQueryProgress}); its packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail.
 */
@SparkTest
class ArchitectureTest extends ArchitectureCheck {
  static final ArchRule SPARK_KNOWS_NO_DRIVER_OR_SERVER =
      knowsNo("dev.freshet.jdbc..", "dev.freshet.server..");
  static final ArchRule SPARK_KNOWS_NO_EXECUTOR_RUNTIME =
      knowsNo("dev.freshet.executor.runtime..");
  static final ArchRule SPARK_KNOWS_NO_CALCITE_PLAN =
      knowsNo("org.apache.calcite..", "dev.freshet.planner.rel..");
  static final ArchRule SPARK_PACKAGES_FORM_NO_CYCLE = packagesFormNoCycle();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(SPARK_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsJdbcDriver.class),
      new Breach(SPARK_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsServer.class),
      new Breach(SPARK_KNOWS_NO_EXECUTOR_RUNTIME, Breaches.KnowsExecutorRuntime.class),
      new Breach(SPARK_KNOWS_NO_CALCITE_PLAN, Breaches.KnowsCalcite.class),
      new Breach(SPARK_KNOWS_NO_CALCITE_PLAN, Breaches.KnowsPlannerRels.class),
      new Breach(SPARK_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  ArchitectureTest() {
    super(SparkPlanTranslator.class, "dev.freshet.spark", BREACHES);
  }
}
