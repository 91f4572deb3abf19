package dev.freshet.server;

import dev.freshet.engine.ViewEngines;
import dev.freshet.engine.options.SessionOption;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs a Freshet server until the process is stopped.
 *
 * <pre>
 * freshet serve --port 8765 --data-dir /var/lib/freshet
 * freshet serve --bind 0.0.0.0 --auth DIGEST --users-file users.properties \
 *     --keystore server.p12      # password from $FRESHET_KEYSTORE_PASSWORD
 * freshet serve --auth BASIC --users-file users.properties \
 *     --audit-log /var/log/freshet/audit.jsonl --allowed-origin https://bi.example.com
 * freshet serve --allow-file-root /srv/incoming      # filesystem streams read below it
 * freshet serve --pg-port 5432                       # psql -h 127.0.0.1 -p 5432 -d freshet
 * freshet serve --engine spark --spark-master spark://10.0.0.5:7077 \
 *     --spark-checkpoint-dir hdfs://nn:8020/freshet --spark-conf spark.executor.memory=4g
 * </pre>
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Serve an engine over JDBC (jdbc:freshet:remote:url=http://host:port).")
final class ServeCommand implements Callable<Integer> {
  /** Exit code when the options are wrong or the server cannot start. */
  static final int CANNOT_START = 2;

  @Option(names = "--port", defaultValue = "8765",
      description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--bind", defaultValue = "127.0.0.1",
      description = "Address to listen on; another than loopback needs --auth"
          + " (default: ${DEFAULT-VALUE})")
  String bind;

  @Option(names = "--data-dir",
      description = "The engine's data directory (default: everything in memory)")
  Path dataDir;

  @Option(names = "--auth", defaultValue = "NONE",
      description = "HTTP authentication: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
  FreshetServer.Authentication authentication;

  @Option(names = "--users-file",
      description = "Jetty users file for --auth: lines 'user: password[,role...]'")
  Path usersFile;

  @Option(names = "--admin-role", defaultValue = FreshetServer.DEFAULT_ADMIN_ROLE,
      description = "Users of the users file with this role administer the server: they may do"
          + " everything with every object (default: ${DEFAULT-VALUE}; see docs/security.md)")
  String adminRole;

  @Option(names = "--role", description = "Admit only users with this role (default: any user"
      + " in the users file)")
  String role;

  @Option(names = "--keystore", description = "Serve HTTPS with the key in this keystore"
      + " (JKS or PKCS12)")
  Path keystore;

  @Option(names = "--keystore-password", defaultValue = "${env:FRESHET_KEYSTORE_PASSWORD}",
      description = "The keystore's password (default: $FRESHET_KEYSTORE_PASSWORD; prefer it:"
          + " other users of the machine can see a process's arguments)")
  String keystorePassword;

  @Option(names = "--fetch-timeout-ms", defaultValue = "5000",
      description = "How long a push query's fetch waits for rows before it answers with none;"
          + " at most 60000 (default: ${DEFAULT-VALUE})")
  long fetchTimeoutMs;

  @Option(names = "--push-idle-timeout-ms", defaultValue = "300000",
      description = "Close a push query's result that no client fetched from for this long, and"
          + " stop its query: its client is taken for dead (default: ${DEFAULT-VALUE})")
  long pushIdleTimeoutMs;

  @Option(names = "--max-threads", defaultValue = "200",
      description = "Server threads; each client waiting for a push query's rows holds one"
          + " (default: ${DEFAULT-VALUE})")
  int maxThreads;

  @Option(names = "--max-push-queries", defaultValue = "1000",
      description = "How many push queries may run at once; one more is refused with SQLSTATE"
          + " 53400 (default: ${DEFAULT-VALUE})")
  int maxPushQueries;

  @Option(names = "--connection-idle-timeout-ms", defaultValue = "1800000",
      description = "Close a connection that no request used for this long, with its statements"
          + " and push queries (default: ${DEFAULT-VALUE}, 30 minutes)")
  long connectionIdleTimeoutMs;

  @Option(names = "--http-idle-timeout-ms", defaultValue = "60000",
      description = "Close an HTTP connection silent for this long, also mid-request; at least"
          + " twice the fetch timeout (default: ${DEFAULT-VALUE})")
  long httpIdleTimeoutMs;

  @Option(names = "--max-request-bytes", defaultValue = "8388608",
      description = "Refuse a request larger than this with HTTP 413, SQLSTATE 54000"
          + " (default: ${DEFAULT-VALUE})")
  long maxRequestBytes;

  @Option(names = "--min-request-data-rate", defaultValue = "16",
      description = "Jetty's minimum rate, in bytes per second, at which a request body must"
          + " arrive (it answers a slower one with HTTP 408); 0 for none"
          + " (default: ${DEFAULT-VALUE})")
  int minRequestDataRate;

  @Option(names = "--engine-memory-budget",
      description = "The memory all queries may take together, by their estimate of state and"
          + " rows held, e.g. '2 GB', or 'unlimited'; the query that would go past it fails with"
          + " SQLSTATE 53200 (default: 60% of the JVM's maximum heap, -Xmx)")
  String engineMemoryBudget;

  @Option(names = "--engine", defaultValue = ViewEngines.FRESHET, paramLabel = "<freshet|spark>",
      description = "Where materialized views run unless their WITH ('engine' = ...) says"
          + " otherwise: freshet (Freshet's own executor) or spark (Apache Spark Structured"
          + " Streaming; this server is the Spark driver) (default: ${DEFAULT-VALUE})")
  String engine;

  @Option(names = "--spark-master", paramLabel = "<url>",
      description = "The Spark master of views on Spark, e.g. spark://host:7077 or"
          + " k8s://https://host:6443 (default: local[2], in this process)")
  String sparkMaster;

  @Option(names = "--spark-checkpoint-dir", paramLabel = "<dir>",
      description = "Where views on Spark keep Spark's checkpoints; on a cluster, storage every"
          + " executor and this server share, e.g. hdfs://nn:8020/freshet or an NFS mount"
          + " (default: each view's directory under --data-dir, right for local[...] only)")
  String sparkCheckpointDir;

  @Option(names = "--spark-conf", paramLabel = "<key=value>",
      description = "A Spark setting of views on Spark, e.g. spark.executor.memory=4g;"
          + " repeatable. Not for secrets: other users of the machine can see a process's"
          + " arguments (see docs/deployment-spark.md, Security)")
  List<String> sparkConf = new ArrayList<>();

  @Option(names = "--ui-port",
      description = "Serve the web UI (/ui/) and Prometheus metrics (/metrics) on this port, behind"
          + " the same --auth and TLS; 0 picks a free one (default: off)")
  Integer uiPort;

  @Option(names = "--pg-port",
      description = "Serve PostgreSQL's protocol (psql, pgjdbc, BI tools; database freshet) on"
          + " this port, with the same --bind, --auth users and --keystore TLS; 0 picks a free"
          + " one (default: off)")
  Integer pgPort;

  @Option(names = "--allowed-origin", paramLabel = "<url>",
      description = "Answer JDBC requests of web pages from this origin, e.g."
          + " https://bi.example.com; repeatable. A request with another Origin header is"
          + " refused with HTTP 403 (default: none; JDBC drivers send no Origin)")
  List<String> allowedOrigins = new ArrayList<>();

  @Option(names = "--audit-log", paramLabel = "<file>",
      description = "Append to this file, as JSON lines, who ran which DDL, GRANT or STOP and"
          + " every refusal; created readable by the server's user only (default: none)")
  Path auditLog;
  @Option(names = "--allow-file-root", paramLabel = "<dir>",
      description = "Let the filesystem connector read below this directory, and nowhere else;"
          + " repeatable (default: none, so the connector is refused)")
  List<Path> fileRoots = new ArrayList<>();

  @Option(names = "--secrets-key-file", paramLabel = "<file>",
      description = "Encrypt the stored secrets (CREATE SECRET, passwords in WITH clauses) with"
          + " the key in this file: 32 random bytes, raw or base64, outside --data-dir; make one"
          + " with: (umask 077; openssl rand -base64 32 > secrets.key) (default: stored"
          + " unencrypted, in a file only the server's user may read)")
  Path secretsKeyFile;

  private final PrintStream out;
  private final PrintStream err;
  /** Released when the server should stop; a test releases it, a user stops the process. */
  private final CountDownLatch stop;

  ServeCommand() {
    this(System.out, System.err, new CountDownLatch(1));
  }

  ServeCommand(PrintStream out, PrintStream err, CountDownLatch stop) {
    this.out = out;
    this.err = err;
    this.stop = stop;
  }

  @Override public Integer call() throws InterruptedException {
    FreshetServer server;
    try {
      FreshetServer.Builder builder = builder();
      ViewEngineOptions.requireRunner(engine);
      server = builder.start();
    } catch (IllegalArgumentException | IllegalStateException e) {
      err.println("freshet serve: " + e.getMessage());
      return CANNOT_START;
    }
    Thread shutdown = new Thread(server::close, "freshet-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdown);
    out.println("Freshet server listening on " + server.url());
    out.println("Connect with: jdbc:freshet:remote:url=" + server.url());
    server.uiUrl().ifPresent(ui -> out.println("Web UI: " + ui.resolve("/ui/") + ", metrics: "
        + ui.resolve("/metrics")));
    server.pgUrl().ifPresent(pg -> out.println("PostgreSQL: " + pg + " (psql -h "
        + bind + " -p " + server.pgPort().orElseThrow() + " -d freshet)"));
    out.flush();
    try {
      stop.await();
    } finally {
      Runtime.getRuntime().removeShutdownHook(shutdown);
      server.close();
    }
    return 0;
  }

  /** The server the parsed options describe; package-private for tests. */
  FreshetServer.Builder builder() {
    FreshetServer.Builder builder = FreshetServer.builder()
        .port(port)
        .bindAddress(bind)
        .fetchTimeout(Duration.ofMillis(fetchTimeoutMs))
        .pushIdleTimeout(Duration.ofMillis(pushIdleTimeoutMs))
        .maxThreads(maxThreads)
        .maxPushQueries(maxPushQueries)
        .connectionIdleTimeout(Duration.ofMillis(connectionIdleTimeoutMs))
        .httpIdleTimeout(Duration.ofMillis(httpIdleTimeoutMs))
        .maxRequestBytes(maxRequestBytes)
        .minRequestDataRate(minRequestDataRate)
        .adminRole(adminRole)
        .viewEngines(ViewEngineOptions.viewEngines(engine, sparkMaster, sparkCheckpointDir,
            sparkConf));
    if (engineMemoryBudget != null) {
      try {
        builder.engineMemoryBudget(
            SessionOption.bytes("--engine-memory-budget", engineMemoryBudget));
      } catch (SQLException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    }
    if (uiPort != null) {
      builder.uiPort(uiPort);
    }
    if (pgPort != null) {
      builder.pgPort(pgPort);
    }
    for (Path root : fileRoots) {
      // A root that is not there is a mistake the operator should hear of now, not a user later.
      if (!Files.isDirectory(root)) {
        throw new IllegalArgumentException("--allow-file-root " + root + " is not a directory."
            + " Name an existing directory that holds the files streams may read");
      }
      builder.allowFileRoot(root);
    }
    if (dataDir != null) {
      builder.dataDir(dataDir);
    }
    if (authentication != FreshetServer.Authentication.NONE) {
      if (usersFile == null) {
        throw new IllegalArgumentException("--auth " + authentication + " needs --users-file,"
            + " a file of lines 'user: password[,role...]'");
      }
      builder.authentication(authentication, usersFile);
    } else if (usersFile != null) {
      throw new IllegalArgumentException("--users-file is only read with --auth BASIC or DIGEST");
    }
    if (role != null) {
      builder.role(role);
    }
    allowedOrigins.forEach(builder::allowOrigin);
    if (auditLog != null) {
      builder.auditLog(auditLog);
    }
    if (secretsKeyFile != null) {
      builder.secretsKeyFile(secretsKeyFile);
    }
    if (keystore != null) {
      if (keystorePassword == null || keystorePassword.isEmpty()) {
        throw new IllegalArgumentException("--keystore needs its password: set"
            + " FRESHET_KEYSTORE_PASSWORD (or --keystore-password)");
      }
      builder.tls(keystore, keystorePassword);
    }
    return builder;
  }
}
