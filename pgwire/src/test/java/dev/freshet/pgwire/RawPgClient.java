package dev.freshet.pgwire;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A PostgreSQL client on a bare socket, for what no real client does: it writes raw bytes and
 * reads the server's messages one by one, checking that each is well formed; it sends a
 * CancelRequest with its BackendKeyData, or stops reading (a slow client).
 *
 * <pre>{@code
 * try (RawPgClient c = RawPgClient.started(server.port())) {
 *   c.sendQuery("SELECT STREAM k FROM clicks");
 *   assertEquals('T', c.next().type());
 *   c.cancel();
 * }
 * }</pre>
 */
public final class RawPgClient implements AutoCloseable {
  private final int port;
  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private int processId;
  private int secret;

  /** A message from the server. */
  public record Message(char type, byte[] body) {
    /** An ErrorResponse's fields by code ('C' SQLSTATE, 'M' message, 'S' severity). */
    public Map<Character, String> fields() {
      Map<Character, String> fields = new HashMap<>();
      int i = 0;
      while (i < body.length && body[i] != 0) {
        char code = (char) body[i++];
        int end = i;
        while (body[end] != 0) {
          end++;
        }
        fields.put(code, new String(body, i, end - i, StandardCharsets.UTF_8));
        i = end + 1;
      }
      return fields;
    }

    /** A DataRow's values in text form (null for NULL). */
    public List<String> values() {
      List<String> values = new ArrayList<>();
      int n = ((body[0] & 0xFF) << 8) | (body[1] & 0xFF);
      int at = 2;
      for (int i = 0; i < n; i++) {
        int length = ((body[at] & 0xFF) << 24) | ((body[at + 1] & 0xFF) << 16)
            | ((body[at + 2] & 0xFF) << 8) | (body[at + 3] & 0xFF);
        at += 4;
        if (length < 0) {
          values.add(null);
        } else {
          values.add(new String(body, at, length, StandardCharsets.UTF_8));
          at += length;
        }
      }
      return values;
    }

    /** A RowDescription's column names. */
    public List<String> names() {
      List<String> names = new ArrayList<>();
      int n = ((body[0] & 0xFF) << 8) | (body[1] & 0xFF);
      int at = 2;
      for (int i = 0; i < n; i++) {
        int end = at;
        while (body[end] != 0) {
          end++;
        }
        names.add(new String(body, at, end - at, StandardCharsets.UTF_8));
        at = end + 1 + 18;
      }
      return names;
    }

    /** The body as text, without a terminating zero byte (a CommandComplete's tag). */
    public String text() {
      int end = body.length > 0 && body[body.length - 1] == 0 ? body.length - 1 : body.length;
      return new String(body, 0, end, StandardCharsets.UTF_8);
    }
  }

  /** A client connected to {@code port} that has sent nothing yet. */
  public RawPgClient(int port) throws IOException {
    this(port, 0);
  }

  /** A client whose socket takes at most about {@code receiveBuffer} bytes unread (0: default). */
  public RawPgClient(int port, int receiveBuffer) throws IOException {
    this.port = port;
    socket = new Socket();
    if (receiveBuffer > 0) {
      socket.setReceiveBufferSize(receiveBuffer);
    }
    socket.connect(new InetSocketAddress("127.0.0.1", port));
    socket.setSoTimeout((int) PgTesting.DEADLINE.toMillis());
    in = new DataInputStream(socket.getInputStream());
    out = new DataOutputStream(socket.getOutputStream());
  }

  /** A client that has started up as user {@code freshet}, ready for a query. */
  public static RawPgClient started(int port) throws IOException {
    return started(port, 0);
  }

  /** {@link #started(int)} with a small receive buffer: see {@link #RawPgClient(int, int)}. */
  public static RawPgClient started(int port, int receiveBuffer) throws IOException {
    RawPgClient c = new RawPgClient(port, receiveBuffer);
    c.startup("freshet");
    return c;
  }

  /**
   * Sends a protocol 3.0 start-up packet for {@code user} and reads up to ReadyForQuery,
   * keeping the BackendKeyData for {@link #cancel()}.
   */
  public void startup(String user) throws IOException {
    send(startupPacket(3 << 16, "user", user, "database", "freshet"));
    Message m;
    do {
      m = read();
      if (m == null || m.type() == 'E') {
        throw new IOException("start-up failed: " + (m == null ? "closed" : m.fields()));
      }
      if (m.type() == 'K') {
        processId = readInt(m.body(), 0);
        secret = readInt(m.body(), 4);
      }
    } while (m.type() != 'Z');
  }

