package dev.freshet.jdbc;

import com.tngtech.archunit.lang.ArchRule;
import dev.freshet.testkit.ArchitectureCheck;
import dev.freshet.testkit.archfixture.Breaches;
import dev.freshet.testkit.archfixture.lower.Lower;
import dev.freshet.testkit.archfixture.upper.Upper;
import java.util.List;

/**
 * The embedded driver's architecture (STYLE.md §1), checked on its production classes: the
 * server is built on the driver, so the driver knows no server; and its packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest extends ArchitectureCheck {
  static final ArchRule DRIVER_KNOWS_NO_SERVER = knowsNo("dev.freshet.server..");
  static final ArchRule DRIVER_PACKAGES_FORM_NO_CYCLE = packagesFormNoCycle();

  /** Every rule checked, with classes that break it. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(DRIVER_KNOWS_NO_SERVER, Breaches.KnowsServer.class),
      new Breach(DRIVER_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  ArchitectureTest() {
    super(FreshetDriver.class, "dev.freshet.jdbc", BREACHES);
  }
}
