package dev.freshet.pgwire.live;

import dev.freshet.pgwire.sql.PgLexer;
import dev.freshet.pgwire.sql.PgToken;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A statement about live results that PostgreSQL clients send and Freshet's SQL does not have,
 * recognised by its text before anything parses it.
 *
 * <pre>{@code
 * LiveStatement.parse("COPY (SELECT STREAM * FROM v) TO STDOUT WITH (FORMAT csv)");
 *     // CopyOut("SELECT STREAM * FROM v", CSV, false)
 * LiveStatement.parse("FETCH 10 c WITH (timeout = '1 s')");   // Fetch("c", 10, 1 s)
 * LiveStatement.sinceVersion("SELECT STREAM * FROM v WITH (since_version = 42)");
 *     // "SELECT STREAM * FROM v /*+ OPTIONS('since_version'='42') *}{@code /"
 * }</pre>
 */
public sealed interface LiveStatement {
  /** {@code FETCH ALL}: no limit on the rows returned. */
  long ALL = Long.MAX_VALUE;

  /**
   * {@code COPY (query) TO STDOUT [WITH (FORMAT text|csv, HEADER)]}.
   *
   * @param query the query inside the parentheses
   * @param format the rows' format
   * @param header whether a CSV header line comes first
   */
  record CopyOut(String query, CopyFormat format, boolean header) implements LiveStatement {
  }

  /**
   * {@code DECLARE name CURSOR [WITH HOLD] FOR query}.
   *
   * @param name the cursor's name, folded as PostgreSQL folds names
   * @param hold whether it survives the end of its transaction
   * @param query what it reads
   */
  record Declare(String name, boolean hold, String query) implements LiveStatement {
  }

  /**
   * {@code FETCH [n | ALL | NEXT] [FROM | IN] name [WITH (timeout = 'interval')]}.
   *
   * @param name the cursor's name
   * @param count most rows returned, {@link #ALL} for no limit
   * @param timeout how long to wait for a first row; null waits until one comes
   */
  record Fetch(String name, long count, @Nullable Duration timeout) implements LiveStatement {
  }

  /**
   * {@code CLOSE name} or {@code CLOSE ALL}.
   *
   * @param name the cursor's name, null for all
   */
  record Close(@Nullable String name) implements LiveStatement {
  }

  /** Parses {@code sql} if it is one of these statements. */
  static Optional<LiveStatement> parse(String sql) throws SQLException {
    String s = strip(sql);
    if (startsWith(s, "COPY")) {
      return Optional.of(copy(s));
    }
    if (startsWith(s, "DECLARE")) {
      return Optional.of(declare(s));
    }
    if (startsWith(s, "FETCH")) {
      return Optional.of(fetch(s));
    }
    if (startsWith(s, "CLOSE")) {
      String name = s.substring(5).strip();
      if (name.equalsIgnoreCase("ALL")) {
        return Optional.of(new Close(null));
      }
      return Optional.of(new Close(name(name, sql)));
    }
    return Optional.empty();
  }

  /** A trailing {@code WITH (since_version = N)}. */
  Pattern SINCE = Pattern.compile(
      "(?is)^(.*?)\\s+WITH\\s*\\(\\s*since_version\\s*=\\s*'?\\s*([0-9]+)\\s*'?\\s*\\)$");
  /** What a resumable subscription is: every row of one view. */
  Pattern VIEW_FEED = Pattern.compile(
      "(?is)^SELECT\\s+STREAM\\s+\\*\\s+FROM\\s+(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$.]*)$");

  /**
   * {@code sql} with a trailing {@code WITH (since_version = N)} made the hint Freshet's SQL
   * takes; {@code sql} itself when it has none.
   *
   * @throws SQLException (0A000) if the clause follows anything but {@code SELECT STREAM * FROM
   *     view}
   */
  static String sinceVersion(String sql) throws SQLException {
    // Every statement passes here: one without the word near its end is done with at once.
    if (!mentions(sql, SINCE_VERSION, 200)) {
      return sql;
    }
    String s = strip(sql);
    Matcher since = SINCE.matcher(s);
    if (!since.matches()) {
      return sql;
    }
    Matcher feed = VIEW_FEED.matcher(since.group(1).strip());
    if (!feed.matches()) {
      throw new SQLException("WITH (since_version = N) resumes a subscription to a materialized"
          + " view: write SELECT STREAM * FROM view WITH (since_version = N)", "0A000");
    }
    return "SELECT STREAM * FROM " + feed.group(1) + " /*+ OPTIONS('since_version'='"
        + since.group(2) + "') */";
  }

