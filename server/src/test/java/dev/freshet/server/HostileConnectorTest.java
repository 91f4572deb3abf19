package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.awaitView;
import static dev.freshet.server.RemoteTesting.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A hostile user's connectors against a real {@code freshet serve --auth BASIC}, through the
 * remote driver, as its administrator (these are refused to everyone): a JDBC URL that runs a
 * script or writes a file, a {@code filesystem} stream over {@code /etc}, Kafka properties that
 * load classes or read files, and pgjdbc parameters that load a class are refused with 42501
 * before anything is connected or read. Where the attack can be shown, an embedded engine,
 * which trusts its process, runs the same statement, and it does what it says: the proof that
 * the test would fail without the server's refusal.
 */
class HostileConnectorTest {
  private static final String ADMIN = "admin";
  private static final String ADMIN_PASSWORD = "pw";

  @TempDir Path dir;
  private Path usersFile;
  private final List<AutoCloseable> opened = new ArrayList<>();

  @BeforeEach void users() throws Exception {
    usersFile = Files.writeString(dir.resolve("users.properties"),
        ADMIN + ": " + ADMIN_PASSWORD + ",admin\nalice: alice-pw\nbob: bob-pw\n");
  }

  @AfterEach void close() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  /** A server started as {@code freshet serve --auth BASIC ... args} would start it. */
  private FreshetServer serve(String... args) {
    ServeCommand command = new ServeCommand();
    List<String> all = new ArrayList<>(List.of("--auth", "BASIC", "--users-file",
        usersFile.toString()));
    all.addAll(List.of(args));
    new CommandLine(command).parseArgs(all.toArray(String[]::new));
    FreshetServer server = command.builder().port(0).start();
    opened.add(server);
    return server;
  }

  /** The administrator's statement on {@code server}, through the remote driver. */
  private Statement admin(FreshetServer server) throws SQLException {
    Connection connection = DriverManager.getConnection("jdbc:freshet:remote:url="
        + server.url(), ADMIN, ADMIN_PASSWORD);
    opened.add(connection);
    return connection.createStatement();
  }

  private static SQLException refused(Statement statement, String sql) {
    SQLException e = assertThrows(SQLException.class, () -> statement.execute(sql), sql);
    assertEquals("42501", e.getSQLState(), e.getMessage());
    return e;
  }

  /** Runs {@code sql} on an engine that trusts its process, as the embedded driver's does. */
  private static void runEmbedded(String sql) {
    try (Engine embedded = new Engine("trusted-control")) {
      embedded.openSession().execute(sql);
    } catch (SQLException e) {
      // What the attack did, it did while connecting; the statement itself may then fail.
    }
  }

