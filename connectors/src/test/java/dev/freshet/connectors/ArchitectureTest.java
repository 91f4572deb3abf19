package dev.freshet.connectors;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import dev.freshet.connectors.kafka.KafkaTopicSource;
import dev.freshet.connectors.kafka.archfixture.KnowsNexmark;
import dev.freshet.connectors.sink.archfixture.KnowsJdbc;
import dev.freshet.testkit.ArchitectureCheck;
import dev.freshet.testkit.archfixture.Breaches;
import dev.freshet.testkit.archfixture.lower.Lower;
import dev.freshet.testkit.archfixture.upper.Upper;
import java.util.List;

/**
 * The connectors' architecture: they implement the executor's source SPI and know nothing above
 * it (no planner, engine, driver, server or Spark engine, no Calcite); each connector is one
 * package ({@code connectors.kafka}, {@code connectors.filesystem}, {@code connectors.jdbc},
 * ...) that knows no other connector's, only the record formats ({@code connectors.format}) and
 * the sink SPI ({@code connectors.sink}) they share, which know no connector; and the packages
 * form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest extends ArchitectureCheck {
  static final ArchRule CONNECTORS_KNOW_NO_MODULE_ABOVE = knowsNo("dev.freshet.planner..",
      "dev.freshet.engine..", "dev.freshet.jdbc..", "dev.freshet.server..", "dev.freshet.spark..");
  static final ArchRule CONNECTORS_KNOW_NO_CALCITE = knowsNo("org.apache.calcite..");
  /**
   * A connector's package and those below it; the shared formats and sink SPI excepted as
   * targets only: they themselves know no connector.
   */
  static final ArchRule CONNECTORS_KNOW_EACH_OTHER_NOT = slices()
      .matching("dev.freshet.connectors.(*)..").namingSlices("connector '$1'")
      .should().notDependOnEachOther()
      .ignoreDependency(alwaysTrue(), resideInAPackage("dev.freshet.connectors.format.."))
      .ignoreDependency(alwaysTrue(), resideInAPackage("dev.freshet.connectors.sink.."))
      .as("no connector depends on another (connectors.format and connectors.sink excepted)");
  static final ArchRule CONNECTORS_PACKAGES_FORM_NO_CYCLE = packagesFormNoCycle();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(CONNECTORS_KNOW_NO_MODULE_ABOVE, Breaches.KnowsPlanner.class),
      new Breach(CONNECTORS_KNOW_NO_MODULE_ABOVE, Breaches.KnowsEngine.class),
      new Breach(CONNECTORS_KNOW_NO_MODULE_ABOVE, Breaches.KnowsJdbcDriver.class),
      new Breach(CONNECTORS_KNOW_NO_MODULE_ABOVE, Breaches.KnowsServer.class),
      new Breach(CONNECTORS_KNOW_NO_MODULE_ABOVE, Breaches.KnowsSpark.class),
      new Breach(CONNECTORS_KNOW_NO_CALCITE, Breaches.KnowsCalcite.class),
      new Breach(CONNECTORS_KNOW_EACH_OTHER_NOT, KnowsNexmark.class,
          dev.freshet.connectors.nexmark.archfixture.StandIn.class),
      new Breach(CONNECTORS_KNOW_EACH_OTHER_NOT, KnowsJdbc.class,
          dev.freshet.connectors.jdbc.archfixture.StandIn.class),
      new Breach(CONNECTORS_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  ArchitectureTest() {
    super(KafkaTopicSource.class, "dev.freshet.connectors", BREACHES);
  }
}
