package dev.freshet.testkit;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static java.util.Objects.requireNonNull;
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
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * A module's architecture check: its import rules, each run on the module's production classes
 * and on fixture classes that break it, which proves that the rule can still fail.
 *
 * <p>A module's test names its rules and, for each, classes that break it:
 *
 * <pre>{@code
 * class ArchitectureTest extends ArchitectureCheck {
 *   static final ArchRule PLANNER_KNOWS_NO_H2 = knowsNo("org.h2..");
 *
 *   ArchitectureTest() {
 *     super(FreshetPlanner.class, "dev.freshet.planner",
 *         List.of(new Breach(PLANNER_KNOWS_NO_H2, Breaches.KnowsH2.class)));
 *   }
 * }
 * }</pre>
 *
 * <p>The module's classes are imported from the build output that holds {@code anchor}, without
 * tests, so that fixture classes (in a package {@code archfixture}) never reach the real check.
 * The fixtures most rules need are testkit's {@link dev.freshet.testkit.archfixture.Breaches},
 * with stand-ins for the packages a module's classpath lacks.
 */
public abstract class ArchitectureCheck {
  private final Class<?> anchor;
  private final String rootPackage;
  private final List<Breach> breaches;
  private final JavaClasses production;

  /**
   * @param anchor any production class of the module
   * @param rootPackage the package every production class of the module is in or below
   * @param breaches every rule checked, each with classes that break it
   */
  protected ArchitectureCheck(Class<?> anchor, String rootPackage, List<Breach> breaches) {
    this.anchor = requireNonNull(anchor, "anchor");
    this.rootPackage = requireNonNull(rootPackage, "rootPackage");
    this.breaches = List.copyOf(breaches);
    this.production = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importUrl(anchor.getProtectionDomain().getCodeSource().getLocation());
  }

  /** No class may depend on a class in any of {@code packages} (ArchUnit's package syntax). */
  public static ArchRule knowsNo(String... packages) {
    return noClasses().should().dependOnClassesThat().resideInAnyPackage(packages);
  }

  /** No class may depend on a class in {@code packages} unless it is also in {@code allowed}. */
  public static ArchRule knowsNoneBut(String packages, String allowed) {
    return noClasses().should().dependOnClassesThat(
        resideInAPackage(packages).and(resideOutsideOfPackage(allowed)));
  }

  /** Only classes in {@code owners} may depend on classes in {@code packages}. */
  public static ArchRule onlyKnow(String owners, String packages) {
    return noClasses().that().resideOutsideOfPackage(owners)
        .should().dependOnClassesThat().resideInAPackage(packages);
  }

  /** The module's packages (each with its subpackages' classes apart) form no cycle. */
  public static ArchRule packagesFormNoCycle() {
    return slices().matching("dev.freshet.(**)").should().beFreeOfCycles();
  }

  @TestFactory public Stream<DynamicTest> shouldHoldForTheModulesClasses() {
    return breaches.stream().map(Breach::rule).distinct()
        .map(rule -> dynamicTest(rule.getDescription(), () -> rule.check(production)));
  }

  @TestFactory public Stream<DynamicTest> shouldFailForClassesThatBreakIt() {
    return breaches.stream().map(breach -> dynamicTest(
        breach.rule().getDescription() + " <- " + breach.classes().get(0).getSimpleName(),
        breach::assertFails));
  }

  @Test public void shouldImportTheProductionClassesOnly() {
    assertTrue(production.contain(anchor), anchor + " not imported");
    assertFalse(production.contain(getClass()), "the test itself was imported");
    assertEquals(List.of(), production.stream()
        .map(JavaClass::getName)
        .filter(name -> !name.startsWith(rootPackage + ".") && !isAllowedOutside(name)
            || name.contains(".archfixture."))
        .collect(Collectors.toList()));
  }

  /**
   * Whether a production class may live outside the root package; none may unless a module says
   * why (say, a class that must sit in a library's package to reach its package-private hooks).
   */
  protected boolean isAllowedOutside(String className) {
    return false;
  }

  /**
   * A rule with classes that break it.
   *
   * @param classes the classes the rule is evaluated on; the first must be reported
   */
  public record Breach(ArchRule rule, List<Class<?>> classes) {
    public Breach(ArchRule rule, Class<?>... classes) {
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
