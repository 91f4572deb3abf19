package dev.freshet.pgwire;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.Engine;
import dev.freshet.pgwire.auth.PgAuthenticator;
import dev.freshet.pgwire.catalog.PgCatalogQueries;
import dev.freshet.pgwire.protocol.CatalogQueries;
import dev.freshet.pgwire.protocol.PgEndpoint;
import dev.freshet.pgwire.protocol.PgStatementLog;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Freshet's PostgreSQL endpoint: PostgreSQL's frontend/backend protocol 3.0 over an engine, so
 * that psql, pgjdbc, psycopg and the BI tools built on them connect unchanged to database
 * {@code freshet}.
 *
 * <pre>{@code
 * try (PgServer pg = PgServer.builder(engine).port(0).start()) {
 *   int port = pg.port();   // jdbc:postgresql://127.0.0.1:<port>/freshet
 * }
 * }</pre>
 *
 * <p>Netty's event loops (one acceptor, two workers) read and write the sockets; statements run
 * on a bounded pool of threads ({@link Builder#statementThreads}), so a slow statement holds one
 * of those and never another connection's I/O. Without an authenticator every client is the
 * process's own user, which is allowed on a loopback address only (as the JDBC port does);
 * with one, clients prove a password by SCRAM-SHA-256, or by a cleartext password over TLS.
 */
public final class PgServer implements AutoCloseable {
  private final EventLoopGroup acceptor;
  private final EventLoopGroup workers;
  private final ThreadPoolExecutor statements;
  private final Channel listener;
  private final AtomicInteger closed = new AtomicInteger();

  private PgServer(EventLoopGroup acceptor, EventLoopGroup workers,
      ThreadPoolExecutor statements, Channel listener) {
    this.acceptor = acceptor;
    this.workers = workers;
    this.statements = statements;
    this.listener = listener;
  }

  /** A builder of an endpoint over {@code engine}: 127.0.0.1, port 5432, no authentication. */
  public static Builder builder(Engine engine) {
    return new Builder(engine);
  }

  /** The port the endpoint listens on (the chosen one if it was built with port 0). */
  public int port() {
    return ((InetSocketAddress) listener.localAddress()).getPort();
  }

  /** Stops listening, closes every connection and stops the threads. Idempotent. */
  @Override public void close() {
    if (closed.getAndIncrement() > 0) {
      return;
    }
    listener.close().awaitUninterruptibly();
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    statements.shutdownNow();
  }

  /**
   * Builds a {@link PgServer}.
   *
   * <pre>{@code
   * PgServer.builder(engine).bindAddress("0.0.0.0").port(5432)
   *     .authenticator(users).tls(Path.of("server.p12"), password).start();
   * }</pre>
   */
  public static final class Builder {
    private final Engine engine;
    private String bindAddress = "127.0.0.1";
    private int port = 5432;
    private PgAuthenticator authenticator = PgAuthenticator.trust();
    private CatalogQueries catalog;
    private Optional<SSLContext> tls = Optional.empty();
    private int statementThreads = 16;
    private int maxConnections = 1000;
    private PgEndpoint.Limits limits = PgEndpoint.Limits.DEFAULT;
    private PgStatementLog statementLog = PgStatementLog.NONE;

    private Builder(Engine engine) {
      this.engine = requireNonNull(engine, "engine");
      this.catalog = new PgCatalogQueries(engine);
    }

    /** The address to listen on; default 127.0.0.1. */
    public Builder bindAddress(String bindAddress) {
      this.bindAddress = requireNonNull(bindAddress, "bindAddress");
      return this;
    }

    /** The port to listen on; 0 picks a free one ({@link PgServer#port()}). Default 5432. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("The PostgreSQL port must be between 0 and 65535,"
            + " not " + port);
      }
      this.port = port;
      return this;
    }

    /** Who may connect; default {@link PgAuthenticator#trust()}, on loopback only. */
    public Builder authenticator(PgAuthenticator authenticator) {
      this.authenticator = requireNonNull(authenticator, "authenticator");
      return this;
    }

    /**
     * What answers PostgreSQL's catalog queries; default {@link PgCatalogQueries}, each
     * connection's {@code pg_catalog} and {@code information_schema} ({@link
     * CatalogQueries#NONE}: none, every statement goes to Freshet).
     */
    public Builder catalog(CatalogQueries catalog) {
      this.catalog = requireNonNull(catalog, "catalog");
      return this;
    }

    /** Answers SSLRequest with TLS of {@code context}. */
    public Builder tls(SSLContext context) {
      this.tls = Optional.of(requireNonNull(context, "context"));
      return this;
    }

    /**
     * Answers SSLRequest with TLS, with the key in {@code keystore} (JKS or PKCS12), whose
     * password (and its key's) is {@code password}: the JDBC port's {@code --keystore}.
     *
     * @throws IllegalArgumentException if the keystore cannot be read with that password
     */
    public Builder tls(Path keystore, String password) {
      requireNonNull(keystore, "keystore");
      requireNonNull(password, "password");
      try (InputStream in = Files.newInputStream(keystore)) {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType().equals("pkcs12")
            && keystore.toString().endsWith(".jks") ? "JKS" : KeyStore.getDefaultType());
        store.load(in, password.toCharArray());
        KeyManagerFactory keys = KeyManagerFactory.getInstance(
            KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return tls(context);
      } catch (Exception e) {
        throw new IllegalArgumentException("Cannot read the keystore " + keystore + " for the"
            + " PostgreSQL port: " + e.getMessage(), e);
      }
    }

    /** How many statements may run at once across all connections; default 16. */
    public Builder statementThreads(int statementThreads) {
      if (statementThreads < 1) {
        throw new IllegalArgumentException("At least one statement thread, not "
            + statementThreads);
      }
      this.statementThreads = statementThreads;
      return this;
    }

    /**
     * How many connections may be open at once; one more is answered with 53300 and closed.
     * Default 1000.
     */
    public Builder maxConnections(int maxConnections) {
      if (maxConnections < 1) {
        throw new IllegalArgumentException("At least one connection, not " + maxConnections);
      }
      this.maxConnections = maxConnections;
      return this;
    }

    /**
     * Reports each statement clients run, with its protocol, parameters and error, to
     * {@code log}; default {@link PgStatementLog#NONE}. Passwords are never reported.
     */
    public Builder statementLog(PgStatementLog log) {
      this.statementLog = requireNonNull(log, "log");
      return this;
    }

    /** The largest message, the start-up and the idle timeouts; see {@link PgEndpoint.Limits}. */
    public Builder limits(int maxMessageBytes, Duration startupTimeout, Duration idleTimeout) {
      this.limits = new PgEndpoint.Limits(maxMessageBytes, startupTimeout, idleTimeout);
      return this;
    }

    /**
     * Starts listening.
     *
     * @throws IllegalArgumentException if the address cannot be resolved, or is not loopback
     *     while every client is trusted
     * @throws IllegalStateException if the port cannot be bound; the message says which
     */
    public PgServer start() {
      InetAddress address;
      try {
        address = InetAddress.getByName(bindAddress);
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("Cannot resolve the bind address '" + bindAddress
            + "'", e);
      }
      if (!authenticator.required() && !address.isLoopbackAddress()) {
        throw new IllegalArgumentException("Refusing to serve PostgreSQL clients on "
            + bindAddress + " without authentication: give --auth with --users-file, or bind"
            + " 127.0.0.1");
      }
      // Statements wait in a bounded queue; beyond it a connection is refused with 53300.
      ThreadPoolExecutor statements = new ThreadPoolExecutor(statementThreads,
          statementThreads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(10_000),
          new DefaultThreadFactory("freshet-pg-statement", true));
      statements.allowCoreThreadTimeOut(true);
      EventLoopGroup acceptor = new MultiThreadIoEventLoopGroup(1,
          new DefaultThreadFactory("freshet-pg-accept", true), NioIoHandler.newFactory());
      EventLoopGroup workers = new MultiThreadIoEventLoopGroup(2,
          new DefaultThreadFactory("freshet-pg-io", true), NioIoHandler.newFactory());
      PgEndpoint endpoint = new PgEndpoint(engine, authenticator, catalog, tls, statements,
          limits, maxConnections).statementLog(statementLog);
      try {
        Channel listener = new ServerBootstrap()
            .group(acceptor, workers)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_BACKLOG, 512)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(endpoint.initializer())
            .bind(new InetSocketAddress(address, port))
            .syncUninterruptibly()
            .channel();
        return new PgServer(acceptor, workers, statements, listener);
      } catch (RuntimeException e) {
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        statements.shutdownNow();
        throw new IllegalStateException("Cannot listen for PostgreSQL clients on " + bindAddress
            + ":" + port + ": the port is in use or the address is not this machine's."
            + " Choose another with --pg-port or --bind", e);
      }
    }
  }
}
