package dev.freshet.jdbc.remote;

import com.tngtech.archunit.lang.ArchRule;
import dev.freshet.testkit.ArchitectureCheck;
import dev.freshet.testkit.archfixture.Breaches;
import dev.freshet.testkit.archfixture.lower.Lower;
import dev.freshet.testkit.archfixture.upper.Upper;
import java.util.List;

/**
 * The remote driver's architecture (STYLE.md §1), checked on its production classes: a BI tool
 * loads it alone, so it uses nothing of Freshet but itself and nothing of Calcite but Avatica's
 * client, and no Janino or H2; and its packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest extends ArchitectureCheck {
  static final ArchRule REMOTE_DRIVER_KNOWS_NO_OTHER_MODULE =
      knowsNoneBut("dev.freshet..", "dev.freshet.jdbc.remote..");
  static final ArchRule REMOTE_DRIVER_KNOWS_AVATICA_ONLY_OF_CALCITE =
      knowsNoneBut("org.apache.calcite..", "org.apache.calcite.avatica..");
  static final ArchRule REMOTE_DRIVER_KNOWS_NO_JANINO_OR_H2 = knowsNo("org.codehaus..", "org.h2..");
  static final ArchRule REMOTE_DRIVER_PACKAGES_FORM_NO_CYCLE = packagesFormNoCycle();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(REMOTE_DRIVER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsJdbcDriver.class),
      new Breach(REMOTE_DRIVER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsEngine.class),
      new Breach(REMOTE_DRIVER_KNOWS_AVATICA_ONLY_OF_CALCITE, Breaches.KnowsCalcite.class),
      new Breach(REMOTE_DRIVER_KNOWS_NO_JANINO_OR_H2, Breaches.KnowsJanino.class),
      new Breach(REMOTE_DRIVER_KNOWS_NO_JANINO_OR_H2, Breaches.KnowsH2.class),
      new Breach(REMOTE_DRIVER_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  ArchitectureTest() {
    super(FreshetRemoteDriver.class, "dev.freshet.jdbc.remote", BREACHES);
  }
}