  private static LiveStatement copy(String s) throws SQLException {
    int open = s.indexOf('(');
    if (open < 0 || !s.substring(4, open).isBlank()) {
      throw new SQLException("COPY to and from tables is not supported. Copy a query's rows"
          + " out: COPY (SELECT STREAM * FROM v) TO STDOUT", "0A000");
    }
    int close = matching(s, open);
    if (close < 0) {
      throw new SQLException("COPY's query has no closing parenthesis", "42601");
    }
    String query = s.substring(open + 1, close).strip();
    String rest = s.substring(close + 1).strip();
    Matcher m = Pattern.compile("(?is)^TO\\s+STDOUT(?:\\s+(?:WITH\\s*)?\\((.*)\\))?$")
        .matcher(rest);
    if (!m.matches()) {
      throw new SQLException("COPY (query) sends rows to the client only: write COPY (query) TO"
          + " STDOUT [WITH (FORMAT text|csv)]", "0A000");
    }
    CopyFormat format = CopyFormat.TEXT;
    boolean header = false;
    if (m.group(1) != null && !m.group(1).isBlank()) {
      for (String option : m.group(1).split(",")) {
        String[] kv = option.strip().split("\\s+", 2);
        String key = kv[0].toLowerCase(Locale.ROOT);
        String value = kv.length > 1 ? unquote(kv[1].strip()).toLowerCase(Locale.ROOT) : "true";
        switch (key) {
        case "format" -> format = switch (value) {
          case "text" -> CopyFormat.TEXT;
          case "csv" -> CopyFormat.CSV;
          default -> throw new SQLException("COPY format \"" + value + "\" is not supported."
              + " Use FORMAT text or FORMAT csv", "0A000");
        };
        case "header" -> header = value.equals("true") || value.equals("on")
            || value.equals("1");
        default -> throw new SQLException("COPY option \"" + key + "\" is not supported. Use"
            + " FORMAT text|csv and HEADER", "0A000");
        }
      }
    }
    if (header && format != CopyFormat.CSV) {
      throw new SQLException("COPY HEADER available only in CSV mode", "0A000");
    }
    return new CopyOut(query, format, header);
  }

  private static LiveStatement declare(String s) throws SQLException {
    Matcher m = Pattern.compile("(?is)^DECLARE\\s+(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)"
        + "\\s+(?:BINARY\\s+)?(?:(?:ASENSITIVE|INSENSITIVE)\\s+)?(?:(?:NO\\s+)?SCROLL\\s+)?"
        + "CURSOR\\s+(?:(WITH|WITHOUT)\\s+HOLD\\s+)?FOR\\s+(.+)$").matcher(s);
    if (!m.matches()) {
      throw new SQLException("Syntax error in DECLARE. Write DECLARE name CURSOR [WITH HOLD] FOR"
          + " SELECT STREAM ...", "42601");
    }
    boolean hold = m.group(2) != null && m.group(2).equalsIgnoreCase("WITH");
    return new Declare(name(m.group(1), s), hold, m.group(3).strip());
  }

