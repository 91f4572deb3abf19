package dev.freshet.executor;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import dev.freshet.executor.runtime.MicroBatchExecution;
import dev.freshet.testkit.ArchitectureCheck;
import dev.freshet.testkit.archfixture.Breaches;
import dev.freshet.testkit.archfixture.lower.Lower;
import dev.freshet.testkit.archfixture.upper.Upper;
import java.util.List;

/**
 * The executor's architecture (STYLE.md §1), checked on its production classes: it runs plans
 * that the planner built, so it knows no Calcite, no SQL text and no JDBC; it knows no connector
 * (Kafka, CSV: module connectors implements its source SPI); only the state store providers and
 * the storage package (MVStore's unsigned key type, which views use too) know H2; and its
 * packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest extends ArchitectureCheck {
  static final ArchRule EXECUTOR_KNOWS_NO_CALCITE = knowsNo("org.apache.calcite..");
  static final ArchRule EXECUTOR_KNOWS_NO_JDBC = knowsNo("java.sql..", "javax.sql..");
  static final ArchRule EXECUTOR_KNOWS_NO_MODULE_ABOVE = knowsNo("dev.freshet.planner..",
      "dev.freshet.engine..", "dev.freshet.jdbc..", "dev.freshet.server..");
  static final ArchRule EXECUTOR_PARSES_NO_SQL = knowsNo("dev.freshet.sql..");
  /** The connectors (module connectors) build on the executor's source SPI, not it on them. */
  static final ArchRule EXECUTOR_KNOWS_NO_CONNECTOR = knowsNo("org.apache.kafka..",
      "com.fasterxml.jackson.dataformat.csv..", "dev.freshet.connectors..");
  static final ArchRule ONLY_STATE_INTERNALS_KNOW_H2 = noClasses().that()
      .resideOutsideOfPackages("dev.freshet.executor.state.internals..",
          "dev.freshet.executor.storage..")
      .should().dependOnClassesThat().resideInAPackage("org.h2..");
  static final ArchRule EXECUTOR_PACKAGES_FORM_NO_CYCLE = packagesFormNoCycle();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(EXECUTOR_KNOWS_NO_CALCITE, Breaches.KnowsCalcite.class),
      new Breach(EXECUTOR_KNOWS_NO_JDBC, Breaches.KnowsJdbc.class),
      new Breach(EXECUTOR_KNOWS_NO_JDBC, Breaches.KnowsDataSource.class),
      new Breach(EXECUTOR_KNOWS_NO_MODULE_ABOVE, Breaches.KnowsPlanner.class),
      new Breach(EXECUTOR_KNOWS_NO_MODULE_ABOVE, Breaches.KnowsEngine.class),
      new Breach(EXECUTOR_KNOWS_NO_MODULE_ABOVE, Breaches.KnowsJdbcDriver.class),
      new Breach(EXECUTOR_KNOWS_NO_MODULE_ABOVE, Breaches.KnowsServer.class),
      new Breach(EXECUTOR_PARSES_NO_SQL, Breaches.ParsesSql.class),
      new Breach(EXECUTOR_KNOWS_NO_CONNECTOR, Breaches.KnowsKafka.class),
      new Breach(EXECUTOR_KNOWS_NO_CONNECTOR, Breaches.KnowsCsv.class),
      new Breach(EXECUTOR_KNOWS_NO_CONNECTOR, Breaches.KnowsConnectors.class),
      new Breach(ONLY_STATE_INTERNALS_KNOW_H2, Breaches.KnowsH2.class),
      new Breach(EXECUTOR_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  ArchitectureTest() {
    super(MicroBatchExecution.class, "dev.freshet.executor", BREACHES);
  }
}
