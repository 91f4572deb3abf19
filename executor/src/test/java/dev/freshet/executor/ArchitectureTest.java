package dev.freshet.executor;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.freshet.executor.archfixture.Breaches;
import dev.freshet.executor.archfixture.lower.Lower;
import dev.freshet.executor.archfixture.upper.Upper;
import dev.freshet.executor.runtime.MicroBatchExecution;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The executor's architecture (STYLE.md §1), checked on its production classes: it runs plans
 * that the planner built, so it knows no Calcite, no SQL text and no JDBC; only the state store
 * providers know H2; and its packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest {
  static final ArchRule EXECUTOR_KNOWS_NO_CALCITE = knowsNo("org.apache.calcite..");
  static final ArchRule EXECUTOR_KNOWS_NO_JDBC = knowsNo("java.sql..", "javax.sql..");
  static final ArchRule EXECUTOR_KNOWS_NO_MODULE_ABOVE = knowsNo("dev.freshet.planner..",
      "dev.freshet.engine..", "dev.freshet.jdbc..", "dev.freshet.server..");
  static final ArchRule EXECUTOR_PARSES_NO_SQL = knowsNo("dev.freshet.sql..");
  static final ArchRule ONLY_STATE_INTERNALS_KNOW_H2 = noClasses()
      .that().resideOutsideOfPackage("dev.freshet.executor.state.internals..")
      .should().dependOnClassesThat().resideInAPackage("org.h2..");
  static final ArchRule EXECUTOR_PACKAGES_FORM_NO_CYCLE =
      slices().matching("dev.freshet.(**)").should().beFreeOfCycles();

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
      new Breach(ONLY_STATE_INTERNALS_KNOW_H2, Breaches.KnowsH2.class),
      new Breach(EXECUTOR_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  /** The executor's production classes: its build output, no tests, no fixtures. */
  private static final JavaClasses EXECUTOR = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importUrl(MicroBatchExecution.class.getProtectionDomain().getCodeSource().getLocation());

  @TestFactory Stream<DynamicTest> shouldHoldForTheExecutorsClasses() {
    return BREACHES.stream().map(Breach::rule).distinct()
        .map(rule -> dynamicTest(rule.getDescription(), () -> rule.check(EXECUTOR)));
  }

  @TestFactory Stream<DynamicTest> shouldFailForClassesThatBreakIt() {
    return BREACHES.stream().map(breach -> dynamicTest(
        breach.rule().getDescription() + " <- " + breach.classes().get(0).getSimpleName(),
        breach::assertFails));
  }

  @Test void shouldImportTheProductionClassesOnly() {
    assertTrue(EXECUTOR.contain(MicroBatchExecution.class));
    assertFalse(EXECUTOR.contain(ArchitectureTest.class));
    assertEquals(List.of(), EXECUTOR.stream()
        .map(JavaClass::getName)
        .filter(name -> !name.startsWith("dev.freshet.executor.")
            || name.contains(".archfixture."))
        .collect(Collectors.toList()));
  }

  private static ArchRule knowsNo(String... packages) {
    return noClasses().should().dependOnClassesThat().resideInAnyPackage(packages);
  }

  /** A rule with classes that break it. */
  private record Breach(ArchRule rule, List<Class<?>> classes) {
    Breach(ArchRule rule, Class<?>... classes) {
      this(rule, List.of(classes));
    }

    /** Asserts that the rule reports a violation by the first class, not only that it failed. */
    void assertFails() {
      EvaluationResult result = rule.evaluate(new ClassFileImporter().importClasses(classes));
      String report = result.getFailureReport().toString();
      assertTrue(result.hasViolation(), "no violation of " + rule.getDescription());
      assertTrue(report.contains("<" + classes.get(0).getName()), report);
    }
  }
}