  private static LiveStatement fetch(String s) throws SQLException {
    Matcher m = Pattern.compile("(?is)^FETCH\\s+(?:(NEXT|ALL|FORWARD\\s+ALL|FORWARD\\s+[0-9]+"
        + "|FORWARD|[0-9]+)\\s+)?(?:(?:FROM|IN)\\s+)?(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)"
        + "(?:\\s+WITH\\s*\\(\\s*timeout\\s*=\\s*('[^']*'|[0-9]+)\\s*\\))?$").matcher(s);
    if (!m.matches()) {
      throw new SQLException("Syntax error in FETCH. Write FETCH [n | ALL | NEXT] [FROM] cursor"
          + " [WITH (timeout = '1 s')]; cursors go forward only", "42601");
    }
    String direction = m.group(1) == null ? "NEXT"
        : m.group(1).toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
    long count;
    if (direction.equals("NEXT") || direction.equals("FORWARD")) {
      count = 1;
    } else if (direction.endsWith("ALL")) {
      count = ALL;
    } else {
      String digits = direction.startsWith("FORWARD ") ? direction.substring(8) : direction;
      try {
        count = Long.parseLong(digits);
      } catch (NumberFormatException e) {
        throw new SQLException("FETCH count " + digits + " is too large. Use ALL", "22003", e);
      }
      if (count == 0) {
        // PostgreSQL's FETCH 0 re-reads the current row, which a push result does not keep.
        throw new SQLException("FETCH 0 is not supported on a live cursor: rows are read once."
            + " Fetch 1 or more", "0A000");
      }
    }
    Duration timeout = m.group(3) == null ? null : interval(unquote(m.group(3)));
    return new Fetch(name(m.group(2), s), count, timeout);
  }

  /** An interval as FETCH's timeout takes it: {@code '1 s'}, {@code '500ms'}, {@code '0s'}. */
  static Duration interval(String text) throws SQLException {
    Matcher m = Pattern.compile("(?i)^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ms|msec|msecs|millisecond"
        + "|milliseconds|s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hour|hours)?\\s*$")
        .matcher(text);
    if (!m.matches()) {
      throw new SQLException("Invalid FETCH timeout '" + text + "'. Write an interval such as"
          + " '1 s', '500 ms' or '0s'", "22007");
    }
    double amount = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT);
    double millis = switch (unit.charAt(0)) {
      case 'h' -> amount * 3_600_000;
      case 'm' -> unit.startsWith("ms") || unit.startsWith("mil") ? amount : amount * 60_000;
      default -> amount * 1000;
    };
    return Duration.ofMillis(Math.round(millis));
  }

  private static String name(String raw, String sql) throws SQLException {
    String n = raw.strip();
    if (n.isEmpty()) {
      throw new SQLException("No cursor named in: " + sql, "42601");
    }
    if (n.startsWith("\"") && n.endsWith("\"") && n.length() > 1) {
      return n.substring(1, n.length() - 1).replace("\"\"", "\"");
    }
    if (!n.matches("[A-Za-z_][A-Za-z0-9_$]*")) {
      throw new SQLException("Invalid cursor name " + n + ". Name it like a table", "42601");
    }
    return n.toLowerCase(Locale.ROOT);
  }

  private static String unquote(String v) {
    return v.length() > 1 && v.startsWith("'") && v.endsWith("'")
        ? v.substring(1, v.length() - 1).replace("''", "'") : v;
  }

  /** The position of the parenthesis closing the one at {@code open}; -1 if none. */
  private static int matching(String s, int open) {
    int depth = 0;
    int at = open;
    for (PgToken t : PgLexer.tokenize(s.substring(open))) {
      if (t.is("(")) {
        depth++;
      } else if (t.is(")") && --depth == 0) {
        return at;
      }
      at += t.text().length();
    }
    return -1;
  }

  /** The option that resumes a subscription. */
  String SINCE_VERSION = "since_version";

  /** Whether {@code word} occurs, in any case, in the last {@code tail} characters of {@code s}. */
  private static boolean mentions(String s, String word, int tail) {
    for (int i = Math.max(0, s.length() - tail); i + word.length() <= s.length(); i++) {
      if (s.regionMatches(true, i, word, 0, word.length())) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code s} starts with the keyword {@code word}, in any case. */
  private static boolean startsWith(String s, String word) {
    return s.length() > word.length() && s.regionMatches(true, 0, word, 0, word.length())
        && !isNamePart(s.charAt(word.length()));
  }

  private static boolean isNamePart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  /** The statement without surrounding space, a trailing semicolon or leading comments. */
  private static String strip(String sql) {
    int start = 0;
    for (PgToken t : PgLexer.tokenize(sql)) {
      if (!t.isBlank()) {
        break;
      }
      start += t.text().length();
    }
    String s = sql.substring(start).strip();
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }
}
