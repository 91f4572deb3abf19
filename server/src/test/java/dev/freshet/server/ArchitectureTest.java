package dev.freshet.server;

import com.tngtech.archunit.lang.ArchRule;
import dev.freshet.testkit.ArchitectureCheck;
import dev.freshet.testkit.archfixture.Breaches;
import dev.freshet.testkit.archfixture.lower.Lower;
import dev.freshet.testkit.archfixture.upper.Upper;
import java.util.List;
import sqlline.FreshetSqlLine;

/**
 * The server's architecture, checked on its production classes: it sits on top of every other
 * module and reads queries through the engine's API, never the executor's runtime (metrics come
 * from {@code dev.freshet.engine.query.QueryMonitor}); and its packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest extends ArchitectureCheck {
  static final ArchRule SERVER_KNOWS_NO_EXECUTOR_RUNTIME =
      knowsNo("dev.freshet.executor.runtime..");
  static final ArchRule SERVER_PACKAGES_FORM_NO_CYCLE = packagesFormNoCycle();

  /** Every rule checked, with classes that break it. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(SERVER_KNOWS_NO_EXECUTOR_RUNTIME, Breaches.KnowsExecutorRuntime.class),
      new Breach(SERVER_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  ArchitectureTest() {
    super(FreshetServer.class, "dev.freshet.server", BREACHES);
  }

  /** The console's sqlline, in sqlline's package for its package-private hooks. */
  @Override protected boolean isAllowedOutside(String className) {
    return className.equals(FreshetSqlLine.class.getName())
        || className.startsWith(FreshetSqlLine.class.getName() + "$");
  }
}
