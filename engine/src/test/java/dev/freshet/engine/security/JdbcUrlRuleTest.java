package dev.freshet.engine.security;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JDBC URLs a server's tables and sinks may connect to ({@link JdbcUrlRule},
 * {@link PostgresUrlRule}, {@link H2UrlRule}): what passes, what is refused with 42501, and the
 * spellings that try to slip a refused form past a check.
 */
class JdbcUrlRuleTest {
  private static SQLException refused(String url) {
    SQLException e = assertThrows(SQLException.class, () -> JdbcUrlRule.check("Table T", url),
        url);
    assertEquals("42501", e.getSQLState(), url);
    assertTrue(e.getMessage().startsWith("Table T cannot connect: "), e.getMessage());
    return e;
  }

  private static void allowed(String url) {
    assertDoesNotThrow(() -> JdbcUrlRule.check("Table T", url), url);
  }

  @Test void shouldAllowPostgresqlAndH2ServersInTheirPlainForms() {
    for (String url : List.of(
        "jdbc:postgresql://db/shop",
        "jdbc:postgresql://db:5432/shop",
        "jdbc:postgresql:shop",
        "jdbc:postgresql://db1:5432,db2:5433/shop?targetServerType=primary",
        "jdbc:postgresql://[::1]:5432/shop",
        "jdbc:postgresql://db/shop?sslmode=verify-full&ApplicationName=freshet%20sink"
            + "&connectTimeout=5&socketTimeout=30&currentSchema=app&reWriteBatchedInserts=true",
        "jdbc:postgresql://db/shop?ssl&tcpKeepAlive=true&sslResponseTimeout=5000",
        "jdbc:h2:tcp://localhost:9092/mem:ref",
        "jdbc:h2:tcp://localhost/~/shop;MODE=PostgreSQL;DB_CLOSE_DELAY=-1",
        "jdbc:h2:ssl://db:9093/shop;IFEXISTS=TRUE",
        "jdbc:h2:tcp:localhost/mem:x",
        "jdbc:h2:tcp://a:9092,b:9092/mem:x;non_keywords=KEY,VALUE;")) {
      allowed(url);
    }
  }

  @Test void shouldRefuseAnH2DatabaseInsideTheServer() {
    SQLException e = refused("jdbc:h2:mem:x");
    assertEquals("Table T cannot connect: its 'url' is not of a database server this server may"
        + " connect to: a JDBC URL must start with jdbc:postgresql:, jdbc:h2:tcp: or"
        + " jdbc:h2:ssl:, written so. An H2 database in memory or in a file (jdbc:h2:mem:,"
        + " jdbc:h2:/path) would run inside this server. Connect to a PostgreSQL server, or serve"
        + " the H2 database with H2's TCP server and use jdbc:h2:tcp://host:port/name",
        e.getMessage());
    assertTrue(refused("jdbc:h2:mem:x;INIT=RUNSCRIPT FROM '/tmp/x.sql'").getMessage()
        .startsWith("Table T cannot connect: its 'url' is not of a database server"));
    refused("jdbc:h2:/tmp/xyz");
    refused("jdbc:h2:file:/tmp/xyz");
    refused("jdbc:h2:./xyz");
    refused("jdbc:h2:zip:/tmp/x.zip!/db");
  }

  /** The drivers match their prefixes exactly: to H2, {@code jdbc:h2:TCP:} is a file. */
  @Test void shouldMatchThePrefixesAsTheDriversDo() {
    refused("jdbc:H2:mem:x");
    refused("jdbc:h2:TCP://localhost/mem:x");
    refused("JDBC:postgresql://db/shop");
    refused("jdbc:PostgreSQL://db/shop");
    refused("jdbc:derby:memory:x;create=true");
    refused("jdbc:sqlite:/tmp/x.db");
    refused(" jdbc:postgresql://db/shop");
  }

  @Test void shouldRefuseInitInAnyCaseAndAnyPlace() {
    SQLException e = refused("jdbc:h2:tcp://h/x;init=RUNSCRIPT FROM '/tmp/x.sql'");
    assertTrue(e.getMessage().contains("U+0020 at position 33"), "the space is refused first: "
        + e.getMessage());
    e = refused("jdbc:h2:tcp://h/x;init=CALL1");
    assertEquals("Table T cannot connect: its 'url' has H2 setting 'INIT', which this server does"
        + " not pass to H2 (it could run SQL on the database server, or make H2 load a class or"
        + " write a file here). Allowed: " + String.join(", ", H2UrlRule.ALLOWED)
        + ". Leave it out", e.getMessage());
    refused("jdbc:h2:tcp://h/x;MODE=MySQL;InIt=x");
    refused("jdbc:h2:ssl://h/x;INIT");
  }

