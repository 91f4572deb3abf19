package dev.freshet.common;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import dev.freshet.common.errors.SqlState;
import dev.freshet.testkit.ArchitectureCheck;
import dev.freshet.testkit.archfixture.Breaches;
import java.util.List;

/**
 * The common module's architecture: it is the bottom of the module graph, so every other module
 * may use it and it uses none of them, and it needs no library either (a module that only wants
 * an SQLSTATE must not inherit Calcite or Jackson through it).
 */
class ArchitectureTest extends ArchitectureCheck {
  static final ArchRule COMMON_KNOWS_NO_OTHER_MODULE =
      knowsNoneBut("dev.freshet..", "dev.freshet.common..");
  static final ArchRule COMMON_KNOWS_NO_LIBRARY = noClasses().should().dependOnClassesThat(
      resideOutsideOfPackages("java..", "dev.freshet.common.."));

  private static final List<Breach> BREACHES = List.of(
      new Breach(COMMON_KNOWS_NO_OTHER_MODULE, Breaches.KnowsPlanner.class),
      new Breach(COMMON_KNOWS_NO_LIBRARY, Breaches.KnowsCalcite.class),
      new Breach(COMMON_KNOWS_NO_LIBRARY, Breaches.KnowsPlanner.class));

  ArchitectureTest() {
    super(SqlState.class, "dev.freshet.common", BREACHES);
  }
}
