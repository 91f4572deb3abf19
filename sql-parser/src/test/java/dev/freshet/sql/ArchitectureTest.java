package dev.freshet.sql;

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
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.archfixture.Breaches;
import dev.freshet.sql.archfixture.lower.Lower;
import dev.freshet.sql.archfixture.upper.Upper;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The SQL parser's architecture (STYLE.md §1), checked on its production classes, the generated
 * parser included: it turns text into Calcite's SQL trees and knows no other Freshet module; and
 * its packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest {
  static final ArchRule SQL_PARSER_KNOWS_NO_OTHER_MODULE = knowsNo("dev.freshet.executor..",
      "dev.freshet.planner..", "dev.freshet.engine..", "dev.freshet.jdbc..",
      "dev.freshet.server..");
  static final ArchRule SQL_PARSER_PACKAGES_FORM_NO_CYCLE =
      slices().matching("dev.freshet.(**)").should().beFreeOfCycles();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(SQL_PARSER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsExecutor.class),
      new Breach(SQL_PARSER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsPlanner.class),
      new Breach(SQL_PARSER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsEngine.class),
      new Breach(SQL_PARSER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsJdbcDriver.class),
      new Breach(SQL_PARSER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsServer.class),
      new Breach(SQL_PARSER_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  /** The SQL parser's production classes: its build output, no tests, no fixtures. */
  private static final JavaClasses SQL_PARSER = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importUrl(FreshetSqlParser.class.getProtectionDomain().getCodeSource().getLocation());

  @TestFactory Stream<DynamicTest> shouldHoldForTheParsersClasses() {
    return BREACHES.stream().map(Breach::rule).distinct()
        .map(rule -> dynamicTest(rule.getDescription(), () -> rule.check(SQL_PARSER)));
  }

  @TestFactory Stream<DynamicTest> shouldFailForClassesThatBreakIt() {
    return BREACHES.stream().map(breach -> dynamicTest(
        breach.rule().getDescription() + " <- " + breach.classes().get(0).getSimpleName(),
        breach::assertFails));
  }

  @Test void shouldImportTheProductionClassesOnly() {
    assertTrue(SQL_PARSER.contain(FreshetSqlParser.class));
    assertFalse(SQL_PARSER.contain(ArchitectureTest.class));
    assertEquals(List.of(), SQL_PARSER.stream()
        .map(JavaClass::getName)
        .filter(name -> !name.startsWith("dev.freshet.sql.")
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
