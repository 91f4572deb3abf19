package dev.freshet.planner;

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
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.archfixture.Breaches;
import dev.freshet.planner.archfixture.lower.Lower;
import dev.freshet.planner.archfixture.upper.Upper;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The planner's architecture (STYLE.md §1), checked on its production classes: it turns parsed
 * SQL into exec plans, so it knows no engine (sessions, catalog store, DDL), no driver or server,
 * no JDBC, no H2 and no wire protocol; and its packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest {
  static final ArchRule PLANNER_KNOWS_NO_ENGINE = knowsNo("dev.freshet.engine..");
  static final ArchRule PLANNER_KNOWS_NO_DRIVER_OR_SERVER =
      knowsNo("dev.freshet.jdbc..", "dev.freshet.server..");
  static final ArchRule PLANNER_KNOWS_NO_H2 = knowsNo("org.h2..");
  /** Planning errors are PlanningExceptions; the engine turns them into SQLExceptions. */
  static final ArchRule PLANNER_KNOWS_NO_JDBC = knowsNo("java.sql..", "javax.sql..");
  static final ArchRule PLANNER_KNOWS_NO_WIRE =
      knowsNo("org.apache.calcite.avatica.remote..", "org.eclipse.jetty..");
  static final ArchRule PLANNER_PACKAGES_FORM_NO_CYCLE =
      slices().matching("dev.freshet.(**)").should().beFreeOfCycles();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(PLANNER_KNOWS_NO_ENGINE, Breaches.KnowsEngine.class),
      new Breach(PLANNER_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsJdbcDriver.class),
      new Breach(PLANNER_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsServer.class),
      new Breach(PLANNER_KNOWS_NO_H2, Breaches.KnowsH2.class),
      new Breach(PLANNER_KNOWS_NO_JDBC, Breaches.KnowsJdbc.class),
      new Breach(PLANNER_KNOWS_NO_WIRE, Breaches.KnowsAvaticaRemote.class),
      new Breach(PLANNER_KNOWS_NO_WIRE, Breaches.KnowsJetty.class),
      new Breach(PLANNER_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  /** The planner's production classes: its build output, no tests, no fixtures. */
  private static final JavaClasses PLANNER = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importUrl(FreshetPlanner.class.getProtectionDomain().getCodeSource().getLocation());

  @TestFactory Stream<DynamicTest> shouldHoldForThePlannersClasses() {
    return BREACHES.stream().map(Breach::rule).distinct()
        .map(rule -> dynamicTest(rule.getDescription(), () -> rule.check(PLANNER)));
  }

  @TestFactory Stream<DynamicTest> shouldFailForClassesThatBreakIt() {
    return BREACHES.stream().map(breach -> dynamicTest(
        breach.rule().getDescription() + " <- " + breach.classes().get(0).getSimpleName(),
        breach::assertFails));
  }

  @Test void shouldImportTheProductionClassesOnly() {
    assertTrue(PLANNER.contain(FreshetPlanner.class));
    assertFalse(PLANNER.contain(ArchitectureTest.class));
    assertEquals(List.of(), PLANNER.stream()
        .map(JavaClass::getName)
        .filter(name -> !name.startsWith("dev.freshet.planner.")
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