  /** 1. {@code INIT=RUNSCRIPT} of a script whose {@code CREATE ALIAS} runs Java. */
  @Test void shouldRefuseAnH2UrlThatRunsAScriptWithoutReadingIt() throws Exception {
    Path marker = dir.resolve("init-marker");
    Path script = Files.writeString(dir.resolve("attack.sql"), "CREATE ALIAS MARK AS $$ String"
        + " mark() throws Exception { java.nio.file.Files.writeString(java.nio.file.Path.of(\""
        + marker + "\"), \"ran\"); return \"ran\"; } $$;\nCALL MARK();\n");
    Files.setAttribute(script, "lastAccessTime", FileTime.fromMillis(0));
    String url = "jdbc:h2:mem:attack;INIT=RUNSCRIPT FROM ''" + script + "''";
    String createTable = "CREATE TABLE t (x INT) WITH (connector = 'jdbc', 'url' = '" + url
        + "', 'table-name' = 'T')";
    Statement admin = admin(serve());
    SQLException e = refused(admin, createTable);
    assertEquals("Table T cannot connect: its 'url' is not of a database server this server may"
        + " connect to: a JDBC URL must start with jdbc:postgresql:, jdbc:h2:tcp: or"
        + " jdbc:h2:ssl:, written so. An H2 database in memory or in a file (jdbc:h2:mem:,"
        + " jdbc:h2:/path) would run inside this server. Connect to a PostgreSQL server, or serve"
        + " the H2 database with H2's TCP server and use jdbc:h2:tcp://host:port/name",
        e.getMessage());
    admin.execute("CREATE STREAM src (x INT)");
    e = refused(admin, "CREATE SINK leak AS SELECT x FROM src WITH (connector = 'jdbc', 'url' = '"
        + url + "', 'table-name' = 'T')");
    assertTrue(e.getMessage().startsWith("Sink LEAK cannot connect: its 'url' is not of a"
        + " database server"), e.getMessage());
    // Over TCP, INIT would run on the database server: refused there too, in any case.
    try (H2TcpServer h2 = H2TcpServer.start()) {
      e = refused(admin, "CREATE TABLE t (x INT) WITH (connector = 'jdbc', 'url' = '"
          + h2.url("x") + ";init=RUNSCRIPT FROM ''" + script + "''', 'table-name' = 'T')");
      assertTrue(e.getMessage().startsWith("Table T cannot connect: its 'url' has the character"
          + " U+0020"), e.getMessage());
      e = refused(admin, "CREATE SINK leak AS SELECT x FROM src WITH (connector = 'jdbc',"
          + " 'url' = '" + h2.url("x") + ";init=CALL1', 'table-name' = 'T')");
      assertTrue(e.getMessage().startsWith("Sink LEAK cannot connect: its 'url' has H2 setting"
          + " 'INIT'"), e.getMessage());
    }
    assertFalse(admin.getConnection().getMetaData().getTables(null, null, "T", null).next(),
        "table T was created");
    assertEquals(List.of(), readAll(admin.executeQuery("SHOW SINKS")));
    assertFalse(Files.exists(marker), "the script ran");
    assertEquals(FileTime.fromMillis(0), Files.getAttribute(script, "lastAccessTime"),
        "the script was read");

    runEmbedded(createTable);
    assertTrue(Files.exists(marker), "on an embedded engine the script runs: the attack is real");
    assertNotEquals(FileTime.fromMillis(0), Files.getAttribute(script, "lastAccessTime"),
        "and reading the script shows in its access time");
  }

  /** 1. {@code jdbc:h2:/path}: a database file written wherever the server may write. */
  @Test void shouldRefuseAnH2FileDatabaseWithoutWritingIt() throws Exception {
    String create = "CREATE TABLE t (x INT) WITH (connector = 'jdbc', 'url' = 'jdbc:h2:"
        + dir.resolve("xyz") + "', 'table-name' = 'T')";
    Statement admin = admin(serve());
    refused(admin, create);
    admin.execute("CREATE STREAM src (x INT)");
    refused(admin, "CREATE SINK leak AS SELECT x FROM src WITH (connector = 'jdbc', 'url' ="
        + " 'jdbc:h2:" + dir.resolve("xyz") + "', 'table-name' = 'T')");
    assertEquals(List.of(), databaseFiles());

    runEmbedded(create);
    assertTrue(databaseFiles().contains("xyz.mv.db"),
        "on an embedded engine the file is written: the attack is real");
  }

