package dev.freshet.engine.security;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit log: a file of JSON lines, one per {@link AuditEvent}, that records who ran which
 * DDL, GRANT or STOP and every refusal. Without a file ({@code freshet serve} without {@code
 * --audit-log}, or an embedded engine) it records nothing.
 *
 * <pre>{@code
 * try (AuditLog audit = AuditLog.open(Optional.of(Path.of("/var/log/freshet/audit.jsonl")))) {
 *   audit.record(AuditEvent.ok("alice", "CREATE STREAM", "clicks"));
 * }
 * }</pre>
 *
 * <p>Each line is an object with the keys, in this order: {@code time} (ISO-8601 in UTC, e.g.
 * {@code 2026-12-07T03:48:25.123Z}), {@code user}, {@code action}, {@code object},
 * {@code outcome} ({@code ok} or {@code refused}), {@code sqlstate}, {@code message} and {@code
 * remote_address}; a key whose value is not known holds {@code null}. A line is at most {@value
 * #MAX_LINE_BYTES} bytes of UTF-8 with its newline: longer values are cut and end with {@value
 * #CUT}.
 *
 * <p>The file is opened once, for appending, and created readable and writable by the server's
 * user only ({@code 0600}, where the file system has POSIX permissions; an existing file keeps
 * the permissions it has). Every line is handed to the operating system as one write as soon
 * as it is recorded (it survives a crash of the server, not of the machine), and lines of
 * concurrent callers never interleave. Since the file is appended to, a log rotation by copying
 * and truncating it ({@code copytruncate}) loses nothing but the lines of that instant.
 *
 * <p>Recording never fails the caller: a line that cannot be written is logged as an error
 * (once, until a line can be written again), and a line recorded after {@link #close()} is
 * dropped.
 */
public final class AuditLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);

  /** The most bytes of one line, its newline included. */
  public static final int MAX_LINE_BYTES = 4096;
  /** What ends a value that was cut. */
  static final String CUT = "... (cut)";
  /** The most characters kept of a refusal's message before the line's own limit applies. */
  static final int MAX_MESSAGE_CHARS = 1024;
  /*
   * The most characters kept of each other value. Escaped as JSON a character takes at most six
   * bytes, so the other values of a line fit in MAX_LINE_BYTES together however they are made
   * (6 * (256 + 128 + 64 + 64 + 16 + 5 * 9) bytes, and 150 of keys and time); only the message is
   * cut further when the line is too long.
   */
  /** The most characters kept of an object's name. */
  static final int MAX_OBJECT_CHARS = 256;
  /** The most characters kept of a user's name. */
  static final int MAX_USER_CHARS = 128;
  /** The most characters kept of an action's name and of an address. */
  private static final int MAX_SHORT_CHARS = 64;
  /** The most characters kept of a SQLSTATE (five, unless a caller sent something else). */
  private static final int MAX_SQLSTATE_CHARS = 16;
  private static final JsonFactory JSON = new JsonFactory();
  private static final FileAttribute<?> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  private final Optional<Path> file;
  /** The open file, or null if this log records nothing; guarded by {@code this}. */
  private final FileChannel channel;
  /** Whether the last write failed: only the first failure of a run is logged. */
  private boolean failing;

  private AuditLog(Optional<Path> file, FileChannel channel) {
    this.file = file;
    this.channel = channel;
  }

  /**
   * Opens the audit log in {@code file} for appending, creating it ({@code 0600}) if it does
   * not exist; with no file, a log that records nothing.
   *
   * @throws UncheckedIOException if the file cannot be opened for appending; the message names
   *     it and says why
   */
  public static AuditLog open(Optional<Path> file) {
    if (file.isEmpty()) {
      return new AuditLog(file, null);
    }
    Path path = file.get().toAbsolutePath().normalize();
    Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE,
        StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    try {
      FileChannel channel = path.getFileSystem().supportedFileAttributeViews().contains("posix")
          ? FileChannel.open(path, options, OWNER_ONLY) : FileChannel.open(path, options);
      return new AuditLog(Optional.of(path), channel);
    } catch (IOException e) {
      String message = "Cannot open the audit log " + path + " for appending (" + e
          + "). Give --audit-log a file in an existing directory the server may write";
      throw new UncheckedIOException(message, e);
    }
  }

  /** Whether this log writes to a file. */
  public boolean enabled() {
    return channel != null;
  }

  /** The file this log writes to, if any. */
  public Optional<Path> file() {
    return file;
  }

  /** Appends {@code event} as a line stamped with the current time; does nothing if disabled. */
  public void record(AuditEvent event) {
    if (channel == null) {
      return;
    }
    ByteBuffer line = ByteBuffer.wrap(line(event, Instant.now()));
    synchronized (this) {
      try {
        while (line.hasRemaining()) {
          channel.write(line);
        }
        failing = false;
      } catch (ClosedChannelException e) {
        LOG.debug("Audit log {} closed; dropped a line of {}", file.get(), event.action());
      } catch (IOException e) {
        if (!failing) {
          LOG.error("Cannot write to the audit log {}: {}; lines are lost until it can be"
              + " written again", file.get(), e.toString());
        }
        failing = true;
      }
    }
  }

  /** Closes the file; lines recorded later are dropped. Idempotent. */
  @Override public void close() {
    if (channel == null) {
      return;
    }
    synchronized (this) {
      try {
        channel.close();
      } catch (IOException e) {
        LOG.warn("Cannot close the audit log {}: {}", file.get(), e.toString());
      }
    }
  }

  /**
   * {@code event} as a line of the log: UTF-8 JSON and a newline, at most {@link
   * #MAX_LINE_BYTES} bytes.
   */
  static byte[] line(AuditEvent event, Instant time) {
    String message = event.message();
    int keep = MAX_MESSAGE_CHARS;
    while (true) {
      byte[] line = json(event, time, cut(message, keep));
      if (line.length <= MAX_LINE_BYTES || message == null || keep == 0) {
        return line;
      }
      keep /= 2;
    }
  }

  private static byte[] json(AuditEvent event, Instant time, String message) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      json.writeStringField("time", DateTimeFormatter.ISO_INSTANT.format(time));
      json.writeStringField("user", cut(event.user(), MAX_USER_CHARS));
      json.writeStringField("action", cut(event.action(), MAX_SHORT_CHARS));
      json.writeStringField("object", cut(event.object(), MAX_OBJECT_CHARS));
      json.writeStringField("outcome", event.allowed() ? "ok" : "refused");
      json.writeStringField("sqlstate", cut(event.sqlState(), MAX_SQLSTATE_CHARS));
      json.writeStringField("message", message);
      json.writeStringField("remote_address", cut(event.remoteAddress(), MAX_SHORT_CHARS));
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write JSON to memory", e);
    }
    out.write('\n');
    return out.toByteArray();
  }

  /**
   * {@code value} with at most {@code max} characters, plus {@link #CUT} if it was longer; a
   * surrogate without its pair (which UTF-8 cannot hold) becomes U+FFFD. Null stays null.
   */
  static String cut(String value, int max) {
    if (value == null) {
      return null;
    }
    boolean cut = value.length() > max;
    int end = cut ? max : value.length();
    if (cut && end > 0 && Character.isHighSurrogate(value.charAt(end - 1))) {
      end--;   // not half a pair
    }
    StringBuilder kept = new StringBuilder(end + CUT.length());
    for (int i = 0; i < end; i++) {
      char c = value.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < end
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        kept.append(c).append(value.charAt(++i));
      } else {
        kept.append(Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    return cut ? kept.append(CUT).toString() : kept.toString();
  }
}
