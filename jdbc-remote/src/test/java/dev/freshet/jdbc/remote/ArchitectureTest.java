package dev.freshet.jdbc.remote;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
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
import dev.freshet.jdbc.remote.FreshetRemoteDriver;
import dev.freshet.jdbc.remote.archfixture.Breaches;
import dev.freshet.jdbc.remote.archfixture.lower.Lower;
import dev.freshet.jdbc.remote.archfixture.upper.Upper;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The remote driver's architecture (STYLE.md §1), checked on its production classes: a BI tool
 * loads it alone, so it uses nothing of Freshet but itself and nothing of Calcite but Avatica's
 * client, and no Janino or H2; and its packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest {
  static final ArchRule REMOTE_DRIVER_KNOWS_NO_OTHER_MODULE =
      knowsNoneBut("dev.freshet..", "dev.freshet.jdbc.remote..");
  static final ArchRule REMOTE_DRIVER_KNOWS_AVATICA_ONLY_OF_CALCITE =
      knowsNoneBut("org.apache.calcite..", "org.apache.calcite.avatica..");
  static final ArchRule REMOTE_DRIVER_KNOWS_NO_JANINO_OR_H2 = knowsNo("org.codehaus..", "org.h2..");
  static final ArchRule REMOTE_DRIVER_PACKAGES_FORM_NO_CYCLE =
      slices().matching("dev.freshet.(**)").should().beFreeOfCycles();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(REMOTE_DRIVER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsEmbeddedDriver.class),
      new Breach(REMOTE_DRIVER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsEngine.class),
      new Breach(REMOTE_DRIVER_KNOWS_AVATICA_ONLY_OF_CALCITE, Breaches.KnowsCalcite.class),
      new Breach(REMOTE_DRIVER_KNOWS_NO_JANINO_OR_H2, Breaches.KnowsJanino.class),
      new Breach(REMOTE_DRIVER_KNOWS_NO_JANINO_OR_H2, Breaches.KnowsH2.class),
      new Breach(REMOTE_DRIVER_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  /** The remote driver's production classes: its build output, no tests, no fixtures. */
  private static final JavaClasses REMOTE_DRIVER = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importUrl(FreshetRemoteDriver.class.getProtectionDomain().getCodeSource().getLocation());

  @TestFactory Stream<DynamicTest> shouldHoldForTheRemoteDriversClasses() {
    return BREACHES.stream().map(Breach::rule).distinct()
        .map(rule -> dynamicTest(rule.getDescription(), () -> rule.check(REMOTE_DRIVER)));
  }

  @TestFactory Stream<DynamicTest> shouldFailForClassesThatBreakIt() {
    return BREACHES.stream().map(breach -> dynamicTest(
        breach.rule().getDescription() + " <- " + breach.classes().get(0).getSimpleName(),
        breach::assertFails));
  }

  @Test void shouldImportTheProductionClassesOnly() {
    assertTrue(REMOTE_DRIVER.contain(FreshetRemoteDriver.class));
    assertFalse(REMOTE_DRIVER.contain(ArchitectureTest.class));
    assertEquals(List.of(), REMOTE_DRIVER.stream()
        .map(JavaClass::getName)
        .filter(name -> !name.startsWith("dev.freshet.jdbc.remote.")
            || name.contains(".archfixture."))
        .collect(Collectors.toList()));
  }

  private static ArchRule knowsNo(String... packages) {
    return noClasses().should().dependOnClassesThat().resideInAnyPackage(packages);
  }

  /** No class may depend on a class in {@code packages} unless it is also in {@code allowed}. */
  private static ArchRule knowsNoneBut(String packages, String allowed) {
    return noClasses().should().dependOnClassesThat(
        resideInAPackage(packages).and(resideOutsideOfPackage(allowed)));
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
