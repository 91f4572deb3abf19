package dev.freshet.engine;

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
import dev.freshet.engine.Engine;
import dev.freshet.engine.archfixture.Breaches;
import dev.freshet.engine.archfixture.lower.Lower;
import dev.freshet.engine.archfixture.upper.Upper;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The engine's architecture (STYLE.md §1), checked on its production classes: the drivers and
 * the server sit on top of it, so it knows neither them nor the wire protocol; its subpackages
 * ({@code store}, {@code query}, {@code push}, {@code options}) serve the root package and never
 * use it; and its packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest {
  static final ArchRule ENGINE_KNOWS_NO_DRIVER_OR_SERVER =
      knowsNo("dev.freshet.jdbc..", "dev.freshet.server..");
  static final ArchRule ENGINE_KNOWS_NO_WIRE =
      knowsNo("org.apache.calcite.avatica.remote..", "org.eclipse.jetty..");
  static final ArchRule ENGINE_SUBPACKAGES_KNOW_NO_ROOT = noClasses()
      .that().resideOutsideOfPackage("dev.freshet.engine")
      .should().dependOnClassesThat().resideInAPackage("dev.freshet.engine");
  static final ArchRule ENGINE_PACKAGES_FORM_NO_CYCLE =
      slices().matching("dev.freshet.(**)").should().beFreeOfCycles();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(ENGINE_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsJdbcDriver.class),
      new Breach(ENGINE_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsServer.class),
      new Breach(ENGINE_KNOWS_NO_WIRE, Breaches.KnowsAvaticaRemote.class),
      new Breach(ENGINE_KNOWS_NO_WIRE, Breaches.KnowsJetty.class),
      new Breach(ENGINE_SUBPACKAGES_KNOW_NO_ROOT, Breaches.KnowsTheRoot.class),
      new Breach(ENGINE_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  /** The engine's production classes: its build output, no tests, no fixtures. */
  private static final JavaClasses ENGINE = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importUrl(Engine.class.getProtectionDomain().getCodeSource().getLocation());

  @TestFactory Stream<DynamicTest> shouldHoldForTheEnginesClasses() {
    return BREACHES.stream().map(Breach::rule).distinct()
        .map(rule -> dynamicTest(rule.getDescription(), () -> rule.check(ENGINE)));
  }

  @TestFactory Stream<DynamicTest> shouldFailForClassesThatBreakIt() {
    return BREACHES.stream().map(breach -> dynamicTest(
        breach.rule().getDescription() + " <- " + breach.classes().get(0).getSimpleName(),
        breach::assertFails));
  }

  @Test void shouldImportTheProductionClassesOnly() {
    assertTrue(ENGINE.contain(Engine.class));
    assertFalse(ENGINE.contain(ArchitectureTest.class));
    assertEquals(List.of(), ENGINE.stream()
        .map(JavaClass::getName)
        .filter(name -> !name.startsWith("dev.freshet.engine.")
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
