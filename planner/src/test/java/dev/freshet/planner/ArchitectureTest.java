package dev.freshet.planner;

import com.tngtech.archunit.lang.ArchRule;
import dev.freshet.testkit.ArchitectureCheck;
import dev.freshet.testkit.archfixture.Breaches;
import dev.freshet.testkit.archfixture.lower.Lower;
import dev.freshet.testkit.archfixture.upper.Upper;
import java.util.List;

/**
 * The planner's architecture (STYLE.md §1), checked on its production classes: it turns parsed
 * SQL into exec plans, so it knows no engine (sessions, catalog store, DDL), no driver or server,
 * no JDBC, no H2 and no wire protocol; it makes state stores only through the executor's public
 * state API, never naming a provider of {@code executor.state.internals}; and its packages form
 * no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest extends ArchitectureCheck {
  static final ArchRule PLANNER_KNOWS_NO_ENGINE = knowsNo("dev.freshet.engine..");
  static final ArchRule PLANNER_KNOWS_NO_DRIVER_OR_SERVER =
      knowsNo("dev.freshet.jdbc..", "dev.freshet.server..");
  static final ArchRule PLANNER_KNOWS_NO_H2 = knowsNo("org.h2..");
  /** Planning errors are PlanningExceptions; the engine turns them into SQLExceptions. */
  static final ArchRule PLANNER_KNOWS_NO_JDBC = knowsNo("java.sql..", "javax.sql..");
  static final ArchRule PLANNER_KNOWS_NO_WIRE =
      knowsNo("org.apache.calcite.avatica.remote..", "org.eclipse.jetty..");
  static final ArchRule PLANNER_KNOWS_NO_STATE_INTERNALS =
      knowsNo("dev.freshet.executor.state.internals..");
  static final ArchRule PLANNER_PACKAGES_FORM_NO_CYCLE = packagesFormNoCycle();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(PLANNER_KNOWS_NO_ENGINE, Breaches.KnowsEngine.class),
      new Breach(PLANNER_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsJdbcDriver.class),
      new Breach(PLANNER_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsServer.class),
      new Breach(PLANNER_KNOWS_NO_H2, Breaches.KnowsH2.class),
      new Breach(PLANNER_KNOWS_NO_JDBC, Breaches.KnowsJdbc.class),
      new Breach(PLANNER_KNOWS_NO_WIRE, Breaches.KnowsAvaticaRemote.class),
      new Breach(PLANNER_KNOWS_NO_WIRE, Breaches.KnowsJetty.class),
      new Breach(PLANNER_KNOWS_NO_STATE_INTERNALS, Breaches.KnowsStateInternals.class),
      new Breach(PLANNER_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  ArchitectureTest() {
    super(FreshetPlanner.class, "dev.freshet.planner", BREACHES);
  }
}
