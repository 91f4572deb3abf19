package dev.freshet.pgwire;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A PostgreSQL client on a bare socket, for sending what no real client sends: it writes raw
 * bytes and reads the server's messages, checking that each is well formed.
 */
final class RawPgClient implements AutoCloseable {
  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;

  /** A message from the server. */
  record Message(char type, byte[] body) {
    /** An ErrorResponse's fields by code ('C' SQLSTATE, 'M' message, 'S' severity). */
    Map<Character, String> fields() {
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
  }

  RawPgClient(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout((int) PgTesting.DEADLINE.toMillis());
    in = new DataInputStream(socket.getInputStream());
    out = new DataOutputStream(socket.getOutputStream());
  }

  /** Sends a protocol 3.0 start-up packet for {@code user} and reads up to ReadyForQuery. */
  void startup(String user) throws IOException {
    send(startupPacket(3 << 16, "user", user, "database", "freshet"));
    Message m;
    do {
      m = read();
      if (m == null || m.type() == 'E') {
        throw new IOException("start-up failed: " + (m == null ? "closed" : m.fields()));
      }
    } while (m.type() != 'Z');
  }

  static byte[] startupPacket(int version, String... parameters) {
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
  static byte[] message(char type, byte[] body) {
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

  static byte[] query(String sql) {
    byte[] text = sql.getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[text.length + 1];
    System.arraycopy(text, 0, body, 0, text.length);
    return message('Q', body);
  }

  void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Ends what this client sends; the server sees end of stream. */
  void endOutput() throws IOException {
    socket.shutdownOutput();
  }

  /** The server's next message, or null once it closed the connection. */
  Message read() throws IOException {
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

  /** The messages up to the server's close, which must come before the deadline. */
  java.util.List<Message> readToClose() throws IOException {
    java.util.List<Message> messages = new java.util.ArrayList<>();
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
