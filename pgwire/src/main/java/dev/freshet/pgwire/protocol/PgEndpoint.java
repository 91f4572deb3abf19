package dev.freshet.pgwire.protocol;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.Engine;
import dev.freshet.pgwire.auth.PgAuthenticator;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * What every connection of one PostgreSQL endpoint shares: the engine, who may connect, the
 * catalog, TLS, the executor statements run on, the cancel keys and the limits. It makes each
 * new connection's pipeline ({@link #initializer}).
 *
 * <pre>{@code
 * PgEndpoint endpoint = new PgEndpoint(engine, PgAuthenticator.trust(), CatalogQueries.NONE,
 *     Optional.empty(), executor, PgEndpoint.Limits.DEFAULT, 1000);
 * bootstrap.childHandler(endpoint.initializer());
 * }</pre>
 */
public final class PgEndpoint {
  final Engine engine;
  final PgAuthenticator authenticator;
  final CatalogQueries catalog;
  final Optional<SSLContext> tls;
  final ExecutorService executor;
  final Limits limits;
  /** How many connections may be open at once; one more is refused with 53300. */
  final int maxConnections;
  /** The connections open now. */
  final java.util.concurrent.atomic.AtomicInteger connections =
      new java.util.concurrent.atomic.AtomicInteger();
  final CancelKeys keys;
  final SecureRandom random = new SecureRandom();
  /** Where each statement is reported; {@link PgStatementLog#NONE} unless set. */
  volatile PgStatementLog statementLog = PgStatementLog.NONE;
  /** The TimeZone of a connection whose client sets none: timestamps are UTC in Freshet. */
  final String timeZone = "UTC";

  /**
   * The limits of a connection.
   *
   * @param maxMessageBytes the largest message a client may send
   * @param startupTimeout how long a client may take from connecting to authenticated
   * @param idleTimeout how long an authenticated connection may sit idle (no statement running)
   */
  public record Limits(int maxMessageBytes, Duration startupTimeout, Duration idleTimeout) {
    /**
     * 8 MiB messages (the JDBC port's --max-request-bytes default: a statement or a Bind of
     * many rows fits, a hostile length does not), 30 s to authenticate, 30 minutes idle (the
     * JDBC port's connection idle timeout).
     */
    public static final Limits DEFAULT = new Limits(8 << 20, Duration.ofSeconds(30),
        Duration.ofMinutes(30));

    public Limits {
      if (maxMessageBytes < 1024) {
        throw new IllegalArgumentException("The largest message must be at least 1024 bytes,"
            + " not " + maxMessageBytes);
      }
      requireNonNull(startupTimeout, "startupTimeout");
      requireNonNull(idleTimeout, "idleTimeout");
    }
  }

  /**
   * An endpoint over {@code engine}.
   *
   * @param executor where statements run, off the event loops; bounded, so that clients cannot
   *     make the server start threads without limit
   * @param maxConnections how many connections may be open at once
   */
  public PgEndpoint(Engine engine, PgAuthenticator authenticator, CatalogQueries catalog,
      Optional<SSLContext> tls, ExecutorService executor, Limits limits, int maxConnections) {
    this.maxConnections = maxConnections;
    this.engine = requireNonNull(engine, "engine");
    this.authenticator = requireNonNull(authenticator, "authenticator");
    this.catalog = requireNonNull(catalog, "catalog");
    this.tls = requireNonNull(tls, "tls");
    this.executor = requireNonNull(executor, "executor");
    this.limits = requireNonNull(limits, "limits");
    this.keys = new CancelKeys(random);
  }

  /** Reports each statement to {@code log} (before the endpoint takes connections). */
  public PgEndpoint statementLog(PgStatementLog log) {
    this.statementLog = requireNonNull(log, "log");
    return this;
  }

  /** The pipeline of each new connection. */
  public ChannelInitializer<SocketChannel> initializer() {
    return new ChannelInitializer<>() {
      @Override protected void initChannel(SocketChannel channel) {
        channel.pipeline()
            .addLast(PgConnection.IDLE, new IdleStateHandler(
                limits.startupTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS))
            .addLast(PgConnection.DECODER, new PgFrameDecoder(limits.maxMessageBytes()))
            .addLast(PgConnection.HANDLER, new PgConnection(PgEndpoint.this));
      }
    };
  }
}
