package dev.freshet.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.avatica.remote.ProtobufTranslation;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;

/** Raw HTTP requests to a server: Avatica protobuf messages or any bytes, with any header. */
final class RawAvatica {
  /** The content type Avatica's Java client sends, and the server requires. */
  static final String PROTOBUF_CONTENT_TYPE = "application/octet-stream";
  private static final ProtobufTranslation PROTOBUF = new ProtobufTranslationImpl();
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();

  /** A status and the body that came with it (and, of {@link #exchange}, the headers). */
  record Answer(int status, byte[] body, Map<String, List<String>> headers) {
    Answer(int status, byte[] body) {
      this(status, body, Map.of());
    }

    /** The first value of the response header {@code name} (any case), if sent. */
    Optional<String> header(String name) {
      return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
          .flatMap(e -> e.getValue().stream()).findFirst();
    }

    /** The body read as an Avatica response. */
    Service.Response response() throws IOException {
      return PROTOBUF.parseResponse(body);
    }

    /** The body as text, to look for stack traces in. */
    String text() {
      return new String(body, StandardCharsets.ISO_8859_1);
    }
  }

  private RawAvatica() {
  }

  /** The value of an {@code Authorization: Basic} header for {@code user:password}. */
  static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString(
        (user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** POSTs {@code request} as protobuf, with {@code authorization} unless null. */
  static Answer send(FreshetServer server, String authorization, Service.Request request)
      throws IOException, InterruptedException {
    return post(server, authorization, PROTOBUF.serializeRequest(request));
  }

  /** POSTs {@code body}, with {@code authorization} unless null. */
  static Answer post(FreshetServer server, String authorization, byte[] body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url()))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", PROTOBUF_CONTENT_TYPE)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    HttpResponse<byte[]> response = HTTP.send(request.build(),
        HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), response.body());
  }

  /** GETs the server's root. */
  static Answer get(FreshetServer server) throws IOException, InterruptedException {
    HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(URI.create(server.url()))
        .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), response.body());
  }

  /** {@code request} serialized as Avatica's protobuf. */
  static byte[] bytes(Service.Request request) throws IOException {
    return PROTOBUF.serializeRequest(request);
  }

  /**
   * Sends {@code method} to the server's JDBC port over a plain socket, with exactly {@code
   * headers} (a {@code Host} among them names any host; without one it names the server's
   * address) and {@code body}, as a browser or any program could.
   */
  static Answer exchange(FreshetServer server, String method, Map<String, String> headers,
      byte[] body) throws IOException {
    URI uri = URI.create(server.url());
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout((int) Duration.ofSeconds(30).toMillis());
      StringBuilder head = new StringBuilder(method + " / HTTP/1.1\r\n");
      if (headers.keySet().stream().noneMatch(name -> name.equalsIgnoreCase("Host"))) {
        head.append("Host: ").append(uri.getHost()).append(':').append(uri.getPort())
            .append("\r\n");
      }
      headers.forEach((name, value) -> head.append(name).append(": ").append(value)
          .append("\r\n"));
      head.append("Content-Length: ").append(body.length).append("\r\n")
          .append("Connection: close\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      return parse(new BufferedInputStream(socket.getInputStream()));
    }
  }

  /** Reads an HTTP/1.1 response: status line, headers, and a body of either framing. */
  private static Answer parse(InputStream in) throws IOException {
    String status = line(in);
    int code = Integer.parseInt(status.split(" ")[1]);
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (String line = line(in); !line.isEmpty(); line = line(in)) {
      int colon = line.indexOf(':');
      headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
          name -> new ArrayList<>()).add(line.substring(colon + 1).trim());
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (headers.getOrDefault("transfer-encoding", List.of()).contains("chunked")) {
      for (int size = Integer.parseInt(line(in).split(";")[0].trim(), 16); size > 0;
          size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) {
        body.write(in.readNBytes(size));
        line(in);
      }
    } else if (headers.containsKey("content-length")) {
      body.write(in.readNBytes(Integer.parseInt(headers.get("content-length").get(0))));
    } else {
      body.write(in.readAllBytes());
    }
    return new Answer(code, body.toByteArray(), headers);
  }

  /** One line of the response's head, without its CRLF. */
  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new EOFException("The server closed the connection mid-line");
      }
      line.write(b);
    }
    String text = line.toString(StandardCharsets.ISO_8859_1);
    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
  }
}
