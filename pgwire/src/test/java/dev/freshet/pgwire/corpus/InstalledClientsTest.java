package dev.freshet.pgwire.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.freshet.testkit.clients.PostgresClients;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The real clients of acceptance 1 are installed where the tests find them, at the versions the
 * corpus was captured with: what {@code ./run-tests} installs. A missing one fails here, naming
 * its package, rather than in the middle of a conformance test.
 */
class InstalledClientsTest {
  @Test void shouldFindPsql15() {
    assertTrue(PostgresClients.psqlVersion().startsWith("psql (PostgreSQL) 15."),
        PostgresClients.psqlVersion());
  }

  @Test void shouldFindDebiansPythonWithPsycopgPsycopg2AndSqlAlchemy14() {
    String versions = PostgresClients.pythonVersions();

    assertTrue(versions.contains("psycopg 3."), versions);
    assertTrue(versions.contains("psycopg2 2."), versions);
    assertTrue(versions.contains("sqlalchemy 1.4."), versions);
  }

  @Test void shouldFindNodePostgresAtItsPinnedVersion() throws Exception {
    ObjectMapper json = new ObjectMapper();
    String pinned = json.readTree(Files.readString(Path.of(
        "src", "test", "node", "package.json"))).path("dependencies").path("pg").asText();

    String installed = json.readTree(Files.readString(PostgresClients.nodeModules()
        .resolve("pg").resolve("package.json"))).path("version").asText();

    assertEquals(pinned, installed);
    assertTrue(Files.isExecutable(PostgresClients.node()));
  }
}