  @Test void shouldRefuseH2SettingsThatLoadClassesOrWriteFilesHere() {
    for (String setting : List.of("TRACE_LEVEL_FILE=3", "TRACE_LEVEL_SYSTEM_OUT=3",
        "DATABASE_EVENT_LISTENER=x.Y", "JAVA_OBJECT_SERIALIZER=x.Y", "RECOVER_TEST=1",
        "CIPHER=AES", "AUTHREALM=x", "IGNORE_UNKNOWN_SETTINGS=TRUE", "AUTO_SERVER=TRUE",
        "OPEN_NEW=TRUE", "PASSWORD_HASH=TRUE", "CACHE_TYPE=x", "FILE_LOCK=NO", "JMX=TRUE")) {
      refused("jdbc:h2:tcp://h/x;" + setting);
    }
    SQLException e = refused("jdbc:h2:tcp://h/x;USER=sa");
    assertTrue(e.getMessage().endsWith("Give the user and password in options 'username' and"
        + " 'password'"), e.getMessage());
  }

  /** H2 takes a backslash as an escape inside its settings: none may appear at all. */
  @Test void shouldRefuseCharactersThatCouldSmuggleASetting() {
    SQLException e = refused("jdbc:h2:tcp://h/x;MODE=a\\;INIT=x");
    assertEquals("Table T cannot connect: its 'url' has '\\' at position 25, and on this server"
        + " a JDBC URL holds only letters, digits and . _ ~ : / - , = ; ? & % + [ ]. Write the"
        + " URL without it (a parameter value of jdbc:postgresql: may be URL-encoded, e.g. %20"
        + " for a space)", e.getMessage());
    refused("jdbc:h2:tcp://h/x;MODE=a\n;INIT=x");
    refused("jdbc:h2:tcp://h/x%3BINIT=x");
    refused("jdbc:h2:tcp://h/x?INIT=x");
    refused("jdbc:h2:tcp://h/x;MODE='x'");
    refused("jdbc:h2:tcp://h/x;MODE=a=b");
    refused("jdbc:h2:tcp://h/x;MODE");
    refused("jdbc:postgresql://db/shop;socketFactory=x");
    refused("jdbc:postgresql://db/shop?ApplicationName=\u00e9");
    refused("jdbc:h2:tcp://h/x;\u0130NIT=x");
  }

  @Test void shouldRefuseAnH2UrlWithoutAServerAndName() {
    refused("jdbc:h2:tcp://h");
    refused("jdbc:h2:tcp:///x");
    refused("jdbc:h2:tcp://h/");
    refused("jdbc:h2:tcp:");
  }

  @Test void shouldRefusePgjdbcParametersThatLoadClassesOrReadFiles() {
    for (String parameter : List.of("socketFactory", "socketFactoryArg", "sslfactory",
        "sslfactoryarg", "sslhostnameverifier", "sslpasswordcallback",
        "authenticationPluginClassName", "loggerFile", "loggerLevel", "sslcert", "sslkey",
        "sslrootcert", "sslpassword", "jaasApplicationName", "jaasLogin", "gsslib",
        "kerberosServerName", "sspiServiceClass", "options", "service", "xmlFactoryFactory",
        "localSocketAddress", "replication", "PGHOST", "password")) {
      refused("jdbc:postgresql://db/shop?sslmode=require&" + parameter + "=x");
    }
    SQLException e = refused("jdbc:postgresql://h/db?socketFactory=x.Y");
    assertEquals("Table T cannot connect: its 'url' has parameter 'socketFactory', which this"
        + " server does not pass to PostgreSQL's driver (it could make the driver load a class,"
        + " read a file, or log in as the server). Allowed: "
        + String.join(", ", PostgresUrlRule.ALLOWED) + ". Leave it out", e.getMessage());
  }

  @Test void shouldRefusePgjdbcParametersInAnySpellingOrEncoding() {
    refused("jdbc:postgresql://h/db?SOCKETFACTORY=x.Y");
    refused("jdbc:postgresql://h/db?SocketFactory=x.Y");
    refused("jdbc:postgresql://h/db?socket%46actory=x.Y");
    refused("jdbc:postgresql://h/db?%73ocketFactory=x.Y");
    refused("jdbc:postgresql://h/db?socketFactory");
    refused("jdbc:postgresql://h/db?&&socketFactory=x.Y");
    allowed("jdbc:postgresql://h/db?SSLMODE=require&applicationname=x");
  }

  @Test void shouldPointAPasswordInTheUrlToTheOption() {
    SQLException e = refused("jdbc:postgresql://h/db?password=secret");
    assertTrue(e.getMessage().endsWith("Give the password in option 'password'"),
        e.getMessage());
    assertTrue(!e.getMessage().contains("secret"), "the value is not shown: " + e.getMessage());
  }
}
