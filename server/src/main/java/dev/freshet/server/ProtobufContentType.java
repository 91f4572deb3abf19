package dev.freshet.server;

import java.util.List;
import java.util.Locale;

/**
 * The content types of Avatica's protobuf requests, the only ones the JDBC port reads.
 *
 * <pre>{@code
 * ProtobufContentType.accepted("application/octet-stream");   // true
 * ProtobufContentType.accepted("text/plain;charset=utf-8");   // false
 * }</pre>
 *
 * <p>Avatica's Java client ({@code AvaticaCommonsHttpClientImpl}, which Freshet's remote driver
 * and the stock {@code jdbc:avatica:remote:} driver use) sends {@code application/octet-stream};
 * Avatica's Go client and Python's {@code phoenixdb} send {@code application/x-google-protobuf}.
 * Parameters such as {@code charset} are ignored. Everything else is refused, above all what a
 * web page may send to another site without the browser asking it first (a CORS preflight):
 * {@code text/plain}, {@code application/x-www-form-urlencoded} and {@code multipart/form-data};
 * and no content type at all, which a page's {@code fetch} of a byte array sends.
 */
final class ProtobufContentType {
  /** The media types accepted, in lower case. */
  static final List<String> ACCEPTED = List.of("application/octet-stream",
      "application/x-google-protobuf");

  private ProtobufContentType() {
  }

  /** Whether a request of {@code contentType} (a header's value, or null) is read. */
  static boolean accepted(String contentType) {
    return contentType != null && ACCEPTED.contains(mediaType(contentType));
  }

  /** The media type of {@code contentType}, without parameters, in lower case. */
  static String mediaType(String contentType) {
    int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim()
        .toLowerCase(Locale.ROOT);
  }
}
