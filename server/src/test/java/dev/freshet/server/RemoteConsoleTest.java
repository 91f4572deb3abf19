package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code freshet console}: the real sqlline, run non-interactively from a script file.
 *
 * <p>The push query is bounded by sqlline's own {@code !set rowLimit 2}: the console reads two
 * rows, closes the result, which stops the query, and the script goes on to its end. This runs sqlline exactly as a user would, reads a
 * never-ending result through it, and needs no child process to kill.
 */
class RemoteConsoleTest {
  private static FreshetServer server;

  @TempDir Path dir;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).start();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  @Test void shouldPrintTheRowsOfAPullAndOfAPushQueryRunFromAScriptAgainstTheServer()
      throws Exception {
    String stream = uniqueName("clicks");
    Path script = Files.writeString(dir.resolve("script.sql"), String.join("\n",
        "CREATE STREAM " + stream + " (user_id VARCHAR, amount DOUBLE);",
        "INSERT INTO " + stream + " VALUES ('alice', 1.5), ('bob', 2), ('alice', 5);",
        "SELECT user_id, COUNT(*) AS clicks, SUM(amount) AS total FROM " + stream
            + " GROUP BY user_id;",
        "!set rowLimit 2",
        "SELECT STREAM user_id, COUNT(*) AS clicks FROM " + stream
            + " GROUP BY user_id EMIT UPDATE;",
        ""));
    Console console = run("--url", "jdbc:freshet:remote:url=" + server.url(), "-f",
        script.toString());

    assertEquals(0, console.exitCode, console.toString());
    List<List<String>> tables = console.tableRows();
    assertEquals(Set.of(List.of("USER_ID", "CLICKS", "TOTAL"), List.of("alice", "2", "6.5"),
        List.of("bob", "1", "2.0"), List.of("USER_ID", "CLICKS", "_BATCH_ID", "_ROW_KIND"),
        List.of("alice", "2", "0", "INSERT"), List.of("bob", "1", "0", "INSERT")),
        new HashSet<>(tables), console.toString());
    assertEquals(6, tables.size(), console.toString());
    RemoteTesting.await("the push query stops",
        () -> RemoteTesting.queriesReading(server, stream).isEmpty());
  }

  @Test void shouldOpenAnEmbeddedEngineWithoutUrl() throws Exception {
    String stream = uniqueName("clicks");
    Path script = Files.writeString(dir.resolve("script.sql"), String.join("\n",
        "CREATE STREAM " + stream + " (user_id VARCHAR, amount DOUBLE);",
        "INSERT INTO " + stream + " VALUES ('carol', 4);",
        "SELECT user_id, amount FROM " + stream + ";",
        ""));
    Console console = run("-f", script.toString());

    assertEquals(0, console.exitCode, console.toString());
    assertEquals(List.of(List.of("USER_ID", "AMOUNT"), List.of("carol", "4.0")),
        console.tableRows(), console.toString());
  }

  @Test void shouldAddStreamingDefaultsUnlessTheUserGivesThem() {
    ConsoleCommand command = new ConsoleCommand(System.out, System.err, null, false);
    new CommandLine(command).parseArgs("--url", "jdbc:freshet:", "--maxColumnWidth=10", "-f",
        "x.sql");
    assertEquals(List.of("-u", "jdbc:freshet:", "--incremental=true", "--maxWidth=160",
        "--isolation=TRANSACTION_READ_COMMITTED", "--connectInteractionMode=notAskCredentials",
        "--silent=true", "--force=true", "--maxColumnWidth=10"), command.arguments());
    assertEquals(java.util.Optional.of("x.sql"), command.script());
  }

  /**
   * A script's error is one line, EXPLAIN prints the plan, and a push query in a script ends at
   * the query timeout (sqlline's --timeout) with HYT00 instead of blocking the script.
   */
  @Test void shouldRunAScriptWithOneLineErrorsAndAPushQueryThatEnds() throws Exception {
    String stream = uniqueName("clicks");
    Path script = Files.writeString(dir.resolve("errors.sql"), String.join("\n",
        "CREATE STREAM " + stream + " (user_id VARCHAR, n INT);",
        "INSERT INTO " + stream + " VALUES ('a', 1), ('b', 2), ('a', 3);",
        "EXPLAIN PLAN FOR SELECT STREAM user_id, COUNT(*) AS c FROM " + stream
            + " GROUP BY user_id;",
        "SELECT STREAM user_id, COUNT(*) AS c FROM " + stream + " GROUP BY user_id;",
        "SELECT * FROM nosuch;",
        ""));
    Console console = run("-f", script.toString(), "--timeout=2");

    String all = console.out + console.err;
    assertTrue(all.contains("Error: Push query push-") && all.contains("ran for its query"
        + " timeout of 2 s and was stopped. Raise Statement.setQueryTimeout, or set it to 0 for"
        + " no timeout (state=HYT00,code=0)"), console.toString());
    assertTrue(all.contains("Error: From line 1, column 15 to line 1, column 20: Object 'NOSUCH'"
        + " not found."), console.toString());
    assertTrue(all.contains("LogicalStateStoreSave(operatorId=[0]"), console.toString());
    assertEquals(false, all.contains("\tat ") || console.systemErr.contains("\tat "),
        "no stack trace: " + console);
    List<List<String>> tables = console.tableRows();
    assertTrue(tables.containsAll(List.of(List.of("USER_ID", "C", "_BATCH_ID", "_ROW_KIND"),
        List.of("a", "2", "0", "INSERT"), List.of("b", "1", "0", "INSERT"))), console.toString());
  }

  /**
   * Issue 14's console script: an error is one line on stderr, EXPLAIN's plan prints whole (its
   * first line is longer than the 40 characters a column gets), a push query ends by
   * {@code --rowLimit} and says so, and a pull result that {@code --rowLimit} cut says so too,
   * unlike one that has exactly that many rows. The output is compared whole: every statement
   * reads rows that exist when it starts, and the push query's two rows come from its first batch,
   * in the order they were inserted. Carriage returns are dropped: JLine's dumb terminal echoes
   * the typed {@code !run} line with them.
   */
  @Test void shouldRunAScriptWithAnErrorAPushQueryExplainAndACutResult() throws Exception {
    String stream = uniqueName("clicks");
    String upper = stream.toUpperCase(java.util.Locale.ROOT);
    Path script = Files.writeString(dir.resolve("issue14.sql"), String.join("\n",
        "CREATE STREAM " + stream + " (user_id VARCHAR, n INT);",
        "INSERT INTO " + stream + " VALUES ('a', 1), ('b', 2), ('c', 3);",
        "SELECT * FROM nosuch;",
        "EXPLAIN PLAN FOR SELECT STREAM user_id, COUNT(*) AS c FROM " + stream
            + " GROUP BY user_id;",
        "SELECT STREAM user_id, n FROM " + stream + ";",
        "SELECT user_id, n FROM " + stream + ";",
        "SELECT user_id, n FROM " + stream + " WHERE n < 3;",
        ""));
    Console console = run("--url", "jdbc:freshet:remote:url=" + server.url(), "-f",
        script.toString(), "--rowLimit=2");

    assertEquals(0, console.exitCode, console.toString());
    String pad = " ".repeat(40);
    String two = "+" + "-".repeat(42) + "+-------------+\n"
        + "|                 USER_ID                  |      N      |\n"
        + "+" + "-".repeat(42) + "+-------------+\n"
        + "| a" + pad.substring(1) + " | 1           |\n"
        + "| b" + pad.substring(1) + " | 2           |\n"
        + "+" + "-".repeat(42) + "+-------------+\n";
    assertEquals("!run " + script + "\n"
        + "!run " + script + "\n"
        + "LogicalStateStoreSave(operatorId=[0], keys=[{0}], outputMode=[Update],"
            + " statePartitions=[1], state=[UNBOUNDED])\n"
        + "  LogicalStreamAggregate(group=[{0}], C=[$SUM0($1)], phase=[MERGE])\n"
        + "    LogicalStateStoreRestore(operatorId=[0], keys=[{0}])\n"
        + "      LogicalStreamAggregate(group=[{0}], C=[COUNT()], phase=[PARTIAL])\n"
        + "        LogicalTableScan(table=[[FRESHET, " + upper + "]])\n"
        + "+" + "-".repeat(42) + "+-------------+----------------------+-----------+\n"
        + "|                 USER_ID                  |      N      |      _BATCH_ID       |"
            + " _ROW_KIND |\n"
        + "+" + "-".repeat(42) + "+-------------+----------------------+-----------+\n"
        + "| a" + pad.substring(1) + " | 1           | 0                    | INSERT    |\n"
        + "| b" + pad.substring(1) + " | 2           | 0                    | INSERT    |\n"
        + "+" + "-".repeat(42) + "+-------------+----------------------+-----------+\n"
        + "(push query ended after 2 rows by --rowLimit)\n"
        + two
        + "(result cut at 2 rows by --rowLimit; raise it or add LIMIT)\n"
        + two
        + "\n", console.out.replace("\r", ""), console.toString());
    assertEquals("Error: From line 1, column 15 to line 1, column 20: Object 'NOSUCH' not found."
        + " See SHOW STREAMS and SHOW VIEWS for what exists, or create a stream with CREATE"
        + " STREAM name (...) WITH (connector = 'memory') (state=42S02,code=0)\n",
        console.err.replace("\r", ""), console.toString());
    assertEquals(false, console.systemErr.contains("\tat "), "no stack trace: " + console);
    RemoteTesting.await("the push query stops",
        () -> RemoteTesting.queriesReading(server, stream).isEmpty());
  }

  /**
   * {@code --verbose=true} brings a script's stack traces back (on standard error, where sqlline
   * prints them), though the script runs silent, which on its own turns verbose off.
   */
  @Test void shouldPrintAScriptErrorsStackTraceWithVerbose() throws Exception {
    Path script = Files.writeString(dir.resolve("verbose.sql"), "SELECT * FROM nosuch;\n");
    Console console = run("-f", script.toString(), "--verbose=true");

    assertEquals(0, console.exitCode, console.toString());
    assertTrue(console.err.startsWith("Error: From line 1, column 15 to line 1, column 20:"
        + " Object 'NOSUCH' not found."), console.toString());  // then verbose's debug lines
    assertTrue(console.systemErr.startsWith("java.sql.SQLSyntaxErrorException: From line 1,"
        + " column 15 to line 1, column 20: Object 'NOSUCH' not found.")
        && console.systemErr.contains("\n\tat "), console.toString());
  }

  /**
   * Runs the console on streams of its own. {@code System.err} is captured too: sqlline prints a
   * stack trace ({@code --verbose}, or any error met while it starts) there, not on its error
   * stream.
   */
  private Console run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ByteArrayOutputStream systemErr = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(List.of(args));
    PrintStream savedErr = System.err;
    System.setErr(new PrintStream(systemErr, true, StandardCharsets.UTF_8));
    int exit;
    try {
      exit = assertTimeoutPreemptively(RemoteTesting.DEADLINE, () -> new CommandLine(
          new ConsoleCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8),
              new ByteArrayInputStream(new byte[0]), false))
          .execute(all.toArray(new String[0])));
    } finally {
      System.setErr(savedErr);
    }
    return new Console(exit, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8), systemErr.toString(StandardCharsets.UTF_8));
  }

  /** What a console run printed. */
  private record Console(int exitCode, String out, String err, String systemErr) {
    /** The cells of every line of a table sqlline printed, header lines included. */
    List<List<String>> tableRows() {
      List<List<String>> rows = new ArrayList<>();
      for (String line : out.split("\\R")) {
        if (line.startsWith("|")) {
          List<String> cells = new ArrayList<>();
          String[] parts = line.split("\\|");
          for (int i = 1; i < parts.length; i++) {
            cells.add(parts[i].trim());
          }
          rows.add(cells);
        }
      }
      return rows;
    }

    @Override public String toString() {
      return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err
          + "--- System.err\n" + systemErr;
    }
  }
}
