package dev.freshet.pgwire.live;

import dev.freshet.engine.Engine;
import dev.freshet.pgwire.PgServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What every live test starts from: an engine, a {@link PgServer} on a free port, and a pgjdbc
 * connection to it that has run the test's DDL (its streams and views).
 *
 * <pre>{@code
 * live = LiveServer.start("my-test", "CREATE STREAM clicks (k VARCHAR, n INTEGER)");
 * live.statement.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
 * await("the push query runs", () -> live.pushQueries() == 1);
 * live.close();
 * }</pre>
 */
final class LiveServer implements AutoCloseable {
  final Engine engine;
  final PgServer server;
  final Connection jdbc;
  final Statement statement;

  private LiveServer(Engine engine, PgServer server, Connection jdbc) throws Exception {
    this.engine = engine;
    this.server = server;
    this.jdbc = jdbc;
    this.statement = jdbc.createStatement();
  }

  /** Starts an engine named {@code name} with a server, and runs {@code ddl} through it. */
  static LiveServer start(String name, String... ddl) throws Exception {
    Engine engine = new Engine(name);
    PgServer server = PgServer.builder(engine).port(0).start();
    LiveServer live = new LiveServer(engine, server, LiveTesting.connect(server));
    for (String statement : ddl) {
      live.statement.execute(statement);
    }
    return live;
  }

  /** The server's port. */
  int port() {
    return server.port();
  }

  /** A new pgjdbc connection to the server, with {@code extra} properties (name, value, ...). */
  Connection connect(String... extra) throws SQLException {
    return LiveTesting.connect(server, extra);
  }

  /** How many push queries run on the engine (a view's subscription is none). */
  long pushQueries() {
    return LiveTesting.pushQueries(engine);
  }

  @Override public void close() throws Exception {
    jdbc.close();
    server.close();
    engine.close();
  }
}