  private static int readInt(byte[] b, int at) {
    return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8)
        | (b[at + 3] & 0xFF);
  }

  public static byte[] startupPacket(int version, String... parameters) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (String p : parameters) {
      body.writeBytes(p.getBytes(StandardCharsets.UTF_8));
      body.write(0);
    }
    body.write(0);
    ByteArrayOutputStream packet = new ByteArrayOutputStream();
    int length = 8 + body.size();
    packet.write(length >>> 24);
    packet.write(length >>> 16);
    packet.write(length >>> 8);
    packet.write(length);
    packet.write(version >>> 24);
    packet.write(version >>> 16);
    packet.write(version >>> 8);
    packet.write(version);
    packet.writeBytes(body.toByteArray());
    return packet.toByteArray();
  }

  /** A typed message: its type, a length counting itself, the body. */
  public static byte[] message(char type, byte[] body) {
    ByteArrayOutputStream m = new ByteArrayOutputStream();
    m.write(type);
    int length = 4 + body.length;
    m.write(length >>> 24);
    m.write(length >>> 16);
    m.write(length >>> 8);
    m.write(length);
    m.writeBytes(body);
    return m.toByteArray();
  }

  /** A simple Query message for {@code sql}. */
  public static byte[] query(String sql) {
    byte[] text = sql.getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[text.length + 1];
    System.arraycopy(text, 0, body, 0, text.length);
    return message('Q', body);
  }

  public void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Sends a simple Query. */
  public void sendQuery(String sql) throws IOException {
    send(query(sql));
  }

  /** Sends a simple Query and reads its messages up to ReadyForQuery. */
  public List<Message> run(String sql) throws IOException {
    sendQuery(sql);
    List<Message> messages = new ArrayList<>();
    Message m;
    do {
      m = expect();
      messages.add(m);
    } while (m.type() != 'Z');
    return messages;
  }

  /** Sends a CancelRequest on a connection of its own, as libpq does. */
  public void cancel() throws IOException {
    try (Socket s = new Socket("127.0.0.1", port);
        DataOutputStream o = new DataOutputStream(s.getOutputStream())) {
      o.writeInt(16);
      o.writeInt(80877102);
      o.writeInt(processId);
      o.writeInt(secret);
      o.flush();
      // The server answers by closing.
      s.setSoTimeout((int) PgTesting.DEADLINE.toMillis());
      s.getInputStream().read();
    }
  }

  /** Ends what this client sends; the server sees end of stream. */
  public void endOutput() throws IOException {
    socket.shutdownOutput();
  }

  /** The server's next message, or null once it closed the connection. */
  public Message read() throws IOException {
    int type;
    try {
      type = in.read();
    } catch (SocketTimeoutException e) {
      throw new IOException("no answer within " + PgTesting.DEADLINE, e);
    } catch (IOException e) {
      // Reset by the server closing with unread input: a close.
      return null;
    }
    if (type < 0) {
      return null;
    }
    int length;
    try {
      length = in.readInt();
    } catch (EOFException e) {
      throw new IOException("the server sent a truncated message of type " + (char) type);
    }
    if (length < 4 || length > (1 << 20)) {
      throw new IOException("the server sent a message of length " + length);
    }
    byte[] body = new byte[length - 4];
    in.readFully(body);
    return new Message((char) type, body);
  }

  /** The server's next message; fails if it closed the connection. */
  public Message expect() throws IOException {
    Message m = read();
    if (m == null) {
      throw new IOException("the server closed the connection");
    }
    return m;
  }

  /** The next message, skipping NoticeResponses; fails if the server closed the connection. */
  public Message next() throws IOException {
    Message m;
    do {
      m = expect();
    } while (m.type() == 'N');
    return m;
  }

  /** The messages up to the server's close, which must come before the deadline. */
  public List<Message> readToClose() throws IOException {
    List<Message> messages = new ArrayList<>();
    Message m;
    while ((m = read()) != null) {
      messages.add(m);
    }
    return messages;
  }

  @Override public void close() throws IOException {
    socket.close();
  }
}
