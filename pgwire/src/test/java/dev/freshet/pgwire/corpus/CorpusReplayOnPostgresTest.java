package dev.freshet.pgwire.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.freshet.testkit.ExternalTest;
import dev.freshet.testkit.clients.PostgresEndpoint;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed corpus replays on a real PostgreSQL 15 with the objects it was captured against:
 * node-postgres (replay_corpus.js, what CI will replay against Freshet's endpoint) sends every
 * statement, and PostgreSQL runs each one, the ones read from clients' source included. Keeps the
 * replay harness and the hand-read statements honest.
 */
@ExternalTest
class CorpusReplayOnPostgresTest {
  @TempDir Path work;

  @Test void shouldRunEveryStatementOfEveryFileOnPostgres() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
        .setDataDirectory(work.resolve("data")).setCleanDataDirectory(true).start()) {
      CorpusCapture.setUp(pg.getPort());

      JsonNode replayed = new ObjectMapper().readTree(
          CorpusCapture.replay(PostgresEndpoint.local(pg.getPort(), "freshet", "postgres", "any"),
              Path.of("src", "test", "resources", "corpus")));

      List<String> clients = new ArrayList<>(Corpus.CAPTURED);
      clients.addAll(Corpus.FROM_SOURCE);
      for (String client : clients) {
        List<CorpusStatement> statements = Corpus.load(client);
        long fetches = statements.stream().filter(s -> s.protocol().equals("fetch")).count();
        JsonNode file = replayed.path(client + ".jsonl");
        assertEquals(statements.size() - fetches, file.path("ok").asLong(), client + ": " + file);
        assertEquals(fetches, file.path("skipped").asLong(), client + ": " + file);
        assertEquals(0, file.path("failed").size(), client + ": " + file);
      }
    }
  }
}
