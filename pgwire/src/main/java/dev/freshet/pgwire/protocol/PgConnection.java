package dev.freshet.pgwire.protocol;

import dev.freshet.engine.security.Principal;
import dev.freshet.pgwire.auth.PgUser;
import dev.freshet.pgwire.auth.ScramSha256;
import dev.freshet.pgwire.settings.PgSettings;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLEngine;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection of the PostgreSQL endpoint, from its start-up packet to Terminate.
 *
 * <p>On the event loop it answers what must not wait (SSLRequest, GSSENCRequest, CancelRequest,
 * a broken frame) and queues every other message. The queue is drained, in order, by one task at
 * a time on the endpoint's bounded executor, which runs start-up, authentication and statements:
 * a slow statement holds one executor thread, never an event loop, so other connections go on.
 * Reading stops while a connection has many messages queued, so a client that pipelines without
 * end cannot fill the server's memory.
 *
 * <p>Phases: {@link Phase#STARTUP} until a protocol 3.0 start-up packet, then authentication
 * ({@link Phase#SASL}, {@link Phase#PASSWORD}), then {@link Phase#READY}. The start-up timeout
 * bounds the time to authenticate; once ready, the idle timeout closes a connection that runs
 * nothing and sends nothing.
 */
final class PgConnection extends ChannelInboundHandlerAdapter
    implements CancelKeys.Cancellable, PgValues.Formats, LiveResults.Host {
  static final String IDLE = "pg-idle";
  static final String DECODER = "pg-decoder";
  static final String HANDLER = "pg-handler";
  private static final String TLS = "pg-tls";

  private static final Logger LOG = LoggerFactory.getLogger(PgConnection.class);
  /** Stop reading while this many messages wait; read again when the queue is empty. */
  private static final int MAX_QUEUED = 64;
  /** The one database the endpoint serves. */
  static final String DATABASE = "freshet";

  /** Where a connection is in its life. */
  enum Phase {
    STARTUP, SASL, SASL_FINAL, PASSWORD, READY, CLOSED
  }

  private final PgEndpoint endpoint;
  private final Writability writability = new Writability();
  private final Queue<PgFrame> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Whether this connection is counted in the endpoint's open connections. */
  private boolean counted;
  /** Whether a message is being handled on the executor: a statement may be running. */
  private volatile boolean busy;
  private Channel channel;
  // The following are touched by the one task that drains the queue at a time.
  private volatile Phase phase = Phase.STARTUP;
  private MessageWriter out;
  private @Nullable PgSession session;
  private @Nullable ExtendedProtocol extended;
  private @Nullable LiveResults live;
  /** While a live result runs, no message is handled (set where messages run). */
  private volatile boolean suspended;
  /** What runs where messages run when a live result ended, before the next message. */
  private volatile @Nullable Runnable resumed;
  /** The statements of a simple Query after the live result that suspended it. */
  private java.util.List<String> afterLive = java.util.List.of();
  private PgSettings settings;
  private @Nullable PgUser user;
  private String userName;
  private @Nullable ScramSha256 scram;
  /** After an error in the extended protocol, messages are skipped until Sync. */
  private boolean skipUntilSync;
  private int processId;
  private volatile ZoneId zone = java.time.ZoneOffset.UTC;
  private volatile int extraFloatDigits = 1;

  PgConnection(PgEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  @Override public void handlerAdded(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    out = new MessageWriter(channel, writability);
  }

  @Override public void channelActive(ChannelHandlerContext ctx) throws Exception {
    counted = true;
    if (endpoint.connections.incrementAndGet() > endpoint.maxConnections) {
      fatalNow(ErrorFields.of("FATAL", "53300", "Sorry, too many clients already: this server"
          + " takes " + endpoint.maxConnections + " connections. Close some, or try again later"));
      return;
    }
    super.channelActive(ctx);
  }

  @Override public void channelRead(ChannelHandlerContext ctx, Object msg) {
    PgFrame frame = (PgFrame) msg;
    if (closed.get()) {
      frame.body().release();
      return;
    }
    if (suspended && frame.type() == 'X') {
      // Terminate during a live result: nothing else will be handled.
      frame.body().release();
      closeNow();
      return;
    }
    if (frame.type() == PgFrame.STARTUP && phase == Phase.STARTUP
        && startupRequest(ctx, frame.body())) {
      frame.body().release();
      return;
    }
    queue.add(frame);
    if (queued.incrementAndGet() >= MAX_QUEUED) {
      channel.config().setAutoRead(false);
    }
    schedule();
  }

  /**
   * Answers SSLRequest, GSSENCRequest and CancelRequest on the event loop; returns false for a
   * start-up packet proper, which is queued.
   */
  private boolean startupRequest(ChannelHandlerContext ctx, ByteBuf body) {
    if (body.readableBytes() < 4) {
      fatalNow(ErrorFields.of("FATAL", "08P01", "Invalid start-up packet: no protocol version"));
      return true;
    }
    int code = body.getInt(body.readerIndex());
    switch (code) {
    case StartupCodes.SSL_REQUEST:
      if (endpoint.tls.isPresent() && ctx.pipeline().get(TLS) == null) {
        // 'S' leaves in the clear; everything after it, both ways, is TLS.
        ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte('S'));
        SSLEngine engine = endpoint.tls.get().createSSLEngine();
        engine.setUseClientMode(false);
        ctx.pipeline().addBefore(DECODER, TLS, new SslHandler(engine));
      } else {
        ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte('N'));
      }
      return true;
    case StartupCodes.GSSENC_REQUEST:
      ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte('N'));
      return true;
    case StartupCodes.CANCEL_REQUEST:
      if (body.readableBytes() == 12) {
        endpoint.keys.cancel(body.getInt(body.readerIndex() + 4),
            body.getInt(body.readerIndex() + 8));
      }
      // PostgreSQL answers a CancelRequest with nothing but closing.
      closeNow();
      return true;
    case StartupCodes.PROTOCOL_3_0:
      return false;
    default:
      fatalNow(ErrorFields.of("FATAL", "0A000", "Unsupported frontend protocol "
          + (code >>> 16) + "." + (code & 0xFFFF) + ": this server supports 3.0 only"));
      return true;
    }
  }

  private void schedule() {
    if (resumed == null && (suspended || queue.isEmpty())
        || !draining.compareAndSet(false, true)) {
      return;
    }
    try {
      endpoint.executor.execute(this::drain);
    } catch (RejectedExecutionException e) {
      draining.set(false);
      fatalNow(ErrorFields.of("FATAL", "53300", "The server is too busy to serve this"
          + " connection now. Try again later"));
    }
  }

  /** Handles the queued messages in order; one task at a time per connection. */
  private void drain() {
    try {
      Runnable then = resumed;
      if (then != null) {
        resumed = null;
        suspended = false;
        try {
          then.run();
        } catch (RuntimeException | Error e) {
          LOG.warn("PostgreSQL connection failed after a live result", e);
          fatal(ErrorFields.of("FATAL", ErrorFields.INTERNAL_ERROR, "Internal error: " + e));
        }
      }
      PgFrame frame;
      while (!suspended && (frame = queue.poll()) != null) {
        if (queued.decrementAndGet() == 0 && !closed.get()) {
          channel.config().setAutoRead(true);
        }
        busy = true;
        try {
          if (!closed.get()) {
            handle(frame);
          }
        } finally {
          busy = false;
          frame.body().release();
        }
      }
    } finally {
      draining.set(false);
    }
    // A message queued between the last poll and the flag's reset.
    schedule();
  }

  private void handle(PgFrame frame) {
    try {
      switch (phase) {
      case STARTUP -> startup(frame);
      case SASL, SASL_FINAL, PASSWORD -> authenticate(frame);
      case READY -> message(frame);
      default -> { }
      }
    } catch (ProtocolViolation e) {
      fatal(ErrorFields.of("FATAL", e));
    } catch (SQLException e) {
      fatal(ErrorFields.of("FATAL", e));
    } catch (RuntimeException | Error e) {
      LOG.warn("PostgreSQL connection failed", e);
      fatal(ErrorFields.of("FATAL", ErrorFields.INTERNAL_ERROR, "Internal error: " + e));
    }
  }

  // Start-up and authentication.

  private void startup(PgFrame frame) throws SQLException {
    if (frame.type() != PgFrame.STARTUP) {
      throw new ProtocolViolation("Expected a start-up packet");
    }
    ByteBuf body = frame.body();
    body.skipBytes(4);
    Map<String, String> parameters = new LinkedHashMap<>();
    while (true) {
      String name = FrameReader.cstring(body);
      if (name.isEmpty()) {
        break;
      }
      parameters.put(name, FrameReader.cstring(body));
    }
    userName = parameters.get("user");
    if (userName == null || userName.isEmpty()) {
      throw new SQLException("No PostgreSQL user name specified in startup packet. Connect"
          + " with a user (psql -U name, pgjdbc user=name)", "28000");
    }
    String database = parameters.getOrDefault("database", userName);
    if (database.isEmpty()) {
      database = userName;
    }
    if (!database.equals(DATABASE)) {
      throw new SQLException("Database \"" + database + "\" does not exist. Connect to"
          + " database " + DATABASE + ": Freshet serves one", "3D000");
    }
    settings = PgSettings.defaults(endpoint.timeZone);
    for (Map.Entry<String, String> p : parameters.entrySet()) {
      switch (p.getKey()) {
      case "user", "database", "options", "replication" -> { }
      default -> settings.set(p.getKey(), p.getValue());
      }
    }
    if (!endpoint.authenticator.required()) {
      ready(endpoint.authenticator.user(userName).orElseThrow().principal());
      return;
    }
    user = endpoint.authenticator.user(userName).orElse(null);
    boolean overTls = channel.pipeline().get(TLS) != null;
    if (user != null && user.plainPassword().isPresent()) {
      scram = ScramSha256.forPassword(user.plainPassword().get(), endpoint.random);
    } else if (overTls) {
      phase = Phase.PASSWORD;
      out.authenticationCleartextPassword();
      out.flush();
      return;
    } else if (user == null) {
      // Unknown users go through SCRAM too, and fail at its end like a wrong password.
      scram = ScramSha256.failing(endpoint.random);
    } else {
      throw new SQLException("User \"" + userName + "\" can log in only with a cleartext"
          + " password (the users file keeps a hash), which this server takes over TLS only."
          + " Connect with TLS (sslmode=require), or store the password in plain text for"
          + " SCRAM-SHA-256", "28000");
    }
    phase = Phase.SASL;
    out.authenticationSasl(ScramSha256.MECHANISM);
    out.flush();
  }

  private void authenticate(PgFrame frame) throws SQLException {
    if (frame.type() != 'p') {
      throw new ProtocolViolation("Expected a password message during authentication, not '"
          + (char) frame.type() + "'");
    }
    ByteBuf body = frame.body();
    try {
      switch (phase) {
      case PASSWORD -> {
        String password = FrameReader.cstring(body);
        if (user == null || !user.checkPassword(password)) {
          throw passwordFailed();
        }
        ready(user.principal());
      }
      case SASL -> {
        String mechanism = FrameReader.cstring(body);
        if (!mechanism.equals(ScramSha256.MECHANISM)) {
          throw new SQLException("SASL mechanism " + mechanism + " is not offered. Use "
              + ScramSha256.MECHANISM, "28000");
        }
        int length = FrameReader.int32(body);
        FrameReader.need(body, length);
        String clientFirst = body.readCharSequence(length, StandardCharsets.UTF_8).toString();
        out.authenticationSaslContinue(scram.serverFirst(clientFirst));
        out.flush();
        phase = Phase.SASL_FINAL;
      }
      case SASL_FINAL -> {
        String clientFinal = body.toString(StandardCharsets.UTF_8);
        Optional<String> serverFinal = scram.serverFinal(clientFinal);
        if (serverFinal.isEmpty() || user == null) {
          throw passwordFailed();
        }
        out.authenticationSaslFinal(serverFinal.get());
        ready(user.principal());
      }
      default -> throw new IllegalStateException(phase.toString());
      }
    } catch (ScramSha256.ScramException e) {
      throw new ProtocolViolation(e.getMessage());
    }
  }

  private SQLException passwordFailed() {
    return new SQLException("Password authentication failed for user \"" + userName + "\"",
        "28P01");
  }

  /** Authenticated: opens the session and tells the client it may send queries. */
  private void ready(Principal principal) throws SQLException {
    session = new PgSession(endpoint.engine.openSession(principal), settings, endpoint.catalog,
        out, channel.eventLoop());
    live = new LiveResults(session, out, channel, this, endpoint.executor, this);
    extended = new ExtendedProtocol(session, out, this, live);
    settings.set("session_authorization", userName);
    int[] key = endpoint.keys.register(this);
    processId = key[0];
    extended.log(endpoint.statementLog, processId);
    out.authenticationOk();
    out.parameterStatuses(settings.reported());
    out.backendKeyData(key[0], key[1]);
    phase = Phase.READY;
    // From now on the idle timeout; on the event loop, where a close removes the handlers.
    channel.eventLoop().execute(() -> {
      if (channel.pipeline().get(IDLE) != null) {
        channel.pipeline().replace(IDLE, IDLE, new IdleStateHandler(
            endpoint.limits.idleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS));
      }
    });
    readyForQuery();
  }

  private void readyForQuery() {
    zone = settings.zone();
    extraFloatDigits = settings.extraFloatDigits();
    session.ready();
    if (session.status() == PgSession.IDLE) {
      live.transactionEnded();
    }
    out.readyForQuery(session.status());
    out.flush();
  }

  // Queries.

  private void message(PgFrame frame) throws SQLException {
    byte type = frame.type();
    if (type == 'X') {
      closeNow();
      return;
    }
    if (skipUntilSync && type != 'S') {
      return;
    }
    try {
      switch (type) {
      case 'Q' -> simpleQuery(frame.body());
      case 'P' -> extended.parse(frame.body());
      case 'B' -> extended.bind(frame.body());
      case 'D' -> extended.describe(frame.body());
      case 'E' -> extended.execute(frame.body(), failed -> {
        if (failed) {
          session.failed();
          skipUntilSync = true;
        }
      });
      case 'C' -> extended.close(frame.body());
      case 'H' -> out.flush();
      case 'S' -> {
        skipUntilSync = false;
        extended.sync();
        readyForQuery();
      }
      case 'd', 'c', 'f' -> { } // CopyData/Done/Fail outside a COPY: PostgreSQL ignores them.
      default -> throw new ProtocolViolation("Unknown message type '" + (char) type + "'");
      }
    } catch (ProtocolViolation e) {
      if (e.getSQLState().equals("08P01")) {
        throw e;
      }
      extendedError(e);
    } catch (SQLException e) {
      extendedError(e);
    }
  }

  /** An error of an extended-protocol message: reported, then skip until Sync. */
  private void extendedError(SQLException e) {
    extended.failed(e);
    out.errorOrNotice('E', ErrorFields.of(e));
    // Sent now, as PostgreSQL does: a client waiting for a Flush's answer learns of it.
    out.flush();
    session.failed();
    skipUntilSync = true;
  }

  private void simpleQuery(ByteBuf body) throws ProtocolViolation {
    String text = FrameReader.cstring(body);
    FrameReader.end(body);
    java.util.List<String> statements = SqlText.split(text);
    if (statements.isEmpty()) {
      out.emptyQueryResponse();
    }
    statements(text, statements);
  }

  /**
   * Runs a simple Query's statements, each with its results, then logs the query and sends
   * ReadyForQuery; after a statement with a live result, the rest run when that result ends.
   */
  private void statements(String text, java.util.List<String> statements) {
    SQLException failure = null;
    for (int i = 0; i < statements.size(); i++) {
      String sql = statements.get(i);
      try {
        PgSession.Outcome outcome = live.simple(sql, failed -> {
          if (failed) {
            session.failed();
            endpoint.statementLog.statement(PgStatementLog.Entry.of(processId, "simple", null,
                text, java.util.List.of(), new SQLException("The live result ended in an error")));
            readyForQuery();
          } else {
            statements(text, afterLive);
          }
        });
        if (outcome == null) {
          // A live result runs; ReadyForQuery comes when it ends.
          afterLive = statements.subList(i + 1, statements.size());
          return;
        }
        if (outcome.columns() != null) {
          PgColumn[] columns = Rows.columns(outcome.columns(), new short[0]);
          Rows.rowDescription(out, columns);
          for (Object[] row : outcome.rows()) {
            Rows.dataRow(out, columns, row, this);
          }
        }
        out.commandComplete(outcome.tag());
      } catch (SQLException e) {
        out.errorOrNotice('E', ErrorFields.of(e));
        session.failed();
        failure = e;
        break;
      } catch (RuntimeException e) {
        LOG.warn("Statement failed unexpectedly: {}", sql, e);
        out.errorOrNotice('E', ErrorFields.of("ERROR", ErrorFields.INTERNAL_ERROR,
            "Internal error: " + e));
        session.failed();
        failure = new SQLException("Internal error: " + e, ErrorFields.INTERNAL_ERROR);
        break;
      }
    }
    endpoint.statementLog.statement(PgStatementLog.Entry.of(processId, "simple", null, text,
        java.util.List.of(), failure));
    readyForQuery();
  }

  // Live results (LiveResults.Host).

  @Override public void suspend() {
    suspended = true;
  }

  @Override public void resume(Runnable then) {
    resumed = then;
    schedule();
  }

  // Formats.

  @Override public int extraFloatDigits() {
    return extraFloatDigits;
  }

  @Override public ZoneId zone() {
    return zone;
  }

  // Cancel, errors, timeouts, close.

  @Override public void cancelRequested() {
    LiveResults l = live;
    if (l != null && l.cancel()) {
      return;
    }
    PgSession s = session;
    if (s != null) {
      s.cancel(busy || !queue.isEmpty());
    }
    if (l != null) {
      // A live result that started meanwhile.
      l.cancel();
    }
  }

  @Override public void userEventTriggered(ChannelHandlerContext ctx, Object evt)
      throws Exception {
    if (evt instanceof IdleStateEvent) {
      if (phase != Phase.READY) {
        fatalNow(ErrorFields.of("FATAL", "08P01", "Start-up and authentication took longer"
            + " than " + endpoint.limits.startupTimeout().toSeconds() + " s"));
      } else if (!busy && queue.isEmpty() && !suspended) {
        fatalNow(ErrorFields.of("FATAL", "57P05", "Terminating connection due to idle timeout"
            + " (" + endpoint.limits.idleTimeout().toSeconds() + " s without a statement)"));
      }
      return;
    }
    super.userEventTriggered(ctx, evt);
  }

  @Override public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable e = cause instanceof DecoderException && cause.getCause() != null
        ? cause.getCause() : cause;
    if (e instanceof SQLException sql) {
      fatalNow(ErrorFields.of("FATAL", sql));
    } else {
      // The client went away (connection reset) or TLS failed: nothing to tell it.
      LOG.debug("PostgreSQL connection closed: {}", e.toString());
      closeNow();
    }
  }

  @Override public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    writability.signal();
    super.channelWritabilityChanged(ctx);
  }

  @Override public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (counted) {
      endpoint.connections.decrementAndGet();
    }
    closed.set(true);
    phase = Phase.CLOSED;
    writability.signal();
    if (processId != 0) {
      endpoint.keys.remove(processId);
    }
    PgSession s = session;
    if (s != null) {
      s.cancel(false);
      LiveResults l = live;
      Runnable close = () -> {
        l.closeAll();
        s.close();
      };
      // Dropping the pending INSERTs may wait for the statement that is being cancelled.
      try {
        endpoint.executor.execute(close);
      } catch (RejectedExecutionException e) {
        close.run();
      }
    }
    PgFrame frame;
    while ((frame = queue.poll()) != null) {
      frame.body().release();
    }
    super.channelInactive(ctx);
  }

  /** A FATAL error from the task that runs this connection's messages; then the close. */
  private void fatal(ErrorFields error) {
    phase = Phase.CLOSED;
    closed.set(true);
    out.errorOrNotice('E', error);
    out.flush();
    channel.close();
  }

  /** A FATAL error from the event loop; then the close. */
  private void fatalNow(ErrorFields error) {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    phase = Phase.CLOSED;
    MessageWriter now = new MessageWriter(channel, writability);
    now.errorOrNotice('E', error);
    channel.writeAndFlush(now.take()).addListener(ChannelFutureListener.CLOSE);
  }

  private void closeNow() {
    closed.set(true);
    phase = Phase.CLOSED;
    channel.close();
  }
}
