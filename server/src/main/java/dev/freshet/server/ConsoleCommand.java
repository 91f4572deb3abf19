package dev.freshet.server;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;
import sqlline.FreshetSqlLine;
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
 * caps each column's width; an EXPLAIN plan prints whole, as its lines ({@link FreshetSqlLine}).
 * sqlline's {@code --rowLimit=N} ends a push query after N rows, {@code --timeout=N} after N
 * seconds (SQLSTATE HYT00): how a script ends a push query. A result that {@code --rowLimit} cut
 * is followed by a line that says so.
 *
 * <p>A script ({@code -f file}) runs as sqlline's {@code !run file} once the console has started,
 * not during start-up as sqlline's own {@code -f} does: sqlline prints every error met during
 * start-up with its Java stack trace, a script's errors should be one line each (with
 * {@code --verbose=true}, sqlline's option, they carry their trace again, on standard error).
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
  /** JLine's terminal type, else taken from $TERM: a script's input is not a terminal. */
  private static final String JLINE_TYPE = "org.jline.terminal.type";

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
    if (!terminal && System.getProperty(JLINE_TYPE) == null) {
      // A terminal over streams (a script's "!run") would otherwise write $TERM's escape codes.
      System.setProperty(JLINE_TYPE, "dumb");
    }
    SqlLine sqlLine = new FreshetSqlLine();
    sqlLine.setOutputStream(out);
    sqlLine.setErrorStream(err);
    // History is kept for people at a terminal, not for scripted input.
    Optional<String> script = script();
    InputStream input = script.isEmpty() ? in : new ByteArrayInputStream(
        (verbose().map(v -> "!set verbose " + v + "\n").orElse("") + "!run " + script.get()
            + "\n").getBytes(StandardCharsets.UTF_8));
    SqlLine.Status status = sqlLine.begin(arguments().toArray(new String[0]), input,
        input == null);
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
      // Freshet's one level; sqlline's default (REPEATABLE_READ) would only earn a warning.
      args.add("--isolation=TRANSACTION_READ_COMMITTED");
    }
    if (!given("-n") && !given("--connectInteractionMode")) {
      // Without a user, sqlline would prompt for credentials an open server does not need.
      args.add("--connectInteractionMode=notAskCredentials");
    }
    if (script().isPresent()) {
      // The script is typed in as "!run file": no prompt for it, and its statements run on
      // after one fails (a push query ended by --timeout fails), as sqlline's own -f does.
      if (!given("--silent")) {
        args.add("--silent=true");
      }
      if (!given("--force")) {
        args.add("--force=true");
      }
    }
    for (int i = 0; i < sqllineArgs.size(); i++) {
      String arg = sqllineArgs.get(i);
      if (arg.equals("-f") && i + 1 < sqllineArgs.size()) {
        i++;  // the script: see script()
      } else if (!arg.startsWith("--run=") && !(script().isPresent() && isVerbose(arg))) {
        args.add(arg);  // a script's --verbose: see verbose()
      }
    }
    return args;
  }

  /** The script that {@code -f file} or {@code --run=file} names, if any. */
  Optional<String> script() {
    for (int i = 0; i < sqllineArgs.size(); i++) {
      String arg = sqllineArgs.get(i);
      if (arg.equals("-f") && i + 1 < sqllineArgs.size()) {
        return Optional.of(sqllineArgs.get(i + 1));
      }
      if (arg.startsWith("--run=")) {
        return Optional.of(arg.substring("--run=".length()));
      }
    }
    return Optional.empty();
  }

  /**
   * The value of {@code --verbose} for a script, typed in as {@code !set verbose} before the
   * script runs: sqlline's {@code --silent}, which a script gets, sets verbose back to false
   * after reading the arguments.
   */
  Optional<String> verbose() {
    Optional<String> value = Optional.empty();
    if (script().isPresent()) {
      for (String arg : sqllineArgs) {
        if (isVerbose(arg)) {
          value = Optional.of(arg.equals("--verbose") ? "true"
              : arg.substring("--verbose=".length()));
        }
      }
    }
    return value;
  }

  private static boolean isVerbose(String arg) {
    return arg.equals("--verbose") || arg.startsWith("--verbose=");
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
