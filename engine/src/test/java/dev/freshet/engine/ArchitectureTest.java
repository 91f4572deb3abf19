package dev.freshet.engine;

import com.tngtech.archunit.lang.ArchRule;
import dev.freshet.engine.archfixture.KnowsHikari;
import dev.freshet.engine.archfixture.KnowsTheRoot;
import dev.freshet.testkit.ArchitectureCheck;
import dev.freshet.testkit.archfixture.Breaches;
import dev.freshet.testkit.archfixture.lower.Lower;
import dev.freshet.testkit.archfixture.upper.Upper;
import java.util.List;

/**
 * The engine's architecture (STYLE.md §1), checked on its production classes: the drivers and
 * the server sit on top of it, so it knows neither them nor the wire protocols (Avatica's,
 * and the PostgreSQL endpoint with its Netty); its subpackages
 * ({@code store}, {@code query}, {@code push}, {@code options}) serve the root package and never
 * use it; it makes state stores only through the executor's public state API
 * ({@code StateStoreProviders}, {@code StateStoreProviderFactory}), never naming a class of
 * {@code executor.state.internals}; it holds no connector's client (kafka-clients, HikariCP:
 * tables and sinks reach them through the {@code connectors} module); and its packages form no
 * cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest extends ArchitectureCheck {
  static final ArchRule ENGINE_KNOWS_NO_DRIVER_OR_SERVER =
      knowsNo("dev.freshet.jdbc..", "dev.freshet.server..");
  static final ArchRule ENGINE_KNOWS_NO_WIRE =
      knowsNo("org.apache.calcite.avatica.remote..", "org.eclipse.jetty..");
  static final ArchRule ENGINE_KNOWS_NO_POSTGRES_ENDPOINT =
      knowsNo("dev.freshet.pgwire..", "io.netty..");
  static final ArchRule ENGINE_SUBPACKAGES_KNOW_NO_ROOT =
      onlyKnow("dev.freshet.engine", "dev.freshet.engine");
  static final ArchRule ENGINE_KNOWS_NO_STATE_INTERNALS =
      knowsNo("dev.freshet.executor.state.internals..");
  static final ArchRule ENGINE_HOLDS_NO_CONNECTOR_CLIENT =
      knowsNo("org.apache.kafka..", "com.zaxxer.hikari..");
  static final ArchRule ENGINE_PACKAGES_FORM_NO_CYCLE = packagesFormNoCycle();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(ENGINE_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsJdbcDriver.class),
      new Breach(ENGINE_KNOWS_NO_DRIVER_OR_SERVER, Breaches.KnowsServer.class),
      new Breach(ENGINE_KNOWS_NO_WIRE, Breaches.KnowsAvaticaRemote.class),
      new Breach(ENGINE_KNOWS_NO_WIRE, Breaches.KnowsJetty.class),
      new Breach(ENGINE_KNOWS_NO_POSTGRES_ENDPOINT, Breaches.KnowsPgwire.class),
      new Breach(ENGINE_KNOWS_NO_POSTGRES_ENDPOINT, Breaches.KnowsNetty.class),
      new Breach(ENGINE_SUBPACKAGES_KNOW_NO_ROOT, KnowsTheRoot.class),
      new Breach(ENGINE_KNOWS_NO_STATE_INTERNALS, Breaches.KnowsStateInternals.class),
      new Breach(ENGINE_HOLDS_NO_CONNECTOR_CLIENT, Breaches.KnowsKafka.class),
      new Breach(ENGINE_HOLDS_NO_CONNECTOR_CLIENT, KnowsHikari.class),
      new Breach(ENGINE_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  ArchitectureTest() {
    super(Engine.class, "dev.freshet.engine", BREACHES);
  }
}
