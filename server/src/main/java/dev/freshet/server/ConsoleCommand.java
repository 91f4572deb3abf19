package dev.freshet.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;
import sqlline.SqlLine;

/**
 * Opens sqlline, the SQL console, on a Freshet engine: embedded by default, or a server's with
 * {@code --url}. Push queries stream: each changed row is printed as it arrives.
 *
 * <pre>
 * freshet console                                          # an in-memory engine in this process
 * freshet console --url "jdbc:freshet:remote:url=http://localhost:8765" -n alice -p secret
 * freshet console --url ... -f script.sql                  # run a script and exit
 * </pre>
 *
 * <p>Every argument after the console's own options goes to sqlline unchanged. The console turns
 * on sqlline's incremental output, without which a result that never ends prints nothing, and
 * sets a width when there is no terminal to take it from (sqlline would print empty columns), and
 * caps each column's width.
 * sqlline's {@code --rowLimit=N} ends a push query after N rows.
 */
@Command(name = "console", mixinStandardHelpOptions = true,
    description = "SQL console (sqlline) on an embedded engine or, with --url, on a server."
        + " Other arguments go to sqlline, e.g. -f script.sql, -n user -p password,"
        + " --rowLimit=10.")
final class ConsoleCommand implements Callable<Integer> {
  /** Width of the output when no terminal says how wide it is. */
  static final int WIDTH_WITHOUT_TERMINAL = 160;
  /** Widest a column is printed unless the user says otherwise. */
  static final int MAX_COLUMN_WIDTH = 40;
  /** JLine's switch to a dumb terminal. */
  private static final String JLINE_DUMB = "org.jline.terminal.dumb";

  @Option(names = "--url", defaultValue = "jdbc:freshet:",
      description = "JDBC URL: jdbc:freshet:[dataDir=...] (embedded) or"
          + " jdbc:freshet:remote:url=http://host:8765 (default: ${DEFAULT-VALUE})")
  String url;

  /** Arguments the console does not know, in order: sqlline's. */
  @Unmatched
  List<String> sqllineArgs = new ArrayList<>();

  private final PrintStream out;
  private final PrintStream err;
  private final InputStream in;
  private final boolean terminal;

  ConsoleCommand() {
    this(System.out, System.err, null, System.console() != null);
  }

  /**
   * Creates the command.
   *
   * @param in sqlline's input, or null for the terminal
   * @param terminal whether the output is a terminal that knows its width
   */
  ConsoleCommand(PrintStream out, PrintStream err, InputStream in, boolean terminal) {
    this.out = out;
    this.err = err;
    this.in = in;
    this.terminal = terminal;
  }

  @Override public Integer call() throws IOException {
    if (!terminal && System.getProperty(JLINE_DUMB) == null) {
      // Without a terminal, JLine falls back to a dumb one anyway, after a warning on stderr.
      System.setProperty(JLINE_DUMB, "true");
    }
    SqlLine sqlLine = new SqlLine();
    sqlLine.setOutputStream(out);
    sqlLine.setErrorStream(err);
    // History is kept for people at a terminal, not for scripted input.
    SqlLine.Status status = sqlLine.begin(arguments().toArray(new String[0]), in, in == null);
    out.flush();
    return status == SqlLine.Status.OK ? 0 : 1;
  }

  /** sqlline's arguments: the connection, then streaming defaults, then the user's. */
  List<String> arguments() {
    List<String> args = new ArrayList<>(List.of("-u", url, "--incremental=true"));
    if (!terminal && !given("--maxWidth")) {
      args.add("--maxWidth=" + WIDTH_WITHOUT_TERMINAL);
    }
    if (!given("--maxColumnWidth")) {
      // Incremental output sizes columns by their display size, which for a VARCHAR without
      // a length is larger than any screen: the first column would take the whole line.
      args.add("--maxColumnWidth=" + MAX_COLUMN_WIDTH);
    }
    if (!given("--isolation")) {
      // Freshet has no transactions; sqlline's default level would only earn a warning.
      args.add("--isolation=TRANSACTION_NONE");
    }
    if (!given("-n") && !given("--connectInteractionMode")) {
      // Without a user, sqlline would prompt for credentials an open server does not need.
      args.add("--connectInteractionMode=notAskCredentials");
    }
    args.addAll(sqllineArgs);
    return args;
  }

  private boolean given(String option) {
    for (String arg : sqllineArgs) {
      if (arg.equals(option) || arg.startsWith(option + "=")) {
        return true;
      }
    }
    return false;
  }
}
