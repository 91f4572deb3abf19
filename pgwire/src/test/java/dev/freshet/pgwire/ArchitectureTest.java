package dev.freshet.pgwire;

import com.tngtech.archunit.lang.ArchRule;
import dev.freshet.testkit.ArchitectureCheck;
import dev.freshet.testkit.archfixture.Breaches;
import dev.freshet.testkit.archfixture.lower.Lower;
import dev.freshet.testkit.archfixture.upper.Upper;
import java.util.List;

/**
 * The PostgreSQL endpoint's architecture (STYLE.md §1), checked on its production classes: it
 * sits beside the drivers on top of the engine, so it knows neither the JDBC drivers nor the
 * server that starts it, nor Avatica's wire protocol or Jetty (the server hands it the users
 * file as a {@code PgAuthenticator}); and its packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest extends ArchitectureCheck {
  static final ArchRule PGWIRE_KNOWS_NO_DRIVER_OR_SERVER =
      knowsNo("dev.freshet.jdbc..", "dev.freshet.server..");
  static final ArchRule PGWIRE_KNOWS_NO_AVATICA_WIRE_OR_JETTY =
      knowsNo("org.apache.calcite.avatica.remote..", "org.eclipse.jetty..");
  static final ArchRule PGWIRE_PACKAGES_FORM_NO_CYCLE = packagesFormNoCycle();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(PGWIRE_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsJdbcDriver.class),
      new Breach(PGWIRE_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsServer.class),
      new Breach(PGWIRE_KNOWS_NO_AVATICA_WIRE_OR_JETTY, Breaches.KnowsAvaticaRemote.class),
      new Breach(PGWIRE_KNOWS_NO_AVATICA_WIRE_OR_JETTY, Breaches.KnowsJetty.class),
      new Breach(PGWIRE_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  ArchitectureTest() {
    super(PgServer.class, "dev.freshet.pgwire", BREACHES);
  }
}
