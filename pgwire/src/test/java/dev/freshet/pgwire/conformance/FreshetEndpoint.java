package dev.freshet.pgwire.conformance;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.pgwire.PgServer;
import dev.freshet.pgwire.corpus.CorpusStatement;
import dev.freshet.pgwire.protocol.PgStatementLog;
import dev.freshet.testkit.clients.PostgresEndpoint;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Freshet's PostgreSQL endpoint as the conformance tests' clients meet it: an engine with the
 * corpus' objects in Freshet's terms (stream {@code clicks}, table {@code users} with a primary
 * key, materialized view {@code clicks_by_user} grouped by {@code user_id}), their rows, and a
 * {@link PgServer} on a free port whose statement log is kept.
 *
 * <pre>{@code
 * try (FreshetEndpoint freshet = FreshetEndpoint.start("psql")) {
 *   freshet.endpoint().applyTo(ExternalClient.of("/usr/bin/psql", "-c", "\\d")).run();
 *   freshet.assertEachStatementSucceeded();   // and writes target/corpus-freshet/psql.jsonl
 * }
 * }</pre>
 *
 * <p>A client marks its actions as the corpus capture does, by sending
 * {@code SELECT 'freshet-corpus-action:<name>'}; a test driving the client itself names the
 * action with {@link #action}. The markers are left out of the corpus written.
 */
final class FreshetEndpoint implements AutoCloseable {
  /** Where the statements each client sent are written, relative to the pgwire module. */
  static final Path CORPUS = Path.of("target", "corpus-freshet");
  static final long DEADLINE_NANOS = 60_000_000_000L;
  private static final Pattern MARKER =
      Pattern.compile("SELECT 'freshet-corpus-action:(.*)'", Pattern.DOTALL);

  final Engine engine;
  final PgServer server;
  private final String client;
  private final List<Logged> log = new CopyOnWriteArrayList<>();
  private final Map<Integer, String> actions = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile String action = "connect";

  /** A statement and the action it belongs to. */
  private record Logged(String action, PgStatementLog.Entry entry) {
  }

  private FreshetEndpoint(String client, Engine engine) {
    this.client = client;
    this.engine = engine;
    this.server = PgServer.builder(engine).port(0).statementLog(this::logged).start();
  }

  /** An endpoint with the objects and rows of the conformance tests, for {@code client}. */
  static FreshetEndpoint start(String client) throws Exception {
    Engine engine = new Engine("pgwire-conformance-" + client + "-" + System.nanoTime());
    try {
      Session s = engine.openSession();
      s.execute("CREATE STREAM clicks (user_id VARCHAR(64), amount DOUBLE, ts TIMESTAMP(3))");
      s.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL,"
          + " signed_up DATE, score DECIMAL(10, 2), active BOOLEAN)");
      s.execute("CREATE MATERIALIZED VIEW clicks_by_user AS SELECT user_id, COUNT(*) AS n,"
          + " SUM(amount) AS total FROM clicks GROUP BY user_id");
      s.execute("INSERT INTO clicks VALUES ('alice', 1.0, TIMESTAMP '2026-01-02 10:00:00'),"
          + " ('alice', 2.5, TIMESTAMP '2026-01-02 10:00:01'),"
          + " ('bob', 12.25, TIMESTAMP '2026-01-02 10:00:02')");
      s.execute("INSERT INTO users VALUES (1, 'alice', DATE '2026-01-02', 10.50, TRUE),"
          + " (2, 'bob', NULL, NULL, FALSE), (3, 'carol', DATE '2026-03-04', 0.25, TRUE)");
      awaitCount(s, "SELECT COUNT(*) FROM clicks_by_user", 2);
      return new FreshetEndpoint(client, engine);
    } catch (Exception | Error e) {
      engine.close();
      throw e;
    }
  }

  /** Waits until {@code sql}'s one value is {@code expected}. */
  static void awaitCount(Session s, String sql, long expected) throws Exception {
    long deadline = System.nanoTime() + DEADLINE_NANOS;
    while (true) {
      StatementResult.Rows rows = (StatementResult.Rows) s.execute(sql);
      long n = ((Number) rows.rows().get(0)[0]).longValue();
      if (n == expected) {
        return;
      }
      if (System.nanoTime() > deadline) {
        fail(sql + " returned " + n + ", not " + expected + ", after 60 s");
      }
      LockSupport.parkNanos(10_000_000L);
    }
  }

  /** Where clients connect: user {@code freshet}, database {@code freshet}, no TLS. */
  PostgresEndpoint endpoint() {
    return PostgresEndpoint.local(server.port(), "freshet", "freshet", "unused");
  }

  /** The statements after this belong to {@code name} (for a client driven in this JVM). */
  void action(String name) {
    action = name;
  }

  private void logged(PgStatementLog.Entry e) {
    Matcher m = MARKER.matcher(e.sql().strip());
    if (m.matches()) {
      actions.put(e.connection(), m.group(1));
      return;
    }
    log.add(new Logged(actions.getOrDefault(e.connection(), action), e));
  }

  /** Every statement the clients sent, in order, but the action markers. */
  List<PgStatementLog.Entry> statements() {
    List<PgStatementLog.Entry> entries = new ArrayList<>();
    log.forEach(l -> entries.add(l.entry()));
    return entries;
  }

  /**
   * Writes the statements to {@code target/corpus-freshet/<client>.jsonl} and fails, listing
   * them, if any statement failed or none was sent.
   */
  void assertEachStatementSucceeded() throws IOException {
    writeCorpus();
    if (log.isEmpty()) {
      fail(client + " sent no statement: the statement log is broken");
    }
    StringBuilder failed = new StringBuilder();
    for (Logged l : log) {
      if (l.entry().failed()) {
        failed.append("\n  [").append(l.action()).append("] ").append(l.entry().protocol())
            .append(' ').append(l.entry().sql().replace('\n', ' ')).append(" ")
            .append(l.entry().params()).append("\n    -> ").append(l.entry().sqlState())
            .append(' ').append(l.entry().error());
      }
    }
    if (failed.length() > 0) {
      fail(client + " sent statements that failed on Freshet's endpoint:" + failed);
    }
  }

  private void writeCorpus() throws IOException {
    Path file = CORPUS.resolve(client + ".jsonl");
    Files.createDirectories(file.getParent());
    ObjectMapper json = new ObjectMapper();
    Map<Integer, Integer> sessions = new HashMap<>();
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (Logged l : log) {
        PgStatementLog.Entry e = l.entry();
        int session = sessions.computeIfAbsent(e.connection(), c -> sessions.size() + 1);
        String statement = e.statement() == null ? null
            : e.statement().isEmpty() ? "<unnamed>" : e.statement();
        out.write(json.writeValueAsString(new CorpusStatement(client, l.action(), session,
            e.protocol(), statement, e.sql(), e.params(),
            e.failed() ? e.sqlState() + " " + e.error() : null, null)));
        out.write('\n');
      }
    }
  }

  @Override public void close() {
    server.close();
    engine.close();
  }
}
