package dev.freshet.jdbc.crash;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.testkit.crash.ChildLines;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The engine of a crash test's data directory started again in the test's own JVM after the
 * last kill, as a restarted application would start it, for the checks: it recovers from what
 * the killed children left on disk as a new child JVM would, without a JVM start (about 3 CPU
 * seconds for a child, a fraction of that in the warm test JVM).
 *
 * <pre>{@code
 * try (RestartedEngine engine = new RestartedEngine(dataDir)) {
 *   engine.execute("CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR)"
 *       + " WITH (connector = 'memory')");
 *   engine.await("the view to catch up", () -> engine.number("SELECT COUNT(*) FROM v") == 3);
 *   List<String> rows = engine.lines("SELECT user_id, n FROM v");   // "u1 3", as a child prints
 * }
 * }</pre>
 */
final class RestartedEngine implements AutoCloseable {
  private final Engine engine;
  private final Session session;

  RestartedEngine(Path dataDir) {
    engine = new Engine("restarted", Optional.of(dataDir));
    session = engine.openSession();
  }

  /** Executes a statement, e.g. the child's declarations. */
  void execute(String sql) throws SQLException {
    session.execute(sql);
  }

  /** The first column of the first row of {@code sql}, a number. */
  long number(String sql) throws SQLException {
    return ((Number) rows(sql).get(0)[0]).longValue();
  }

  /** Each row of {@code sql} as a child prints it ({@link ChildLines#printRows}), tag aside. */
  List<String> lines(String sql) throws SQLException {
    List<String> lines = new ArrayList<>();
    for (Object[] row : rows(sql)) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.length; c++) {
        line.append(c == 0 ? "" : " ").append(row[c]);
      }
      lines.add(line.toString());
    }
    return lines;
  }

  /** Polls {@code condition} until it holds; fails after {@code deadline}. */
  void await(String what, Duration deadline, ChildLines.Condition condition)
      throws SQLException {
    ChildLines.await(what, deadline, condition);
  }

  private List<Object[]> rows(String sql) throws SQLException {
    return ((StatementResult.Rows) session.execute(sql)).rows();
  }

  /** Stops the engine: its queries write no more into the data directory. */
  @Override public void close() {
    engine.close();
  }
}
