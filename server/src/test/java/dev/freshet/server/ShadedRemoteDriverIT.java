package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.awaitView;
import static dev.freshet.server.RemoteTesting.read;
import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shaded jdbc-remote jar alone, as a BI tool loads it: a class loader holding that one file
 * over the JDK's own classes (nothing of this test's class path), against a real server.
 * Failsafe runs it after {@code package}: Maven copies the jar that jdbc-remote's {@code package}
 * built to {@code target/remote-driver/} and names it in {@code freshet.remoteDriverJar}.
 */
class ShadedRemoteDriverIT {
  private static final String DRIVER = "dev.freshet.jdbc.remote.FreshetRemoteDriver";

  private static FreshetServer server;
  private static URLClassLoader driverJar;
  private static Driver driver;

  private final String stream = uniqueName("clicks");
  private Connection writer;
  private Connection reader;

  @BeforeAll static void loadTheDriverAloneAndStartAServer() throws Exception {
    String property = System.getProperty("freshet.remoteDriverJar");
    assertNotNull(property, "freshet.remoteDriverJar is not set: run through Maven (verify)");
    Path jar = Path.of(property);
    assertTrue(Files.isRegularFile(jar), jar + " is missing: jdbc-remote's package builds it");
    driverJar = new URLClassLoader("freshet-jdbc-remote", new URL[] {jar.toUri().toURL()},
        ClassLoader.getPlatformClassLoader());
    driver = ServiceLoader.load(Driver.class, driverJar).stream()
        .filter(provider -> provider.type().getName().equals(DRIVER))
        .map(ServiceLoader.Provider::get)
        .findFirst()
        .orElseThrow(() -> new AssertionError(jar + " registers no " + DRIVER));
    server = FreshetServer.builder().port(0).start();
  }

  @AfterAll static void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
    if (driverJar != null) {
      driverJar.close();
    }
  }

  @BeforeEach void connect() throws SQLException {
    String url = "jdbc:freshet:remote:url=http://127.0.0.1:" + server.port();
    writer = driver.connect(url, new Properties());
    reader = driver.connect(url, new Properties());
    try (Statement s = writer.createStatement()) {
      assertEquals(0, s.executeUpdate("CREATE STREAM " + stream
          + " (user_id VARCHAR, amount DOUBLE) WITH (connector = 'memory')"));
    }
  }

  @AfterEach void close() throws SQLException {
    reader.close();
    writer.close();
  }

  @Test void shouldComeFromTheJarAloneWithNoServerOrEngineClassBeside() throws Exception {
    assertSame(driverJar, driver.getClass().getClassLoader());
    assertSame(driverJar, writer.getClass().getClassLoader());
    // The driver finds its libraries in the jar, relocated; nothing else is there to be found.
    for (String absent : List.of("dev.freshet.engine.Engine", "dev.freshet.server.FreshetServer",
        "org.apache.calcite.avatica.server.HttpServer", "org.apache.calcite.sql.SqlNode",
        "org.h2.Driver", "org.codehaus.janino.Java", "com.google.protobuf.Message",
        "org.apache.hc.client5.http.classic.HttpClient", "org.slf4j.LoggerFactory")) {
      assertThrows(ClassNotFoundException.class, () -> Class.forName(absent, false, driverJar),
          absent);
    }
  }

  @Test void shouldReturnTheChangedRowsOfAPushQuery() throws Exception {
    try (Statement query = reader.createStatement();
         ResultSet rs = query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n,"
             + " SUM(amount) AS total FROM " + stream + " GROUP BY user_id EMIT UPDATE");
         Statement insert = writer.createStatement()) {
      assertEquals(2, insert.executeUpdate("INSERT INTO " + stream
          + " VALUES ('a', 1), ('b', 2)"));
      assertEquals(Set.of(List.of("a", 1L, 1.0, 0L, "INSERT"),
          List.of("b", 1L, 2.0, 0L, "INSERT")), Set.copyOf(read(rs, 2)));

      assertEquals(1, insert.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 3)"));
      // Only the group that changed, as soon as its batch ran: no later row pushes it out.
      assertEquals(List.of(List.of("a", 2L, 4.0, 1L, "UPDATE")), read(rs, 1));
    }
  }

  @Test void shouldAnswerAPullQueryOverAMaterializedView() throws Exception {
    String view = uniqueName("totals");
    try (Statement s = writer.createStatement()) {
      assertEquals(0, s.executeUpdate("CREATE MATERIALIZED VIEW " + view + " AS SELECT user_id,"
          + " COUNT(*) AS n, SUM(amount) AS total FROM " + stream
          + " GROUP BY user_id EMIT UPDATE"));
      s.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 1), ('b', 20), ('c', 5)");
      s.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 2), ('c', 1)");
    }
    awaitView(server, view);
    try (Statement s = reader.createStatement()) {
      assertEquals(List.of(List.of("a", 2L, 3.0), List.of("b", 1L, 20.0),
          List.of("c", 2L, 6.0)), readAll(s.executeQuery(
          "SELECT user_id, n, total FROM " + view + " ORDER BY user_id")));
    }
  }
}
