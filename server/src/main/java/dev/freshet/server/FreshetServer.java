package dev.freshet.server;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.Engine;
import dev.freshet.engine.ViewEngines;
import dev.freshet.engine.security.AuditLog;
import dev.freshet.engine.security.ConnectorPolicy;
import dev.freshet.engine.security.EngineSecurity;
import dev.freshet.executor.limits.HeapBudgets;
import dev.freshet.executor.limits.MemoryPool;
import dev.freshet.jdbc.FreshetMeta;
import dev.freshet.pgwire.PgServer;
import dev.freshet.pgwire.catalog.PgCatalogQueries;
import dev.freshet.server.http.OriginCheck;
import dev.freshet.server.ui.ConnectorRouter;
import dev.freshet.server.ui.WebUiRoutes;
import java.io.File;
import java.net.BindException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.calcite.avatica.remote.LocalService;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.server.HttpServer;
import org.apache.calcite.avatica.server.ServerCustomizer;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Freshet server: one engine behind Avatica's HTTP server, speaking protobuf, for clients of
 * {@code jdbc:freshet:remote:url=http://host:8765} (and of Avatica's stock remote driver).
 *
 * <pre>{@code
 * try (FreshetServer server = FreshetServer.builder()
 *     .port(0)                                        // any free port
 *     .dataDir(Path.of("/var/lib/freshet"))
 *     .authentication(Authentication.BASIC, Path.of("/etc/freshet/users.properties"))
 *     .start()) {
 *   System.out.println(server.url());                 // http://127.0.0.1:41234
 * }
 * }</pre>
 *
 * <p>It listens on loopback unless told otherwise and refuses another address without
 * authentication. A push query's fetch waits up to the fetch timeout for rows (a long-poll, see
 * {@link FreshetMeta}); each waiting fetch holds one of Jetty's threads, so the thread pool bounds
 * how many clients can read push queries at once, and Jetty's idle timeout is kept well above the
 * fetch timeout so that a waiting fetch is never cut off.
 *
 * <p>With authentication, each connection belongs to the user who opened it (another user's
 * requests on it are refused with SQLSTATE 42501), and a connection no request used for the
 * connection idle timeout (default 30 minutes) is closed with its push queries. Against slow or
 * hostile clients: a request larger than {@code maxRequestBytes} (default 8 MiB) is refused with
 * HTTP 413 (SQLSTATE 54000), Jetty is given a minimum request data rate (default 1 KiB/s), and
 * a connection silent for the HTTP idle timeout (default 60 s) is closed. Error responses carry a SQLSTATE and a message, never a stack trace.
 *
 * <p>The JDBC port refuses, before authentication and before reading the body, what a web page
 * could send it: an {@code Origin} not given to {@link Builder#allowOrigin} (403), a body whose
 * content type is not Avatica's protobuf (415) and, without authentication, a {@code Host} other
 * than a loopback name or address (403, against DNS rebinding); see {@link JdbcRequestGuard}.
 */
public final class FreshetServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FreshetServer.class);

  /** The port a server listens on unless told otherwise. */
  public static final int DEFAULT_PORT = 8765;
  /** The role whose users administer the server unless {@link Builder#adminRole} names another. */
  public static final String DEFAULT_ADMIN_ROLE = "admin";
  /** Any user the users file authenticates may connect, whatever their roles. */
  static final String ANY_AUTHENTICATED_USER = "**";
  /** The name of the web UI's connector. */
  private static final String UI_CONNECTOR = "freshet-ui";
  /** The realm of the users file, as Avatica names it. */
  private static final String REALM = "Avatica";

  /** How clients prove who they are: HTTP authentication against a Jetty users file. */
  public enum Authentication {
    /** Anyone who reaches the port may connect; only allowed on a loopback address. */
    NONE,
    /** HTTP Basic: the password travels base64-encoded, so use TLS beyond loopback. */
    BASIC,
    /** HTTP Digest: the password never travels. */
    DIGEST
  }

  private final Options options;
  private final Engine engine;
  private final HttpServer http;
  private final FreshetMeta meta;
  /**
   * Closes push results and connections whose client has gone (see
   * {@link Builder#pushIdleTimeout}, {@link Builder#connectionIdleTimeout}).
   */
  private final ScheduledExecutorService sweeper;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** The web UI's connector, if the server serves it. */
  private final Optional<ServerConnector> uiConnector;
  /** The PostgreSQL endpoint, if the server serves it. */
  private final Optional<PgServer> pg;

  private FreshetServer(Options options, Engine engine, HttpServer http, FreshetMeta meta,
      ScheduledExecutorService sweeper, Optional<ServerConnector> uiConnector,
      Optional<PgServer> pg) {
    this.uiConnector = uiConnector;
    this.pg = pg;
    this.options = options;
    this.engine = engine;
    this.http = http;
    this.meta = meta;
    this.sweeper = sweeper;
  }

  /** Returns a builder with the defaults: 127.0.0.1:8765, in memory, no authentication. */
  public static Builder builder() {
    return new Builder();
  }

  /** The port the server listens on (the chosen one if it was built with port 0). */
  public int port() {
    return http.getPort();
  }

  /** The address to give clients, e.g. {@code http://127.0.0.1:8765}. */
  public String url() {
    return (options.keystore.isPresent() ? "https" : "http") + "://" + host() + ":" + port();
  }

  /**
   * The web UI's address, e.g. {@code http://127.0.0.1:8766/} (its pages are under {@code /ui/},
   * its metrics at {@code /metrics}); empty if the server was built without {@link
   * Builder#uiPort}.
   */
  public Optional<URI> uiUrl() {
    return uiConnector.map(connector -> URI.create((options.keystore.isPresent() ? "https"
        : "http") + "://" + host() + ":" + connector.getLocalPort() + "/"));
  }

  /**
   * The PostgreSQL endpoint's port (the chosen one if it was built with {@code pgPort(0)});
   * empty if the server was built without {@link Builder#pgPort}.
   */
  public Optional<Integer> pgPort() {
    return pg.map(PgServer::port);
  }

  /**
   * The PostgreSQL endpoint's JDBC URL, e.g. {@code jdbc:postgresql://127.0.0.1:5432/freshet};
   * empty without {@link Builder#pgPort}.
   */
  public Optional<String> pgUrl() {
    return pgPort().map(p -> "jdbc:postgresql://" + host() + ":" + p + "/freshet");
  }

  private String host() {
    return options.bindAddress.contains(":") ? "[" + options.bindAddress + "]"
        : options.bindAddress;
  }

  /** The engine the server runs. */
  public Engine engine() {
    return engine;
  }

  /** How many client connections are open. */
  public int openConnections() {
    return meta.openConnections();
  }

  /**
   * Stops accepting requests, stops every continuous query and closes the engine. Idempotent.
   */
  @Override public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    sweeper.shutdownNow();
    try {
      pg.ifPresent(PgServer::close);
      http.stop();
    } finally {
      engine.close();
    }
  }

  /** Everything a server is built from; secrets are never shown by {@link #toString()}. */
  private record Options(int port, String bindAddress, Optional<Path> dataDir,
      Authentication authentication, Optional<Path> usersFile, String role,
      Optional<Path> keystore, String keystorePassword, Duration fetchTimeout,
      Duration pushIdleTimeout, int maxThreads, int maxPushQueries,
      Duration connectionIdleTimeout, Duration httpIdleTimeout, long maxRequestBytes,
      int minRequestDataRate, long engineMemoryBudget, int uiPort, ViewEngines viewEngines,
      String adminRole, List<Path> fileRoots, Optional<Path> secretsKeyFile,
      Optional<Path> auditLog, List<String> allowedOrigins, int pgPort) {
    /** The engine's security settings these options make: a server trusts no statement. */
    EngineSecurity security() {
      return new EngineSecurity(ConnectorPolicy.restricted(fileRoots), secretsKeyFile, auditLog);
    }

    @Override public String toString() {
      return "port=" + port + " bind=" + bindAddress + " dataDir=" + dataDir.map(Path::toString)
          .orElse("(memory)") + " authentication=" + authentication + " tls="
          + keystore.isPresent() + " fetchTimeout=" + fetchTimeout + " pushIdleTimeout="
          + pushIdleTimeout + " maxThreads=" + maxThreads + " maxPushQueries=" + maxPushQueries
          + " connectionIdleTimeout=" + connectionIdleTimeout + " httpIdleTimeout="
          + httpIdleTimeout + " maxRequestBytes=" + maxRequestBytes + " minRequestDataRate="
          + minRequestDataRate + " engineMemoryBudget=" + engineMemoryBudget + " uiPort="
          + (uiPort < 0 ? "off" : uiPort) + " viewEngine=" + viewEngines.defaultEngine()
          + (viewEngines.settings().isEmpty() ? ""
              : " viewEngineSettings=" + viewEngines.shownSettings())
          + " adminRole=" + adminRole + " fileRoots=" + fileRoots + " secretsKeyFile="
          + secretsKeyFile.map(Path::toString).orElse("(none)") + " auditLog="
          + auditLog.map(Path::toString).orElse("(none)") + " allowedOrigins=" + allowedOrigins
          + " pgPort=" + (pgPort < 0 ? "off" : pgPort);
    }
  }

  /**
   * Builds a {@link FreshetServer}.
   *
   * <pre>{@code
   * FreshetServer server = FreshetServer.builder().port(8765).start();
   * }</pre>
   */
  public static final class Builder {
    private int port = DEFAULT_PORT;
    private String bindAddress = "127.0.0.1";
    private Optional<Path> dataDir = Optional.empty();
    private Authentication authentication = Authentication.NONE;
    private Optional<Path> usersFile = Optional.empty();
    private String role = ANY_AUTHENTICATED_USER;
    private Optional<Path> keystore = Optional.empty();
    private String keystorePassword = "";
    private Duration fetchTimeout = FreshetMeta.DEFAULT_FETCH_TIMEOUT;
    private Duration pushIdleTimeout = Duration.ofMinutes(5);
    private int maxThreads = 200;
    private int maxPushQueries = Engine.DEFAULT_MAX_PUSH_QUERIES;
    private Duration connectionIdleTimeout = Duration.ofMinutes(30);
    private Duration httpIdleTimeout = Duration.ofSeconds(60);
    private long maxRequestBytes = 8L << 20;
    private int minRequestDataRate = 16;
    private long engineMemoryBudget = HeapBudgets.engineDefault();
    private int uiPort = -1;
    private int pgPort = -1;
    private ViewEngines viewEngines = ViewEngines.DEFAULT;
    private String adminRole = DEFAULT_ADMIN_ROLE;
    private final List<Path> fileRoots = new ArrayList<>();
    private Optional<Path> secretsKeyFile = Optional.empty();
    private Optional<Path> auditLog = Optional.empty();
    private final List<String> allowedOrigins = new ArrayList<>();

    /**
     * Names the role (in the users file) whose users administer the server: they may do
     * everything to every object. Without authentication the one anonymous user administers.
     */
    public Builder adminRole(String adminRole) {
      requireNonNull(adminRole, "adminRole");
      if (adminRole.isBlank()) {
        throw new IllegalArgumentException("The administrator role must not be blank");
      }
      this.adminRole = adminRole;
      return this;
    }

    /**
     * Lets the {@code filesystem} connector read below {@code root} (and nowhere else: with no
     * root it is refused).
     *
     * <pre>{@code
     * FreshetServer.builder().allowFileRoot(Path.of("/srv/data")).start();
     * }</pre>
     */
    public Builder allowFileRoot(Path root) {
      fileRoots.add(requireNonNull(root, "root"));
      return this;
    }

    /** Encrypts stored secrets with the key in {@code file}, which must not be in the data directory. */
    public Builder secretsKeyFile(Path file) {
      this.secretsKeyFile = Optional.of(file);
      return this;
    }

    /** Records who ran which DDL, GRANT, STOP and every refusal in {@code file}, as JSON lines. */
    public Builder auditLog(Path file) {
      this.auditLog = Optional.of(file);
      return this;
    }

    /**
     * Accepts JDBC requests from web pages of {@code origin} (e.g. {@code https://bi.example.com});
     * a request with another {@code Origin} header is refused with 403.
     *
     * @throws IllegalArgumentException if {@code origin} is not a web origin (scheme, host and
     *     port; no path)
     */
    public Builder allowOrigin(String origin) {
      OriginCheck.origin(origin);
      allowedOrigins.add(origin);
      return this;
    }

    private Builder() {
    }

    /**
     * Where the engine's materialized views run unless their {@code WITH ('engine' = ...)} says
     * otherwise, and the settings of the other engines (e.g. Spark's master); default every view
     * on Freshet's own executor. An engine other than {@code freshet} needs its module on the
     * class path ({@code ./freshet serve --engine spark} adds Spark's).
     *
     * <pre>{@code
     * FreshetServer.builder()
     *     .viewEngines(new ViewEngines("spark", Map.of("spark.master", "spark://10.0.0.5:7077")))
     *     .start();
     * }</pre>
     */
    public Builder viewEngines(ViewEngines viewEngines) {
      this.viewEngines = requireNonNull(viewEngines, "viewEngines");
      return this;
    }

    /**
     * Serves the web UI ({@code /ui/}) and Prometheus metrics ({@code /metrics}) on this port of
     * the same address, behind the same authentication and TLS as JDBC; 0 picks a free port
     * ({@link FreshetServer#uiUrl()} tells which). Off by default.
     *
     * <pre>{@code
     * FreshetServer.builder().uiPort(8766).start();   // http://127.0.0.1:8766/ui/
     * }</pre>
     */
    public Builder uiPort(int uiPort) {
      if (uiPort < 0 || uiPort > 65535) {
        throw new IllegalArgumentException("The UI port must be between 0 and 65535, not "
            + uiPort);
      }
      this.uiPort = uiPort;
      return this;
    }

    /**
     * Serves PostgreSQL's protocol on this port of the same address, with the same users file
     * (SCRAM-SHA-256, or a cleartext password over TLS) and the same TLS keystore; 0 picks a free
     * port ({@link FreshetServer#pgPort()} tells which). Off by default.
     *
     * <pre>{@code
     * FreshetServer.builder().pgPort(5432).start();   // psql -h 127.0.0.1 -d freshet -U freshet
     * }</pre>
     */
    public Builder pgPort(int pgPort) {
      if (pgPort < 0 || pgPort > 65535) {
        throw new IllegalArgumentException("The PostgreSQL port must be between 0 and 65535,"
            + " not " + pgPort);
      }
      this.pgPort = pgPort;
      return this;
    }

    /**
     * How long a connection may go without a request before the server closes it, with its
     * statements and push queries; default 30 minutes. A client reading a push result fetches
     * once per fetch timeout, so this must be at least twice that.
     *
     * <pre>{@code
     * FreshetServer.builder().connectionIdleTimeout(Duration.ofHours(2)).start();
     * }</pre>
     */
    public Builder connectionIdleTimeout(Duration connectionIdleTimeout) {
      this.connectionIdleTimeout = requireNonNull(connectionIdleTimeout,
          "connectionIdleTimeout");
      return this;
    }

    /**
     * How long an HTTP connection may stay silent, also while the server waits for the rest of
     * a request, before the server closes it; default 60 s, at least twice the fetch timeout so
     * that a long-poll fetch is never cut.
     */
    public Builder httpIdleTimeout(Duration httpIdleTimeout) {
      this.httpIdleTimeout = requireNonNull(httpIdleTimeout, "httpIdleTimeout");
      return this;
    }

    /**
     * The largest request the server reads, in bytes; a larger one is refused with HTTP 413
     * (SQLSTATE 54000). Default 8 MiB: a statement, or a batch of INSERTs, must fit.
     */
    public Builder maxRequestBytes(long maxRequestBytes) {
      if (maxRequestBytes < 1024) {
        throw new IllegalArgumentException("The request size limit must be at least 1024 bytes,"
            + " not " + maxRequestBytes);
      }
      this.maxRequestBytes = maxRequestBytes;
      return this;
    }

    /**
     * Jetty's minimum rate at which a request body must arrive, in bytes per second, counted from
     * its first byte (Jetty answers a slower one with HTTP 408). Default 16; 0 turns the check
     * off.
     *
     * <p>Jetty counts until the handler reads the body, so time the request waits for a thread of
     * a loaded server counts too: at 1024 bytes per second a 300-byte fetch that waited 0.3 s was
     * refused, and a push result's reader failed. At 16 it takes a wait of many seconds, while a
     * client that sends a byte now and then is still cut off soon.
     */
    public Builder minRequestDataRate(int bytesPerSecond) {
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException("The minimum request data rate cannot be negative: "
            + bytesPerSecond);
      }
      this.minRequestDataRate = bytesPerSecond;
      return this;
    }

    /**
     * The memory all continuous queries of the server's engine may take together, in bytes, by
     * their estimate of state and batch rows; the query that would go past it fails (53200) and
     * the others go on; {@link MemoryPool#UNLIMITED} for none. Default 60% of the JVM's maximum
     * heap ({@link HeapBudgets#engineDefault()}).
     */
    public Builder engineMemoryBudget(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("The engine's memory budget must be positive: "
            + bytes);
      }
      this.engineMemoryBudget = bytes;
      return this;
    }

    /** The port to listen on; 0 picks a free one ({@link FreshetServer#port()} tells which). */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("Port must be between 0 and 65535, not " + port);
      }
      this.port = port;
      return this;
    }

    /** The address to listen on; default 127.0.0.1. Others need authentication. */
    public Builder bindAddress(String bindAddress) {
      this.bindAddress = requireNonNull(bindAddress, "bindAddress");
      return this;
    }

    /** The engine's data directory; without one the engine keeps everything in memory. */
    public Builder dataDir(Path dataDir) {
      this.dataDir = Optional.of(dataDir);
      return this;
    }

    /**
     * Requires HTTP authentication against {@code usersFile}, a Jetty {@code HashLoginService}
     * file of lines {@code user: password[,role...]} (realm {@code Avatica}).
     */
    public Builder authentication(Authentication authentication, Path usersFile) {
      this.authentication = requireNonNull(authentication, "authentication");
      this.usersFile = authentication == Authentication.NONE ? Optional.empty()
          : Optional.of(usersFile);
      return this;
    }

    /** Admits only users with this role in the users file; by default any user in it. */
    public Builder role(String role) {
      this.role = requireNonNull(role, "role");
      return this;
    }

    /** Serves HTTPS with the key in {@code keystore} (JKS or PKCS12). */
    public Builder tls(Path keystore, String password) {
      this.keystore = Optional.of(keystore);
      this.keystorePassword = requireNonNull(password, "password");
      return this;
    }

    /**
     * How long a fetch of a push query waits for rows before it answers with an empty frame;
     * default 5 s, at most 60 s so that it stays below HTTP clients' timeouts (Avatica's: 3 min).
     */
    public Builder fetchTimeout(Duration fetchTimeout) {
      if (fetchTimeout.compareTo(Duration.ofMillis(10)) < 0
          || fetchTimeout.compareTo(Duration.ofSeconds(60)) > 0) {
        throw new IllegalArgumentException("The fetch timeout must be between 10 ms and 60 s,"
            + " not " + fetchTimeout);
      }
      this.fetchTimeout = fetchTimeout;
      return this;
    }

    /**
     * How long a push query's result may go without a fetch before the server closes it and stops
     * its query, taking its client for dead; default 5 minutes. A client reading the result
     * fetches at least once per fetch timeout, so this must be longer than that.
     */
    public Builder pushIdleTimeout(Duration pushIdleTimeout) {
      this.pushIdleTimeout = requireNonNull(pushIdleTimeout, "pushIdleTimeout");
      return this;
    }

    /**
     * Jetty's maximum number of threads; each client waiting in a push query's fetch holds one.
     * Default 200.
     */
    public Builder maxThreads(int maxThreads) {
      if (maxThreads < 16) {
        throw new IllegalArgumentException("The server needs at least 16 threads, not "
            + maxThreads);
      }
      this.maxThreads = maxThreads;
      return this;
    }

    /**
     * How many push queries may run at once; one more is refused with SQLSTATE 53400. Default
     * {@value Engine#DEFAULT_MAX_PUSH_QUERIES}.
     *
     * <pre>{@code
     * FreshetServer.builder().maxPushQueries(200).start();
     * }</pre>
     */
    public Builder maxPushQueries(int maxPushQueries) {
      if (maxPushQueries < 1) {
        throw new IllegalArgumentException("The limit of push queries must be positive, not "
            + maxPushQueries);
      }
      this.maxPushQueries = maxPushQueries;
      return this;
    }

    /**
     * Checks the options, opens the engine and starts listening.
     *
     * @throws IllegalArgumentException if the options contradict each other or name missing
     *     files; the message says what to change
     * @throws IllegalStateException if the port is taken or the data directory in use; the
     *     message says which
     */
    public FreshetServer start() {
      Options options = new Options(port, bindAddress, dataDir, authentication, usersFile, role,
          keystore, keystorePassword, fetchTimeout, pushIdleTimeout, maxThreads, maxPushQueries,
          connectionIdleTimeout, httpIdleTimeout, maxRequestBytes, minRequestDataRate,
          engineMemoryBudget, uiPort, viewEngines, adminRole, List.copyOf(fileRoots),
          secretsKeyFile, auditLog, List.copyOf(allowedOrigins), pgPort);
      check(options);
      Engine engine;
      try {
        engine = new Engine("server", options.dataDir(), options.engineMemoryBudget(),
            options.viewEngines(), options.security());
      } catch (java.io.UncheckedIOException e) {
        // The engine's message names the directory and what to do.
        throw new IllegalStateException(e.getMessage(), e);
      }
      engine.setMaxPushQueries(options.maxPushQueries());
      ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "freshet-abandoned-results");
        thread.setDaemon(true);
        return thread;
      });
      try {
        FreshetMeta meta = new FreshetMeta(null, info -> engine, options.fetchTimeout(),
            CurrentUser::get);
        AtomicReference<ServerConnector> uiConnector = new AtomicReference<>();
        HttpServer http = httpServer(options, meta, engine, uiConnector);
        http.start();
        long periodMs = Math.max(10, Math.min(30_000, Math.min(
            options.pushIdleTimeout().toMillis(), options.connectionIdleTimeout().toMillis()) / 4));
        sweeper.scheduleWithFixedDelay(() -> closeAbandoned(meta, options),
            periodMs, periodMs, TimeUnit.MILLISECONDS);
        Optional<PgServer> pg;
        try {
          pg = options.pgPort() < 0 ? Optional.empty() : Optional.of(pgServer(options, engine));
        } catch (RuntimeException e) {
          http.stop();
          throw e;
        }
        FreshetServer server = new FreshetServer(options, engine, http, meta, sweeper,
            Optional.ofNullable(uiConnector.get()), pg);
        LOG.info("Freshet server listening on {} ({})", server.url(), options);
        if (LoggerFactory.getLogger(ProtobufTranslationImpl.class).isTraceEnabled()) {
          // Avatica's TRACE lines are each request as sent: a CREATE SECRET's value too.
          LOG.warn("TRACE logging of {} writes every request's statement to the log, the"
              + " values of CREATE SECRET and of passwords in WITH clauses too: use DEBUG",
              ProtobufTranslationImpl.class.getName());
        }
        return server;
      } catch (RuntimeException e) {
        sweeper.shutdownNow();
        engine.close();
        if (e instanceof PgStartFailure) {
          throw e;
        }
        if (hasCause(e, BindException.class)) {
          throw new IllegalStateException("Cannot listen on " + options.bindAddress() + ":"
              + options.port() + ": the port is in use or the address is not this machine's."
              + " Choose another with --port or --bind", e);
        }
        // E.g. an unreadable keystore or a wrong keystore password (Jetty's messages name no
        // secret).
        throw new IllegalStateException("Cannot start the server on " + options.bindAddress()
            + ":" + options.port() + ": " + rootCause(e), e);
      }
    }
  }

  private static void check(Options options) {
    InetAddress address;
    try {
      address = InetAddress.getByName(options.bindAddress());
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Cannot resolve the bind address '"
          + options.bindAddress() + "'", e);
    }
    if (!address.isLoopbackAddress() && options.authentication() == Authentication.NONE) {
      throw new IllegalArgumentException("Refusing to listen on " + options.bindAddress()
          + " without authentication: anyone who reaches that address could read and change"
          + " every stream. Give --auth BASIC or DIGEST with --users-file, or bind 127.0.0.1");
    }
    if (options.pushIdleTimeout().compareTo(options.fetchTimeout().multipliedBy(2)) < 0) {
      throw new IllegalArgumentException("The push idle timeout (" + options.pushIdleTimeout()
          + ") must be at least twice the fetch timeout (" + options.fetchTimeout() + "): a"
          + " client that is reading fetches once per fetch timeout");
    }
    if (options.connectionIdleTimeout().compareTo(options.fetchTimeout().multipliedBy(2)) < 0) {
      throw new IllegalArgumentException("The connection idle timeout ("
          + options.connectionIdleTimeout() + ") must be at least twice the fetch timeout ("
          + options.fetchTimeout() + "): a client that is reading fetches once per fetch"
          + " timeout");
    }
    if (options.httpIdleTimeout().compareTo(options.fetchTimeout().multipliedBy(2)) < 0) {
      throw new IllegalArgumentException("The HTTP idle timeout (" + options.httpIdleTimeout()
          + ") must be at least twice the fetch timeout (" + options.fetchTimeout() + "), or it"
          + " would cut fetches that wait for rows");
    }
    if (options.usersFile().isPresent() && !Files.isReadable(options.usersFile().get())) {
      throw new IllegalArgumentException("Cannot read the users file "
          + options.usersFile().get() + "; it holds lines 'user: password[,role]'");
    }
    if (options.keystore().isPresent() && !Files.isReadable(options.keystore().get())) {
      throw new IllegalArgumentException("Cannot read the keystore " + options.keystore().get());
    }
    if (!address.isLoopbackAddress() && options.authentication() == Authentication.BASIC
        && options.keystore().isEmpty()) {
      LOG.warn("Basic authentication without TLS on {}: passwords cross the network readable;"
          + " add --keystore or use --auth DIGEST", options.bindAddress());
    }
  }

  private static void closeAbandoned(FreshetMeta meta, Options options) {
    int closed = meta.closeAbandonedPushResults(options.pushIdleTimeout());
    if (closed > 0) {
      LOG.info("Closed {} push query result(s) that no client fetched from for {}", closed,
          options.pushIdleTimeout());
    }
    int connections = meta.closeIdleConnections(options.connectionIdleTimeout());
    if (connections > 0) {
      LOG.info("Closed {} connection(s) that no request used for {}", connections,
          options.connectionIdleTimeout());
    }
  }

  /**
   * The PostgreSQL endpoint: the same address, users file (and role) and keystore as the JDBC
   * port; without authentication every client is the process's user, on loopback only.
   */
  private static PgServer pgServer(Options options, Engine engine) {
    PgServer.Builder pg = PgServer.builder(engine)
        // pg_catalog and information_schema of each connection's user, for psql and BI tools.
        .catalog(new PgCatalogQueries(engine))
        .bindAddress(options.bindAddress())
        .port(options.pgPort())
        .limits((int) Math.min(Integer.MAX_VALUE, options.maxRequestBytes()),
            Duration.ofSeconds(30), options.connectionIdleTimeout());
    if (options.authentication() != Authentication.NONE) {
      pg.authenticator(PgUsersFile.authenticator(options.usersFile().orElseThrow(),
          options.role(), options.adminRole()));
    }
    if (options.keystore().isPresent()) {
      pg.tls(options.keystore().get(), options.keystorePassword());
    }
    try {
      return pg.start();
    } catch (IllegalStateException e) {
      throw new PgStartFailure(e);
    }
  }

  /** The PostgreSQL port cannot be bound: its message names the port and the option to change. */
  private static final class PgStartFailure extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    PgStartFailure(IllegalStateException e) {
      super(e.getMessage(), e);
    }
  }

  private static HttpServer httpServer(Options options, FreshetMeta meta, Engine engine,
      AtomicReference<ServerConnector> uiConnector) {
    FreshetHttpHandler jdbc = new FreshetHttpHandler(SqlStateService.wrap(new LocalService(meta)),
        options.maxRequestBytes(), options.authentication() != Authentication.NONE,
        options.adminRole());
    HttpServer.Builder<Server> builder = HttpServer.Builder.<Server>newBuilder()
        .withHandler(options.uiPort() < 0 ? jdbc
            : new ConnectorRouter(jdbc, UI_CONNECTOR,
                options.authentication() == Authentication.NONE
                    ? WebUiRoutes.withoutAuthentication(engine)
                    : WebUiRoutes.withAuthentication(engine, options.adminRole())))
        .withPort(options.port())
        .withServerCustomizers(List.of(jettyCustomizer(options, uiConnector, engine.audit())),
            Server.class);
    if (options.authentication() != Authentication.NONE) {
      String users = options.usersFile().orElseThrow().toAbsolutePath().toString();
      String[] roles = {options.role()};
      if (options.authentication() == Authentication.BASIC) {
        builder.withBasicAuthentication(users, roles);
      } else {
        builder.withDigestAuthentication(users, roles);
      }
    }
    if (options.keystore().isPresent()) {
      // The keystore is also the trust store: Avatica asks for one, and clients bring no
      // certificates of their own.
      File keystore = options.keystore().get().toFile();
      builder.withTLS(keystore, options.keystorePassword(), keystore, options.keystorePassword());
    }
    return builder.build();
  }

  /**
   * Binds the address (Avatica's builder has no host option), sizes the thread pool, keeps
   * connections open longer than a long-poll lasts but cuts slow and silent clients, answers
   * malformed Basic credentials with 401, shows no stack trace in Jetty's own error pages, and
   * refuses requests that web pages could have sent ({@link JdbcRequestGuard}).
   */
  private static ServerCustomizer<Server> jettyCustomizer(Options options,
      AtomicReference<ServerConnector> uiConnector, AuditLog audit) {
    return server -> {
      for (Connector connector : server.getConnectors()) {
        if (connector instanceof ServerConnector) {
          ((ServerConnector) connector).setHost(options.bindAddress());
          ((ServerConnector) connector).setIdleTimeout(options.httpIdleTimeout().toMillis());
        }
        HttpConnectionFactory http = connector.getConnectionFactory(HttpConnectionFactory.class);
        if (http != null) {
          HttpConfiguration config = http.getHttpConfiguration();
          config.setMinRequestDataRate(options.minRequestDataRate());
        }
      }
      if (options.uiPort() >= 0) {
        uiConnector.set(uiConnector(server, options));
        server.addConnector(uiConnector.get());
      }
      if (server.getThreadPool() instanceof QueuedThreadPool) {
        ((QueuedThreadPool) server.getThreadPool()).setMaxThreads(options.maxThreads());
      }
      ErrorHandler errors = new ErrorHandler();
      errors.setShowStacks(false);
      errors.setShowServlet(false);
      server.setErrorHandler(errors);
      if (options.authentication() != Authentication.NONE) {
        BasicCredentialsCheck check = new BasicCredentialsCheck(REALM);
        check.setHandler(server.getHandler());
        server.setHandler(check);
      }
      // Outermost: a request a web page could have sent is refused before authentication.
      JdbcRequestGuard guard = new JdbcRequestGuard(UI_CONNECTOR,
          OriginCheck.allowing(options.allowedOrigins()),
          options.authentication() == Authentication.NONE, audit);
      guard.setHandler(server.getHandler());
      server.setHandler(guard);
    };
  }

  /**
   * A connector for the web UI's port, speaking what the JDBC connector speaks (TLS included):
   * requests on it reach the UI by its name ({@link ConnectorRouter}).
   */
  private static ServerConnector uiConnector(Server server, Options options) {
    ServerConnector jdbc = (ServerConnector) server.getConnectors()[0];
    List<ConnectionFactory> factories = new ArrayList<>();
    for (ConnectionFactory factory : jdbc.getConnectionFactories()) {
      if (factory instanceof SslConnectionFactory ssl) {
        factories.add(new SslConnectionFactory(ssl.getSslContextFactory(), ssl.getNextProtocol()));
      } else if (factory instanceof HttpConnectionFactory http) {
        factories.add(new HttpConnectionFactory(http.getHttpConfiguration()));
      } else {
        throw new IllegalStateException("Unexpected connection factory " + factory);
      }
    }
    ServerConnector ui = new ServerConnector(server, factories.toArray(new ConnectionFactory[0]));
    ui.setName(UI_CONNECTOR);
    ui.setHost(options.bindAddress());
    ui.setPort(options.uiPort());
    ui.setIdleTimeout(options.httpIdleTimeout().toMillis());
    return ui;
  }

  private static Throwable rootCause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root;
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }
}
