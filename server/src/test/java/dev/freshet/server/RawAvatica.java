package dev.freshet.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.apache.calcite.avatica.remote.ProtobufTranslation;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;

/** Raw HTTP requests to a server: Avatica protobuf messages or any bytes, with any header. */
final class RawAvatica {
  private static final ProtobufTranslation PROTOBUF = new ProtobufTranslationImpl();
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();

  /** A status and the body that came with it. */
  record Answer(int status, byte[] body) {
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
}
