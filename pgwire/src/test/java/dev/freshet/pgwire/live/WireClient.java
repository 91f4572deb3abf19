package dev.freshet.pgwire.live;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A PostgreSQL client on a bare socket that reads a live result message by message, sends a
 * CancelRequest with its BackendKeyData, or stops reading (a slow client).
 */
final class WireClient implements AutoCloseable {
  /** Generous: CI machines are loaded. */
  static final Duration DEADLINE = Duration.ofSeconds(30);

  private final int port;
  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private int processId;
  private int secret;

  /** A message from the server. */
  record Message(char type, byte[] body) {
    /** An ErrorResponse's fields by code ('C' SQLSTATE, 'M' message). */
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

    /** A DataRow's values in text form (null for NULL). */
    List<String> values() {
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
    List<String> names() {
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

    String text() {
      int end = body.length > 0 && body[body.length - 1] == 0 ? body.length - 1 : body.length;
      return new String(body, 0, end, StandardCharsets.UTF_8);
    }
  }

  WireClient(int port) throws IOException {
    this(port, 0);
  }

  /** A client whose socket takes at most about {@code receiveBuffer} bytes unread (0: the default). */
  WireClient(int port, int receiveBuffer) throws IOException {
    this.port = port;
    socket = new Socket();
    if (receiveBuffer > 0) {
      socket.setReceiveBufferSize(receiveBuffer);
    }
    socket.connect(new java.net.InetSocketAddress("127.0.0.1", port));
    socket.setSoTimeout((int) DEADLINE.toMillis());
    in = new DataInputStream(socket.getInputStream());
    out = new DataOutputStream(socket.getOutputStream());
    startup();
  }

  private void startup() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (String p : new String[] {"user", "freshet", "database", "freshet"}) {
      body.writeBytes(p.getBytes(StandardCharsets.UTF_8));
      body.write(0);
    }
    body.write(0);
    out.writeInt(8 + body.size());
    out.writeInt(3 << 16);
    out.write(body.toByteArray());
    out.flush();
    Message m;
    do {
      m = read();
      if (m.type() == 'E') {
        throw new IOException("start-up failed: " + m.fields());
      }
      if (m.type() == 'K') {
        processId = ((m.body()[0] & 0xFF) << 24) | ((m.body()[1] & 0xFF) << 16)
            | ((m.body()[2] & 0xFF) << 8) | (m.body()[3] & 0xFF);
        secret = ((m.body()[4] & 0xFF) << 24) | ((m.body()[5] & 0xFF) << 16)
            | ((m.body()[6] & 0xFF) << 8) | (m.body()[7] & 0xFF);
      }
    } while (m.type() != 'Z');
  }

  /** Sends a simple Query. */
  void query(String sql) throws IOException {
    byte[] text = sql.getBytes(StandardCharsets.UTF_8);
    out.writeByte('Q');
    out.writeInt(4 + text.length + 1);
    out.write(text);
    out.writeByte(0);
    out.flush();
  }

  /** Sends a simple Query and reads its messages up to ReadyForQuery. */
  List<Message> run(String sql) throws IOException {
    query(sql);
    List<Message> messages = new ArrayList<>();
    Message m;
    do {
      m = read();
      messages.add(m);
    } while (m.type() != 'Z');
    return messages;
  }

  /** Sends a CancelRequest on a connection of its own, as libpq does. */
  void cancel() throws IOException {
    try (Socket s = new Socket("127.0.0.1", port);
        DataOutputStream o = new DataOutputStream(s.getOutputStream())) {
      o.writeInt(16);
      o.writeInt(80877102);
      o.writeInt(processId);
      o.writeInt(secret);
      o.flush();
      // The server answers by closing.
      s.setSoTimeout((int) DEADLINE.toMillis());
      s.getInputStream().read();
    }
  }

  /** The server's next message; fails at end of stream or the deadline. */
  Message read() throws IOException {
    int type = in.read();
    if (type < 0) {
      throw new IOException("the server closed the connection");
    }
    int length = in.readInt();
    byte[] body = new byte[length - 4];
    in.readFully(body);
    return new Message((char) type, body);
  }

  /** The next message, skipping NoticeResponses. */
  Message next() throws IOException {
    Message m;
    do {
      m = read();
    } while (m.type() == 'N');
    return m;
  }

  @Override public void close() throws IOException {
    socket.close();
  }
}
