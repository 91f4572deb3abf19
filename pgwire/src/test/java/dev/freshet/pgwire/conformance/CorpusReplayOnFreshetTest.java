package dev.freshet.pgwire.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.pgwire.corpus.Corpus;
import dev.freshet.pgwire.corpus.CorpusStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays every statement of the corpus ({@code src/test/resources/corpus/*.jsonl}: what psql,
 * pgjdbc, SQLAlchemy over psycopg2, psycopg 3 and node-postgres sent a real PostgreSQL 15, and
 * the catalog queries of Metabase, Grafana, DBeaver and Npgsql read from their source) against
 * Freshet's endpoint over the raw protocol ({@link ReplayClient}): each must run. One
 * connection per session of a file, in order; a {@code fetch} (another Execute of a suspended
 * portal) is not replayed, as its portal's first Execute is.
 *
 * <p>The objects are Freshet's equivalents of the capture's ({@link FreshetEndpoint}: stream
 * {@code clicks}, table {@code users}, materialized view {@code clicks_by_user}) plus
 * {@code big_clicks} as a materialized view (Freshet has no plain views). No statement is
 * rewritten: those holding the OID the real server gave a relation ({@code c.oid = '16385'})
 * run as they are and name whatever Freshet gave that OID, or nothing; replaying checks that
 * each statement is understood, the client tests check what the clients see.
 *
 * <p>Two statements of Grafana's panels (Freshet's own queries with Grafana's macros expanded,
 * not catalog queries) are known not to run yet, and are listed in {@link #KNOWN_FAILURES}
 * with the reason: the test fails when one of them starts to run, so that it is removed.
 */
class CorpusReplayOnFreshetTest {
  /** Statements known to fail on Freshet, by the start of their text, with why. */
  static final Map<String, String> KNOWN_FAILURES = Map.of();

  private static FreshetEndpoint freshet;

  @BeforeAll static void start() throws Exception {
    freshet = FreshetEndpoint.start("corpus-replay");
    freshet.engine.openSession().execute("CREATE MATERIALIZED VIEW big_clicks AS"
        + " SELECT user_id, amount FROM clicks WHERE amount > 10");
  }

  @AfterAll static void stop() {
    if (freshet != null) {
      freshet.close();
    }
  }

  static List<String> clients() {
    List<String> clients = new ArrayList<>(Corpus.CAPTURED);
    clients.addAll(Corpus.FROM_SOURCE);
    return clients;
  }

  @ParameterizedTest @MethodSource("clients")
  void shouldRunEveryStatementOfTheCorpus(String client) throws Exception {
    List<CorpusStatement> statements = Corpus.load(client);
    assertTrue(statements.size() > 0, client);
    List<String> failed = new ArrayList<>();
    int ran = 0;
    ReplayClient connection = null;
    int session = -1;
    try {
      for (CorpusStatement s : statements) {
        if (s.protocol().equals("fetch")) {
          continue;
        }
        if (s.session() != session) {
          if (connection != null) {
            connection.close();
          }
          connection = ReplayClient.connect(freshet.server.port(), "freshet");
          session = s.session();
        }
        String error = s.protocol().equals("simple") ? connection.simple(s.sql())
            : connection.extended(s.sql(), s.params());
        ran++;
        String known = KNOWN_FAILURES.keySet().stream().filter(s.sql()::startsWith).findFirst()
            .orElse(null);
        if (known != null) {
          if (error == null) {
            failed.add("Runs now, remove it from KNOWN_FAILURES: " + s.sql());
          }
          continue;
        }
        if (error != null) {
          failed.add("[" + s.action() + "] " + s.protocol() + " "
              + s.sql().replaceAll("\\s+", " ") + " " + s.params() + "\n    -> " + error);
        }
      }
    } finally {
      if (connection != null) {
        connection.close();
      }
    }
    assertEquals(List.of(), failed, client + ": " + failed.size() + " of " + ran
        + " statements failed:\n" + String.join("\n", failed));
  }
}
