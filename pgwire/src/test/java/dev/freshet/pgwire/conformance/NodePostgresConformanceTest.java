package dev.freshet.pgwire.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.testkit.ExternalTest;
import dev.freshet.testkit.clients.ClientResult;
import dev.freshet.testkit.clients.ExternalClient;
import dev.freshet.testkit.clients.PostgresClients;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * node-postgres ({@code pg} from npm) against Freshet's endpoint
 * ({@code src/test/clients/node_pg_queries.js}): a plain query (simple protocol), a
 * parameterized one and a named prepared one (extended), with exact rows. Every statement it
 * sent succeeded; they are written to {@code target/corpus-freshet/node-postgres.jsonl}.
 */
@ExternalTest
class NodePostgresConformanceTest {
  @Test void shouldQueryWithNodePostgres() throws Exception {
    try (FreshetEndpoint freshet = FreshetEndpoint.start("node-postgres")) {
      ClientResult r = freshet.endpoint().applyTo(ExternalClient.of(
              PostgresClients.node().toString(), "src/test/clients/node_pg_queries.js"))
          .env("NODE_PATH", PostgresClients.nodeModules().toString())
          .timeout(Duration.ofSeconds(120)).run();
      assertEquals(0, r.exitCode(), r.toString());
      assertEquals("{\"pg\":\"8.23.1\",\"one\":[{\"one\":1}],"
          + "\"user1\":[{\"id\":1,\"name\":\"alice\"}],\"user2\":[{\"id\":2,\"name\":\"bob\"}],"
          + "\"user3\":[{\"id\":3,\"name\":\"carol\"}],"
          + "\"clicks\":[{\"user_id\":\"alice\",\"amount\":2.5}]}", r.stdout().strip());
      freshet.assertEachStatementSucceeded();
    }
  }
}
