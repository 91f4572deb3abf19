package dev.freshet.pgwire.conformance;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Replays corpus statements over PostgreSQL's protocol exactly as the corpus keeps them: a
 * {@code simple} one as one Query message (several statements allowed), an {@code extended}
 * one as Parse/Bind/Describe/Execute/Sync of the unnamed statement with its {@code $n}
 * parameters in text and their types left to the server, as pgjdbc with
 * {@code stringtype=unspecified} and node-postgres send them.
 *
 * <pre>{@code
 * try (ReplayClient c = ReplayClient.connect(port, "freshet")) {
 *   String error = c.simple("SELECT 1; SELECT 2");   // null if every statement ran
 * }
 * }</pre>
 */
final class ReplayClient implements AutoCloseable {
  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;

  private ReplayClient(Socket socket) throws IOException {
    this.socket = socket;
    socket.setSoTimeout(120_000);
    this.in = new DataInputStream(socket.getInputStream());
    this.out = new DataOutputStream(socket.getOutputStream());
  }

  /** A connection as {@code user} to database freshet of a server that trusts it. */
  static ReplayClient connect(int port, String user) throws IOException {
    ReplayClient c = new ReplayClient(new Socket("127.0.0.1", port));
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    DataOutputStream b = new DataOutputStream(body);
    b.writeInt(196608);
    for (String s : new String[] {"user", user, "database", "freshet",
        "application_name", "corpus-replay", ""}) {
      b.write(s.getBytes(StandardCharsets.UTF_8));
      b.write(0);
    }
    c.out.writeInt(body.size() + 4);
    c.out.write(body.toByteArray());
    c.out.flush();
    String error = c.untilReady();
    if (error != null) {
      c.close();
      throw new IOException("Start-up failed: " + error);
    }
    return c;
  }

  /** Sends {@code sql} as one Query message; the first error, or null. */
  @Nullable String simple(String sql) throws IOException {
    message('Q', cstring(sql));
    out.flush();
    return untilReady();
  }

  /** Runs {@code sql} by the extended protocol with {@code params}; the first error, or null. */
  @Nullable String extended(String sql, List<@Nullable String> params) throws IOException {
    ByteArrayOutputStream parse = new ByteArrayOutputStream();
    DataOutputStream p = new DataOutputStream(parse);
    p.write(cstring(""));
    p.write(cstring(sql));
    p.writeShort(0);
    message('P', parse.toByteArray());
    ByteArrayOutputStream bind = new ByteArrayOutputStream();
    DataOutputStream b = new DataOutputStream(bind);
    b.write(cstring(""));
    b.write(cstring(""));
    b.writeShort(0);
    b.writeShort(params.size());
    for (String param : params) {
      if (param == null) {
        b.writeInt(-1);
      } else {
        byte[] bytes = param.getBytes(StandardCharsets.UTF_8);
        b.writeInt(bytes.length);
        b.write(bytes);
      }
    }
    b.writeShort(0);
    message('B', bind.toByteArray());
    ByteArrayOutputStream describe = new ByteArrayOutputStream();
    describe.write('P');
    describe.write(cstring(""));
    message('D', describe.toByteArray());
    ByteArrayOutputStream execute = new ByteArrayOutputStream();
    execute.write(cstring(""));
    execute.write(new byte[4]);
    message('E', execute.toByteArray());
    message('S', new byte[0]);
    out.flush();
    return untilReady();
  }

  private static byte[] cstring(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    byte[] c = new byte[bytes.length + 1];
    System.arraycopy(bytes, 0, c, 0, bytes.length);
    return c;
  }

  private void message(char type, byte[] body) throws IOException {
    out.writeByte(type);
    out.writeInt(body.length + 4);
    out.write(body);
  }

  /** Reads to ReadyForQuery; the first ErrorResponse's SQLSTATE and message, or null. */
  private @Nullable String untilReady() throws IOException {
    String error = null;
    while (true) {
      int type = in.readUnsignedByte();
      int length = in.readInt();
      byte[] body = new byte[length - 4];
      in.readFully(body);
      if (type == 'E' && error == null) {
        error = fields(body);
      } else if (type == 'R' && body.length >= 4 && body[3] != 0) {
        throw new IOException("The server asks for a password (authentication " + body[3]
            + "): replay needs a trusting server");
      } else if (type == 'Z') {
        return error;
      }
    }
  }

  /** An ErrorResponse's SQLSTATE and message: {@code 42P01 relation "x" does not exist}. */
  private static String fields(byte[] body) {
    String state = "";
    String message = "";
    int i = 0;
    while (i < body.length && body[i] != 0) {
      char field = (char) body[i++];
      int end = i;
      while (body[end] != 0) {
        end++;
      }
      String value = new String(body, i, end - i, StandardCharsets.UTF_8);
      if (field == 'C') {
        state = value;
      } else if (field == 'M') {
        message = value;
      }
      i = end + 1;
    }
    return state + " " + message;
  }

  @Override public void close() throws IOException {
    try {
      message('X', new byte[0]);
      out.flush();
    } catch (IOException e) {
      // Closing anyway.
    }
    socket.close();
  }
}
