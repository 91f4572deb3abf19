package dev.freshet.server;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;

/**
 * Runs Freshet's main job on embedded defaults: a stream fed by INSERTs and a push query whose
 * updated rows are printed as {@code ResultSet.next()} returns them.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Insert random clicks into a stream and print a live-updating GROUP BY.")
final class DemoCommand implements Callable<Integer> {
  private static final String[] USERS = {"alice", "bob", "carol"};

  @Option(names = "--batches", defaultValue = "12",
      description = "INSERT statements to run; 0 runs until interrupted (default: ${DEFAULT-VALUE})")
  int batches;

  @Option(names = "--interval-ms", defaultValue = "400",
      description = "Pause between INSERTs in milliseconds (default: ${DEFAULT-VALUE})")
  long intervalMs;

  @Option(names = "--seed", defaultValue = "7", description = "Random seed (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--ui-port",
      description = "Also serve the web UI on this port of 127.0.0.1, with live charts of the"
          + " query, e.g. 8766 (default: off); combine with --batches 0 to keep it running")
  Integer uiPort;

  @Spec CommandSpec spec;

  private final PrintStream out;

  DemoCommand() {
    this(System.out);
  }

  DemoCommand(PrintStream out) {
    this.out = out;
  }

  @Override public Integer call() throws Exception {
    String create = "CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)"
        + " WITH (connector = 'memory')";
    String query = "SELECT STREAM user_id, COUNT(*) AS clicks, SUM(amount) AS total"
        + " FROM clicks GROUP BY user_id EMIT UPDATE";
    out.println("Freshet demo: a continuous GROUP BY, embedded (jdbc:freshet:)");
    out.println();
    out.println("  " + create + ";");
    out.println("  " + query + ";");
    out.println();
    out.println("Each INSERT is one micro-batch; the push query's ResultSet returns exactly the"
        + " rows whose aggregates it changed.");
    out.println();

    Random random = new Random(seed);
    // A fresh in-memory engine per run, so that a second run in one JVM starts from nothing.
    String url = "jdbc:freshet:engine=demo-" + java.util.UUID.randomUUID();
    if (uiPort != null) {
      if (uiPort < 1 || uiPort > 65535) {
        throw new ParameterException(spec.commandLine(), "--ui-port must be a port between 1 and 65535, not " + uiPort);
      }
      url += ";uiPort=" + uiPort;
      out.println("Web UI: http://127.0.0.1:" + uiPort + "/ui/ (metrics at /metrics)");
      out.println();
    }
    try (Connection writer = DriverManager.getConnection(url);
         Connection reader = DriverManager.getConnection(url);
         Statement ddl = writer.createStatement()) {
      ddl.execute(create);
      try (Statement push = reader.createStatement();
           ResultSet rs = push.executeQuery(query);
           Statement insert = writer.createStatement()) {
        for (int batch = 1; batches == 0 || batch <= batches; batch++) {
          List<String> values = new ArrayList<>();
          Set<String> touched = new LinkedHashSet<>();
          for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
            String user = USERS[random.nextInt(USERS.length)];
            double amount = Math.round(random.nextDouble() * 2000) / 100.0;
            values.add(String.format(Locale.ROOT, "('%s', %.2f)", user, amount));
            touched.add(user);
          }
          String sql = "INSERT INTO clicks VALUES " + String.join(", ", values);
          insert.executeUpdate(sql);
          long inserted = System.nanoTime();
          out.println(sql);
          for (int i = 0; i < touched.size(); i++) {
            if (!rs.next()) {
              throw new IllegalStateException("the push query ended unexpectedly");
            }
            double latencyMs = (System.nanoTime() - inserted) / 1e6;
            out.printf(Locale.ROOT, "    -> %-6s clicks=%-3d total=%8.2f   (%.1f ms after the"
                + " INSERT returned)%n", rs.getString(1), rs.getLong(2), rs.getDouble(3),
                latencyMs);
          }
          Thread.sleep(intervalMs);
        }
      }
    }
    out.println();
    out.println("Done. Run the tests with: ./run-tests");
    return 0;
  }
}
