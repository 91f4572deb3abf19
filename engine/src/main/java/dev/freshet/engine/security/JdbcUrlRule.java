package dev.freshet.engine.security;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import java.sql.SQLException;

/**
 * The rule of a JDBC table's or sink's {@code url} on a server: the database must be a server of
 * its own, reached over the network, in a form whose settings cannot make the JDBC driver load a
 * class, read or write a file, or run SQL of the URL's choosing:
 * {@code jdbc:postgresql:} ({@link PostgresUrlRule}) or H2's client, {@code jdbc:h2:tcp:} and
 * {@code jdbc:h2:ssl:} ({@link H2UrlRule}). An H2 database in memory or in a file would run inside
 * the server, with the server's rights, so it is refused, as is every other driver.
 *
 * <pre>{@code
 * JdbcUrlRule.check("Table T", "jdbc:postgresql://db:5432/shop?sslmode=require");   // allowed
 * JdbcUrlRule.check("Table T", "jdbc:h2:mem:x;INIT=RUNSCRIPT FROM '/tmp/x.sql'");   // 42501
 * }</pre>
 *
 * <p>The prefixes are matched exactly, as the drivers match them: {@code jdbc:H2:mem:} is no H2
 * URL to H2, and {@code jdbc:h2:TCP:} is a file database to it. Only letters, digits and
 * {@code . _ ~ : / - , = ; ? & % + [ ]} may appear at all: no spaces, quotes or backslashes, with
 * which a value could carry a setting of its own.
 */
final class JdbcUrlRule {
  static final String POSTGRESQL = "jdbc:postgresql:";
  static final String H2_TCP = "jdbc:h2:tcp:";
  static final String H2_SSL = "jdbc:h2:ssl:";
  private static final String PUNCTUATION = "._~:/-,=;?&%+[]";

  private JdbcUrlRule() {
  }

  /**
   * Passes a URL the server may connect to, refuses any other.
   *
   * @param object what connects, as messages name it, e.g. {@code Table CUSTOMERS}
   * @throws SQLException 42501 naming what in the URL is refused and what is allowed
   */
  static void check(String object, String url) throws SQLException {
    boolean postgresql = url.startsWith(POSTGRESQL);
    if (!postgresql && !url.startsWith(H2_TCP) && !url.startsWith(H2_SSL)) {
      throw refused(object, "its 'url' is not of a database server this server may connect to:"
          + " a JDBC URL must start with " + POSTGRESQL + ", " + H2_TCP + " or " + H2_SSL
          + ", written so. An H2 database in memory or in a file (jdbc:h2:mem:, jdbc:h2:/path)"
          + " would run inside this server", "Connect to a PostgreSQL server, or serve the H2"
          + " database with H2's TCP server and use jdbc:h2:tcp://host:port/name");
    }
    for (int i = 0; i < url.length(); i++) {
      char c = url.charAt(i);
      boolean plain = c < 128 && (Character.isLetterOrDigit(c) || PUNCTUATION.indexOf(c) >= 0);
      if (!plain) {
        throw refused(object, "its 'url' has " + describe(c) + " at position " + (i + 1)
            + ", and on this server a JDBC URL holds only letters, digits and "
            + String.join(" ", PUNCTUATION.split("")), "Write the URL without it (a parameter"
            + " value of jdbc:postgresql: may be URL-encoded, e.g. %20 for a space)");
      }
    }
    if (postgresql) {
      PostgresUrlRule.check(object, url);
    } else {
      H2UrlRule.check(object, url);
    }
  }

  private static String describe(char c) {
    return Character.isISOControl(c) || Character.isWhitespace(c)
        ? String.format("the character U+%04X", (int) c) : "'" + c + "'";
  }

  /** A refusal of {@code object}'s URL: {@code why} it is refused, {@code fix} what to do. */
  static SQLException refused(String object, String why, String fix) {
    return Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, object + " cannot connect: " + why + ". "
        + fix);
  }
}
