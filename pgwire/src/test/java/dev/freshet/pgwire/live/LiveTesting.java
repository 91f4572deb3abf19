package dev.freshet.pgwire.live;

import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.Engine;
import dev.freshet.pgwire.PgServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Connecting pgjdbc to a {@link PgServer} and waiting on a condition with a deadline. */
final class LiveTesting {
  /** Generous: CI machines are loaded. */
  static final Duration DEADLINE = Duration.ofSeconds(30);

  private LiveTesting() {
  }

  static Connection connect(PgServer server, String... extra) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "freshet");
    p.setProperty("connectTimeout", "30");
    p.setProperty("socketTimeout", "60");
    p.setProperty("sslmode", "disable");
    for (int i = 0; i + 1 < extra.length; i += 2) {
      p.setProperty(extra[i], extra[i + 1]);
    }
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port()
        + "/freshet", p);
  }

  /** Waits until {@code condition} holds; fails with {@code what} after the deadline. */
  static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("after " + DEADLINE + ": " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
    }
  }

  /** How many push queries run on {@code engine} (a view's subscription is none). */
  static long pushQueries(Engine engine) {
    return engine.continuousQueries().stream().filter(q -> q.pushResult().isPresent()).count();
  }
}
