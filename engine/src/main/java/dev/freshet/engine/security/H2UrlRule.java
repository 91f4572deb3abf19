package dev.freshet.engine.security;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The rule of an H2 client URL ({@code jdbc:h2:tcp:} or {@code jdbc:h2:ssl:}) on a server: the
 * database is an H2 server's, and only the {@code ;KEY=VALUE} settings that tune the session pass.
 * H2 reads settings in any case ({@code ;init=} is {@code INIT}), so they are compared in upper
 * case. Refused are, among every other: {@code INIT} (SQL run on the database server at connect,
 * such as {@code RUNSCRIPT} or a {@code CREATE ALIAS} that compiles Java), {@code TRACE_LEVEL_FILE}
 * (the client writes a trace file on this server), {@code DATABASE_EVENT_LISTENER} (a class the
 * client loads here), {@code JAVA_OBJECT_SERIALIZER} (a class the client loads here when the
 * server names it), {@code RECOVER_TEST} (H2's test code, called here), {@code CIPHER},
 * {@code AUTHREALM}, {@code IGNORE_UNKNOWN_SETTINGS}, and {@code USER}/{@code PASSWORD}, which
 * belong in the {@code 'username'} and {@code 'password'} options.
 *
 * <pre>{@code
 * H2UrlRule.check("Table T", "jdbc:h2:tcp://db:9092/mem:ref;DB_CLOSE_DELAY=-1");   // allowed
 * H2UrlRule.check("Table T", "jdbc:h2:tcp://db:9092/mem:ref;init=RUNSCRIPT ...");  // 42501
 * }</pre>
 *
 * <p>H2 takes a backslash as an escape inside settings and decodes nothing else;
 * {@link JdbcUrlRule} refuses backslashes already, and this rule refuses {@code ? & %}, which
 * an H2 URL has no use for.
 */
final class H2UrlRule {
  /** The settings that pass, as H2 names them. */
  static final List<String> ALLOWED = List.of("ACCESS_MODE_DATA", "AUTO_RECONNECT",
      "CASE_INSENSITIVE_IDENTIFIERS", "DATABASE_TO_LOWER", "DATABASE_TO_UPPER",
      "DB_CLOSE_DELAY", "DEFAULT_NULL_ORDERING", "FORBID_CREATION", "IFEXISTS", "LOCK_TIMEOUT",
      "MODE", "NETWORK_TIMEOUT", "NON_KEYWORDS", "QUERY_TIMEOUT", "SCHEMA");
  /** Host names or addresses with ports, comma-separated for H2's cluster mode. */
  private static final Pattern SERVERS = Pattern.compile("[A-Za-z0-9._:,\\[\\]-]+");
  /** The database's name on its server, e.g. {@code mem:ref}, {@code ~/shop}, {@code /db/x}. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._~:/-]+");
  private static final Pattern VALUE = Pattern.compile("[A-Za-z0-9._:,+-]*");
  private static final String FORM = "jdbc:h2:tcp://host:port/name;SETTING=value";

  private H2UrlRule() {
  }

  /**
   * Passes an H2 client URL of the form {@value #FORM} whose settings are all allowed.
   *
   * @throws SQLException 42501 naming what is refused
   */
  static void check(String object, String url) throws SQLException {
    String rest = url.substring(JdbcUrlRule.H2_TCP.length());
    for (char c : new char[] {'?', '&', '%'}) {
      if (rest.indexOf(c) >= 0) {
        throw JdbcUrlRule.refused(object, "its 'url' has '" + c + "', which an H2 URL has no"
            + " use for", "Write it as " + FORM);
      }
    }
    int semicolon = rest.indexOf(';');
    String location = semicolon < 0 ? rest : rest.substring(0, semicolon);
    if (location.startsWith("//")) {
      location = location.substring(2);
    }
    int slash = location.indexOf('/');
    if (slash <= 0 || !SERVERS.matcher(location.substring(0, slash)).matches()
        || !NAME.matcher(location.substring(slash + 1)).matches()) {
      throw JdbcUrlRule.refused(object, "its 'url' does not name an H2 server and a database"
          + " on it plainly", "Write it as " + FORM + " (the name of letters, digits and"
          + " . _ ~ : / -)");
    }
    if (semicolon < 0) {
      return;
    }
    for (String setting : rest.substring(semicolon + 1).split(";", -1)) {
      if (setting.isEmpty()) {
        continue;  // H2 skips an empty setting too
      }
      int equals = setting.indexOf('=');
      String key = (equals < 0 ? setting : setting.substring(0, equals))
          .toUpperCase(Locale.ROOT);
      if (!ALLOWED.contains(key)) {
        throw JdbcUrlRule.refused(object, "its 'url' has H2 setting '" + key + "', which this"
            + " server does not pass to H2 (it could run SQL on the database server, or make H2"
            + " load a class or write a file here). Allowed: " + String.join(", ", ALLOWED),
            key.equals("USER") || key.equals("PASSWORD")
                ? "Give the user and password in options 'username' and 'password'"
                : "Leave it out");
      }
      if (equals < 0 || !VALUE.matcher(setting.substring(equals + 1)).matches()) {
        throw JdbcUrlRule.refused(object, "its 'url' gives H2 setting " + key + " no plain value",
            "Write it as ;" + key + "=value, the value of letters, digits and . _ : , + -");
      }
    }
  }
}