  private List<String> databaseFiles() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("xyz"))
          .toList();
    }
  }

  /** The legal form: a database behind H2's TCP server is read. */
  @Test void shouldReadATableOfAnH2Server() throws Exception {
    try (H2TcpServer h2 = H2TcpServer.start();
         Connection database = DriverManager.getConnection(h2.url("shop"));
         Statement s = database.createStatement()) {
      s.execute("CREATE TABLE products (id INT, name VARCHAR)");
      s.execute("INSERT INTO products VALUES (1, 'tea'), (2, 'cake')");
      Statement admin = admin(serve());
      admin.execute("CREATE TABLE products (id INT, name VARCHAR) WITH (connector = 'jdbc',"
          + " 'url' = '" + h2.url("shop") + "', 'table-name' = 'PRODUCTS')");
      assertEquals(List.of(List.of(1, "tea"), List.of(2, "cake")),
          readAll(admin.executeQuery("SELECT * FROM products ORDER BY id")));
    }
  }

  /**
   * 2. Files only below {@code --allow-file-root}, judged with {@code ..} and links resolved; a
   * link among the directory's files is not read either.
   */
  @Test void shouldReadFilesOnlyBelowAnAllowedRoot() throws Exception {
    String etc = "CREATE STREAM s (line VARCHAR) WITH (connector = 'filesystem', 'path' = '/etc',"
        + " 'format' = 'csv')";
    SQLException e = refused(admin(serve()), etc);
    assertEquals("Stream S cannot read files: this server lets the filesystem connector read"
        + " only below directories its operator allows, and it allows none. Have the server"
        + " started with --allow-file-root DIR (repeatable) for the directory that holds the"
        + " files, and give a 'path' below it", e.getMessage());

    Path root = Files.createDirectories(dir.resolve("incoming"));
    Files.createDirectories(root.resolve("orders"));
    Files.writeString(root.resolve("orders/1.csv"), "1,tea\n2,cake\n");
    // A link among the files, to one outside the root: not read.
    Files.createSymbolicLink(root.resolve("orders/2.csv"),
        Files.writeString(dir.resolve("secret.csv"), "9,secret\n"));
    FreshetServer server = serve("--allow-file-root", root.toString());
    Statement admin = admin(server);
    admin.execute("CREATE STREAM orders (id BIGINT, item VARCHAR) WITH (connector ="
        + " 'filesystem', 'path' = '" + root.resolve("orders") + "', 'format' = 'csv')");
    admin.execute("CREATE MATERIALIZED VIEW all_orders AS SELECT id, item FROM orders");
    awaitView(server, "all_orders");
    assertEquals(List.of(List.of(1L, "tea"), List.of(2L, "cake")),
        readAll(admin.executeQuery("SELECT * FROM all_orders ORDER BY id")));

    e = refused(admin, "CREATE STREAM up (line VARCHAR) WITH (connector = 'filesystem',"
        + " 'path' = '" + root + "/../', 'format' = 'csv')");
    assertEquals("Stream UP cannot read '" + root + "/..': it is not below a directory this"
        + " server allows (" + root + "). Give a 'path' below one of them, or have the server"
        + " started with --allow-file-root DIR for the directory that holds the files",
        e.getMessage());
    Path link = Files.createSymbolicLink(root.resolve("etc"), Path.of("/etc"));
    e = refused(admin, "CREATE STREAM linked (line VARCHAR) WITH (connector = 'filesystem',"
        + " 'path' = '" + link + "', 'format' = 'csv')");
    assertTrue(e.getMessage().startsWith("Stream LINKED cannot read '" + link + "': it leads"
        + " through a symbolic link out of a directory this server allows"), e.getMessage());
    refused(admin, etc);
    assertEquals(List.of(List.of("ORDERS")),
        readAll(admin.executeQuery("SHOW STREAMS")));
  }

  @Test void shouldRefuseToStartWithARootThatIsNotADirectory() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
    int exit = new CommandLine(new ServeCommand(System.out, errors, new CountDownLatch(0)))
        .execute("--port", "0", "--allow-file-root", dir.resolve("missing").toString());
    assertEquals(ServeCommand.CANNOT_START, exit);
    assertEquals("freshet serve: --allow-file-root " + dir.resolve("missing") + " is not a"
        + " directory. Name an existing directory that holds the files streams may read",
        err.toString(StandardCharsets.UTF_8).strip());
    String help = new CommandLine(new ServeCommand()).getUsageMessage();
    assertTrue(help.contains("--allow-file-root=<dir>"), help);
  }

  /** 3. Kafka properties that load a class or read a file; no broker is needed to refuse. */
  @Test void shouldRefuseKafkaPropertiesThatLoadClassesOrReadFiles() throws Exception {
    Statement admin = admin(serve());
    String stream = "CREATE STREAM k (v VARCHAR) WITH (connector = 'kafka', 'topic' = 't',"
        + " 'properties.bootstrap.servers' = 'localhost:1', ";
    SQLException e = refused(admin, stream + "'properties.sasl.jaas.config' ="
        + " 'com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true"
        + " keyTab=\"/etc/krb5.keytab\";')");
    assertTrue(e.getMessage().startsWith("Stream K cannot use option"
        + " 'properties.sasl.jaas.config': login module"
        + " com.sun.security.auth.module.Krb5LoginModule is not one this server lets the Kafka"
        + " client load"), e.getMessage());
    e = refused(admin, stream + "'properties.interceptor.classes' = 'com.example.Spy')");
    assertTrue(e.getMessage().startsWith("Stream K cannot pass option"
        + " 'properties.interceptor.classes' to the Kafka client"), e.getMessage());
    refused(admin, stream + "'properties.ssl.truststore.location' = '/etc/shadow')");
    refused(admin, stream + "'properties.config.providers' = 'file')");
    admin.execute("CREATE STREAM src (x INT)");
    e = refused(admin, "CREATE SINK leak AS SELECT x FROM src WITH (connector = 'kafka',"
        + " 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:1',"
        + " 'properties.interceptor.classes' = 'com.example.Spy')");
    assertTrue(e.getMessage().startsWith("Sink LEAK cannot pass option"
        + " 'properties.interceptor.classes'"), e.getMessage());
    assertEquals(List.of(List.of("SRC")), readAll(admin.executeQuery("SHOW STREAMS")));

    // What a stream needs to reach a secured broker passes.
    admin.execute(stream + "'properties.security.protocol' = 'SASL_SSL',"
        + " 'properties.sasl.mechanism' = 'SCRAM-SHA-256', 'properties.sasl.jaas.config' ="
        + " 'org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\""
        + " password=\"alice-secret\";', 'properties.request.timeout.ms' = '5000')");
    assertEquals(List.of(List.of("K"), List.of("SRC")),
        readAll(admin.executeQuery("SHOW STREAMS")));
  }

  /** 4. pgjdbc's {@code socketFactory} (a class it loads) and {@code loggerFile}. */
  @Test void shouldRefusePgjdbcParametersThatLoadClassesOrWriteFiles() throws Exception {
    Path marker = dir.resolve("pg-marker");
    String url = "jdbc:postgresql://127.0.0.1:1/db?socketFactory="
        + MarkerSocketFactory.class.getName() + "&socketFactoryArg=" + marker;
    String createTable = "CREATE TABLE t (x INT) WITH (connector = 'jdbc', 'url' = '" + url
        + "', 'table-name' = 't')";
    Statement admin = admin(serve());
    SQLException e = refused(admin, createTable);
    assertTrue(e.getMessage().startsWith("Table T cannot connect: its 'url' has parameter"
        + " 'socketFactory', which this server does not pass to PostgreSQL's driver"),
        e.getMessage());
    refused(admin, "CREATE TABLE t (x INT) WITH (connector = 'jdbc', 'url' ="
        + " 'jdbc:postgresql://127.0.0.1:1/db?SOCKETFACTORY=" + MarkerSocketFactory.class
        .getName() + "', 'table-name' = 't')");
    e = refused(admin, "CREATE TABLE t (x INT) WITH (connector = 'jdbc', 'url' ="
        + " 'jdbc:postgresql://127.0.0.1:1/db?loggerLevel=TRACE&loggerFile=" + dir.resolve("pg.log")
        + "', 'table-name' = 't')");
    assertTrue(e.getMessage().contains("parameter 'loggerLevel'"), e.getMessage());
    refused(admin, "CREATE TABLE t (x INT) WITH (connector = 'jdbc', 'url' ="
        + " 'jdbc:postgresql://127.0.0.1:1/db?loggerFile=" + dir.resolve("pg.log")
        + "', 'table-name' = 't')");
    admin.execute("CREATE STREAM src (x INT)");
    refused(admin, "CREATE SINK leak AS SELECT x FROM src WITH (connector = 'jdbc', 'url' = '"
        + url + "', 'table-name' = 't')");
    assertFalse(Files.exists(marker), "the socket factory was loaded");
    assertFalse(Files.exists(dir.resolve("pg.log")));

    runEmbedded(createTable);
    assertTrue(Files.exists(marker),
        "on an embedded engine pgjdbc loads the class: the attack is real");
  }
}
