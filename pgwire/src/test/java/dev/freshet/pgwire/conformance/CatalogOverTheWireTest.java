package dev.freshet.pgwire.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The catalog as the endpoint serves it by default ({@code PgServer.builder(engine)}), read
 * with pgjdbc in text and in binary ({@code prepareThreshold=-1}: every statement prepared on
 * the server, results in binary where pgjdbc reads the type so): catalog columns described with
 * PostgreSQL's types ({@code oid}, {@code name}, {@code "char"}, {@code int2vector},
 * {@code text[]}), arrays as PostgreSQL writes them, and the connection's settings in
 * {@code current_setting()} and {@code pg_settings}, agreeing with ParameterStatus and
 * {@code version()}.
 */
class CatalogOverTheWireTest {
  private static FreshetEndpoint freshet;

  @BeforeAll static void start() throws Exception {
    freshet = FreshetEndpoint.start("catalog-over-the-wire");
  }

  @AfterAll static void stop() throws Exception {
    try {
      freshet.assertEachStatementSucceeded();
    } finally {
      freshet.close();
    }
  }

  private static Connection connect(String prepareThreshold) throws Exception {
    Properties p = new Properties();
    p.setProperty("user", "freshet");
    p.setProperty("password", "unused");
    p.setProperty("prepareThreshold", prepareThreshold);
    p.setProperty("socketTimeout", "120");
    return DriverManager.getConnection(freshet.endpoint().jdbcUrl(), p);
  }

  @ParameterizedTest @ValueSource(strings = {"5", "-1"})
  void shouldDescribeCatalogColumnsWithPostgresqlTypes(String prepareThreshold)
      throws Exception {
    try (Connection c = connect(prepareThreshold);
         PreparedStatement p = c.prepareStatement("SELECT c.oid, c.relname, c.relkind,"
             + " c.relnamespace, i.indkey, i.indisprimary FROM pg_catalog.pg_class c"
             + " JOIN pg_catalog.pg_index i ON i.indrelid = c.oid WHERE c.relname = ?")) {
      p.setString(1, "users");
      try (ResultSet rs = p.executeQuery()) {
        ResultSetMetaData md = rs.getMetaData();
        assertEquals("oid", md.getColumnTypeName(1));
        assertEquals("name", md.getColumnTypeName(2));
        assertEquals("char", md.getColumnTypeName(3));
        assertEquals("oid", md.getColumnTypeName(4));
        assertEquals("int2vector", md.getColumnTypeName(5));
        assertEquals("bool", md.getColumnTypeName(6));
        assertTrue(rs.next());
        assertTrue(rs.getLong(1) >= 16384, "a user object's OID: " + rs.getLong(1));
        assertEquals("users", rs.getString(2));
        assertEquals("r", rs.getString(3));
        assertEquals(2200, rs.getLong(4));
        assertEquals("1", rs.getString(5));
        assertTrue(rs.getBoolean(6));
      }
    }
  }

  @ParameterizedTest @ValueSource(strings = {"5", "-1"})
  void shouldWriteArraysAsPostgresqlDoes(String prepareThreshold) throws Exception {
    try (Connection c = connect(prepareThreshold);
         PreparedStatement p = c.prepareStatement("SELECT current_schemas(true) AS s,"
             + " ARRAY['a', 'b c', 'x,y', 'q\"r', '', 'null', NULL] AS t,"
             + " current_database() AS d")) {
      for (int run = 0; run < 3; run++) {
        try (ResultSet rs = p.executeQuery()) {
          assertEquals("_text", rs.getMetaData().getColumnTypeName(2));
          assertTrue(rs.next());
          assertArrayEquals(new Object[] {"pg_catalog", "public"},
              (Object[]) rs.getArray(1).getArray());
          if (prepareThreshold.equals("5")) {
            // In text, as array_out writes it (pgjdbc quotes every element of a binary one).
            assertEquals("{pg_catalog,public}", rs.getString(1));
            assertEquals("{a,\"b c\",\"x,y\",\"q\\\"r\",\"\",\"null\",NULL}",
                rs.getString(2));
          }
          assertArrayEquals(new Object[] {"a", "b c", "x,y", "q\"r", "", "null", null},
              (Object[]) rs.getArray(2).getArray());
          assertEquals("freshet", rs.getString(3));
        }
      }
    }
  }

  @ParameterizedTest @ValueSource(strings = {"5", "-1"})
  void shouldShowTheConnectionsSettings(String prepareThreshold) throws Exception {
    try (Connection c = connect(prepareThreshold); Statement s = c.createStatement()) {
      s.execute("SET application_name = 'conformance'");
      s.execute("SET TimeZone = 'Europe/Paris'");
      try (ResultSet rs = s.executeQuery("SELECT current_setting('application_name'),"
          + " current_setting('timezone'), (SELECT setting FROM pg_settings"
          + " WHERE name = 'application_name'), current_setting('server_version'), version()")) {
        assertTrue(rs.next());
        assertEquals("conformance", rs.getString(1));
        assertEquals("Europe/Paris", rs.getString(2));
        assertEquals("conformance", rs.getString(3));
        String serverVersion = c.unwrap(org.postgresql.PGConnection.class)
            .getParameterStatus("server_version");
        assertEquals(serverVersion, rs.getString(4));
        assertTrue(rs.getString(5).startsWith("PostgreSQL " + serverVersion + " "),
            rs.getString(5) + " / " + serverVersion);
      }
      try (ResultSet rs = s.executeQuery("SHOW server_version")) {
        assertTrue(rs.next());
        assertEquals(c.unwrap(org.postgresql.PGConnection.class)
            .getParameterStatus("server_version"), rs.getString(1));
      }
      // Another connection has its own settings.
      try (Connection other = connect(prepareThreshold); Statement o = other.createStatement();
           ResultSet rs = o.executeQuery("SELECT current_setting('application_name')")) {
        assertTrue(rs.next());
        assertEquals("PostgreSQL JDBC Driver", rs.getString(1));
      }
    }
  }
}
