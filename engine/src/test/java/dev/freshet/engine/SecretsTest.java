package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.security.ConnectorPolicy;
import dev.freshet.engine.security.EngineSecurity;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.engine.store.ResultDatabase;
import dev.freshet.executor.limits.MemoryPool;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets end to end on an engine: a sink into an H2 server that wants a password gets it from
 * {@code SECRET name}, before and after a restart from the data directory; a password written
 * as a string becomes an anonymous secret that the catalog records in its place; only a
 * secret's owner or an administrator uses or drops it; with a key file the stored value is
 * encrypted, and a wrong key stops the engine from starting; the database file is its owner's
 * alone.
 */
class SecretsTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final Principal ALICE = Principal.user("alice", false);
  private static final Principal BOB = Principal.user("bob", false);

  @TempDir Path dataDir;
  @TempDir Path keys;
  private final List<Engine> engines = new ArrayList<>();
  /** The H2 server the sinks write to, on loopback, whose database wants a password. */
  private Server h2;
  private final String password = "h2-" + UUID.randomUUID();
  private String targetUrl;

  @BeforeEach void startTarget() throws Exception {
    // Loopback only: H2 refuses other hosts unless -tcpAllowOthers is given.
    h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
    targetUrl = "jdbc:h2:tcp://127.0.0.1:" + h2.getPort() + "/mem:" + UUID.randomUUID()
        + ";DB_CLOSE_DELAY=-1";
    // The first connection creates the database, with this user as its administrator.
    try (Connection c = DriverManager.getConnection(targetUrl, "owner", password)) {
      c.createStatement().execute("CREATE TABLE marker (a INT)");
    }
  }

  @AfterEach void close() {
    engines.forEach(Engine::close);
    if (h2 != null) {
      h2.stop();
    }
  }

  private Engine open(EngineSecurity security) {
    Engine engine = new Engine("secrets", Optional.of(dataDir), MemoryPool.UNLIMITED,
        ViewEngines.DEFAULT, security);
    engines.add(engine);
    try {
      // The users' sinks and tables reach outside: the administrator lets them.
      Session admin = engine.openSession();
      admin.execute("GRANT CREATE CONNECTOR TO alice");
      admin.execute("GRANT CREATE CONNECTOR TO bob");
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
    return engine;
  }

  private Engine open() {
    return open(EngineSecurity.EMBEDDED);
  }

  private static EngineSecurity withKey(Path keyFile) {
    return new EngineSecurity(ConnectorPolicy.unrestricted(), Optional.of(keyFile),
        Optional.empty());
  }

  private static List<List<Object>> rows(Session session, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : ((StatementResult.Rows) session.execute(sql)).rows()) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  private String sinkOptions(String passwordOption) {
    return " WITH (connector = 'jdbc', 'url' = '" + targetUrl + "', 'table-name' = 'orders_out',"
        + " 'username' = 'owner', 'password' = " + passwordOption + ")";
  }

  /** Waits until the sink's target table holds the ids {@code 0..count-1}. */
  private void awaitTarget(int count) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    List<Long> ids = List.of();
    while (System.nanoTime() < deadline) {
      try (Connection c = DriverManager.getConnection(targetUrl, "owner", password);
           Statement s = c.createStatement();
           ResultSet r = s.executeQuery("SELECT id FROM orders_out ORDER BY id")) {
        List<Long> read = new ArrayList<>();
        while (r.next()) {
          read.add(r.getLong(1));
        }
        ids = read;
      } catch (SQLException tableNotYetMade) {
        continue;
      }
      if (ids.size() == count) {
        break;
      }
    }
    List<Long> expected = new ArrayList<>();
    for (long id = 0; id < count; id++) {
      expected.add(id);
    }
    assertEquals(expected, ids, "the sink's target after " + DEADLINE);
  }

  /** The statements the catalog of the closed engine's data directory recorded, by name. */
  private List<List<Object>> recorded(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + dataDir.resolve("catalog"),
        ResultDatabase.USER, ""); Statement s = c.createStatement();
         ResultSet r = s.executeQuery(sql)) {
      List<List<Object>> rows = new ArrayList<>();
      while (r.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
          row.add(r.getMetaData().getColumnType(i) == Types.CLOB ? r.getString(i)
              : r.getObject(i));
        }
        rows.add(row);
      }
      return rows;
    }
  }

  private static String queryText(Session session, String name) throws SQLException {
    return (String) rows(session, "SELECT query_text FROM sys.queries WHERE name = '" + name
        + "'").get(0).get(0);
  }

  @Test void shouldWriteThroughASinkWhosePasswordIsASecretAlsoAfterARestart() throws Exception {
    Session alice = open().openSession(ALICE);
    alice.execute("CREATE SECRET h2_pass AS '" + password + "'");
    alice.execute("CREATE STREAM orders (id BIGINT, item VARCHAR)");
    // Bob may read the stream: what he may not is use alice's secret.
    alice.execute("GRANT SELECT ON orders TO bob");
    alice.execute("CREATE SINK orders_sink AS SELECT id, item FROM orders"
        + sinkOptions("SECRET h2_pass"));
    alice.execute("INSERT INTO orders VALUES (0, 'a'), (1, 'b')");
    awaitTarget(2);
    String shown = queryText(alice, "ORDERS_SINK");
    assertTrue(shown.endsWith("'password' = SECRET h2_pass)"), shown);
    assertFalse(shown.contains(password), shown);
    alice.engine().close();

    Session restarted = open().openSession(ALICE);
    assertEquals(List.of(), restarted.engine().notRestored().keySet().stream().toList());
    restarted.execute("INSERT INTO orders VALUES (2, 'c')");
    awaitTarget(3);
    assertEquals(List.of(List.of("H2_PASS", "ALICE", "ORDERS_SINK")),
        rows(restarted, "SHOW SECRETS"));
  }

  @Test void shouldKeepAPasswordWrittenAsAStringAsAnAnonymousSecret() throws Exception {
    Session alice = open().openSession(ALICE);
    alice.execute("CREATE STREAM orders (id BIGINT, item VARCHAR)");
    alice.execute("CREATE SINK orders_sink AS SELECT id, item FROM orders"
        + sinkOptions("'" + password + "'"));
    alice.execute("INSERT INTO orders VALUES (0, 'a')");
    awaitTarget(1);
    String shown = queryText(alice, "ORDERS_SINK");
    assertTrue(shown.endsWith("'password' = SECRET \"ORDERS_SINK$password\")"), shown);
    assertEquals(List.of(List.of("ORDERS_SINK$password", "ALICE", "ORDERS_SINK")),
        rows(alice, "SHOW SECRETS"));
    SQLException inUse = assertThrows(SQLException.class,
        () -> alice.execute("DROP SECRET \"ORDERS_SINK$password\""));
    assertEquals("2BP01", inUse.getSQLState());
    assertEquals("Cannot drop secret 'ORDERS_SINK$password': ORDERS_SINK uses it. Drop it first",
        inUse.getMessage());
    alice.engine().close();

    List<List<Object>> catalog = recorded("SELECT SQL FROM FRESHET_CATALOG WHERE NAME ="
        + " 'ORDERS_SINK'");
    assertFalse(catalog.toString().contains(password), catalog::toString);
    assertTrue(catalog.toString().contains("SECRET \"ORDERS_SINK$password\""),
        catalog::toString);

    Session restarted = open().openSession(ALICE);
    restarted.execute("INSERT INTO orders VALUES (1, 'b')");
    awaitTarget(2);
    restarted.execute("DROP SINK orders_sink");
    assertEquals(List.of(), rows(restarted, "SHOW SECRETS"));
  }

  @Test void shouldLetOnlyTheOwnerOrAnAdministratorUseOrDropASecret() throws Exception {
    Engine engine = open();
    Session alice = engine.openSession(ALICE);
    Session bob = engine.openSession(BOB);
    Session admin = engine.openSession(Principal.LOCAL);
    alice.execute("CREATE SECRET h2_pass AS '" + password + "'");
    alice.execute("CREATE STREAM orders (id BIGINT, item VARCHAR)");
    // Bob may read the stream: what he may not is use alice's secret.
    alice.execute("GRANT SELECT ON orders TO bob");

    SQLException drop = assertThrows(SQLException.class,
        () -> bob.execute("DROP SECRET h2_pass"));
    assertEquals("42501", drop.getSQLState());
    assertEquals("Permission denied to drop secret 'H2_PASS': only its owner or an administrator"
        + " may, and bob is neither. Create a secret of your own with CREATE SECRET",
        drop.getMessage());
    SQLException use = assertThrows(SQLException.class, () -> bob.execute("CREATE SINK bobs AS"
        + " SELECT id, item FROM orders" + sinkOptions("SECRET h2_pass")));
    assertEquals("42501", use.getSQLState());
    assertTrue(use.getMessage().startsWith("Permission denied to use secret 'H2_PASS'"),
        use.getMessage());
    assertEquals(List.of(), engine.queryRegistry().sinks().keySet().stream().toList());
    assertEquals(List.of(), rows(bob, "SHOW SECRETS"));
    SQLException unknown = assertThrows(SQLException.class, () -> bob.execute("CREATE TABLE t"
        + " (a INT) WITH (connector = 'jdbc', 'url' = '" + targetUrl + "', 'table-name' ="
        + " 'marker', 'password' = SECRET nope)"));
    assertEquals("42704", unknown.getSQLState());
    assertEquals("Secret 'NOPE' does not exist. Create it with CREATE SECRET NOPE AS '...', or"
        + " see SHOW SECRETS for the secrets you own", unknown.getMessage());
    assertEquals("42704", assertThrows(SQLException.class,
        () -> bob.execute("DROP SECRET nope")).getSQLState());
    bob.execute("DROP SECRET IF EXISTS nope");
    assertEquals("42S01", assertThrows(SQLException.class,
        () -> bob.execute("CREATE SECRET h2_pass AS 'other'")).getSQLState());
    bob.execute("CREATE SECRET IF NOT EXISTS h2_pass AS 'other'");
    assertEquals("42000", assertThrows(SQLException.class,
        () -> bob.execute("CREATE SECRET \"T$password\" AS 'x'")).getSQLState());

    // An administrator uses anyone's secret, and drops it once nothing uses it.
    admin.execute("CREATE TABLE marker (a INT) WITH (connector = 'jdbc', 'url' = '" + targetUrl
        + "', 'table-name' = 'marker', 'username' = 'owner', 'password' = SECRET h2_pass)");
    assertEquals(List.of(List.of("H2_PASS", "ALICE", "MARKER")), rows(admin, "SHOW SECRETS"));
    assertEquals("2BP01", assertThrows(SQLException.class,
        () -> alice.execute("DROP SECRET h2_pass")).getSQLState());
    admin.execute("DROP TABLE marker");
    admin.execute("DROP SECRET h2_pass");
    assertEquals(List.of(), rows(alice, "SHOW SECRETS"));
  }

  @Test void shouldRefuseSecretStatementsOnAReadOnlySession() throws Exception {
    Session alice = open().openSession(ALICE);
    alice.setReadOnly(true);

    assertEquals("25006", assertThrows(SQLException.class,
        () -> alice.execute("CREATE SECRET s AS 'x'")).getSQLState());
    assertEquals("25006", assertThrows(SQLException.class,
        () -> alice.execute("DROP SECRET s")).getSQLState());
  }

  @Test void shouldStoreTheValueEncryptedWhenAKeyFileIsGiven() throws Exception {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    Path keyFile = Files.write(keys.resolve("secrets.key"),
        Base64.getEncoder().encode(key));
    // A secret stored before there was a key is encrypted when the engine starts with one.
    open().openSession(ALICE).execute("CREATE SECRET early AS 'early-" + password + "'");
    engines.get(0).close();

    Session alice = open(withKey(keyFile)).openSession(ALICE);
    alice.execute("CREATE SECRET h2_pass AS '" + password + "'");
    alice.execute("CREATE STREAM orders (id BIGINT, item VARCHAR)");
    // Bob may read the stream: what he may not is use alice's secret.
    alice.execute("GRANT SELECT ON orders TO bob");
    alice.execute("CREATE SINK orders_sink AS SELECT id, item FROM orders"
        + sinkOptions("SECRET h2_pass"));
    alice.engine().close();
    List<List<Object>> stored = recorded("SELECT NAME, SECRET_VALUE FROM FRESHET_SECRETS"
        + " ORDER BY NAME");
    assertEquals(2, stored.size());
    for (List<Object> row : stored) {
      byte[] value = (byte[]) row.get(1);
      assertEquals(1, value[0], "sealed: " + row.get(0));
      assertFalse(new String(value, StandardCharsets.ISO_8859_1).contains(password),
          "plaintext of " + row.get(0));
    }

    Session restarted = open(withKey(keyFile)).openSession(ALICE);
    restarted.execute("INSERT INTO orders VALUES (0, 'a')");
    awaitTarget(1);
    restarted.engine().close();

    byte[] otherKey = new byte[32];
    new SecureRandom().nextBytes(otherKey);
    Path wrong = Files.write(keys.resolve("wrong.key"), otherKey);
    IllegalStateException wrongKey = assertThrows(IllegalStateException.class,
        () -> open(withKey(wrong)));
    assertEquals("The secrets in " + dataDir.resolve("catalog.mv.db") + " cannot be decrypted"
        + " with the key in " + wrong + ": it is not the key they were encrypted with. Start"
        + " with that key's file (--secrets-key-file)", wrongKey.getMessage());
    IllegalStateException noKey = assertThrows(IllegalStateException.class, this::open);
    assertEquals("The secrets in " + dataDir.resolve("catalog.mv.db") + " are encrypted, and no"
        + " key was given. Start with the key file they were encrypted with"
        + " (--secrets-key-file)", noKey.getMessage());
    // The failed starts released the data directory.
    open(withKey(keyFile)).close();
  }

  @Test void shouldRefuseAKeyFileInsideTheDataDirectory() throws Exception {
    Files.createDirectories(dataDir);
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    Path inside = Files.write(dataDir.resolve("secrets.key"), key);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> open(withKey(inside)));

    assertTrue(e.getMessage().startsWith("The secrets key file " + inside + " is inside the"
        + " data directory"), e.getMessage());
    open().close();
  }

  @Test void shouldMakeTheDataDirectoryAndTheDatabaseFilesTheirOwnersAlone() throws Exception {
    Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews()
        .contains("posix"), "modes are POSIX's");
    Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Engine engine = open();
    engine.openSession(ALICE).execute("CREATE SECRET s AS '" + password + "'");

    assertEquals("rwx------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(dataDir)));
    assertEquals("rw-------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(dataDir.resolve("catalog.mv.db"))));
    engine.close();
    // Loosened behind the engine's back, tightened again at the next start.
    Files.setPosixFilePermissions(dataDir.resolve("catalog.mv.db"),
        PosixFilePermissions.fromString("rw-r--r--"));
    open();
    assertEquals("rw-------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(dataDir.resolve("catalog.mv.db"))));
  }

  @Test void shouldTurnAPasswordAnOlderEngineRecordedIntoAnAnonymousSecret() throws Exception {
    Files.createDirectories(dataDir);
    String legacy = "CREATE TABLE marker (a INT) WITH (connector = 'jdbc', 'url' = '"
        + targetUrl + "', 'table-name' = 'marker', 'username' = 'owner',\n  'password' = '"
        + password + "')";
    try (ResultDatabase db = ResultDatabase.open(Optional.of(dataDir))) {
      new CatalogStore(db).record(CatalogStore.Kind.TABLE, "MARKER", legacy, Map.of());
    }

    Session session = open().openSession();
    assertEquals(List.of(List.of(0L)), rows(session, "SELECT COUNT(*) FROM marker"));
    assertEquals(List.of(List.of("MARKER$password", "FRESHET", "MARKER")),
        rows(session, "SHOW SECRETS"));
    session.engine().close();

    assertEquals(List.of(List.of(legacy.replace("'" + password + "'",
        "SECRET \"MARKER$password\""))), recorded("SELECT SQL FROM FRESHET_CATALOG"));
    Session again = open().openSession();
    assertEquals(List.of(List.of(0L)), rows(again, "SELECT COUNT(*) FROM marker"));
  }

  @Test void shouldHideTheSecretsOfAFailedStatementFromItsError() throws Exception {
    Session alice = open().openSession(ALICE);
    alice.execute("CREATE SECRET wrong AS 'not-" + password + "'");

    SQLException badSyntax = assertThrows(SQLException.class,
        () -> alice.execute("CREATE SECRET s '" + password + "'"));
    SQLException refused = assertThrows(SQLException.class, () -> alice.execute("CREATE TABLE"
        + " t (a INT) WITH (connector = 'jdbc', 'url' = '" + targetUrl + ";PASSWORD=" + password
        + "', 'table-name' = 'marker', 'username' = 'owner', 'password' = SECRET wrong)"));

    assertEquals("42000", badSyntax.getSQLState());
    assertFalse(badSyntax.getMessage().contains(password), badSyntax.getMessage());
    assertEquals("08001", refused.getSQLState());
    assertFalse(refused.getMessage().contains(password), refused.getMessage());
    assertTrue(refused.getMessage().contains(";PASSWORD=***"), refused.getMessage());
  }
}
