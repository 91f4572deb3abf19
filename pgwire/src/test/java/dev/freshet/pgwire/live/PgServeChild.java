package dev.freshet.pgwire.live;

import dev.freshet.engine.Engine;
import dev.freshet.pgwire.PgServer;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A Freshet process with a data directory and the PostgreSQL endpoint on a free port, which it
 * prints as {@code PORT <n>}: what {@link LiveResumeCrashTest} kills. Runs until killed.
 */
public final class PgServeChild {
  private PgServeChild() {
  }

  /** {@code args[0]}: the data directory. */
  public static void main(String[] args) throws Exception {
    Engine engine = new Engine("pgwire-live-crash-child", Optional.of(Path.of(args[0])));
    PgServer server = PgServer.builder(engine).port(0).start();
    System.out.println("PORT " + server.port());
    System.out.flush();
    Thread.currentThread().join();
  }
}
