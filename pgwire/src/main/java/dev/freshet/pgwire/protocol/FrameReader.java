package dev.freshet.pgwire.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Reads the fields of a client's message body, refusing a message whose fields run past its end
 * (a truncated or lying message) with 08P01 instead of reading the next message's bytes.
 */
final class FrameReader {
  private FrameReader() {
  }

  /** A NUL-terminated UTF-8 string. */
  static String cstring(ByteBuf body) throws ProtocolViolation {
    int end = body.indexOf(body.readerIndex(), body.writerIndex(), (byte) 0);
    if (end < 0) {
      throw new ProtocolViolation("Invalid message format: a string is not terminated");
    }
    String s = body.toString(body.readerIndex(), end - body.readerIndex(),
        StandardCharsets.UTF_8);
    body.readerIndex(end + 1);
    return s;
  }

  static int int16(ByteBuf body) throws ProtocolViolation {
    need(body, 2);
    return body.readShort();
  }

  static int int32(ByteBuf body) throws ProtocolViolation {
    need(body, 4);
    return body.readInt();
  }

  /** Checks that {@code count} more bytes are in the message. */
  static void need(ByteBuf body, int count) throws ProtocolViolation {
    if (count < 0 || body.readableBytes() < count) {
      throw new ProtocolViolation("Invalid message format: the message ends early");
    }
  }

  /** Checks that the message holds nothing more. */
  static void end(ByteBuf body) throws ProtocolViolation {
    if (body.isReadable()) {
      throw new ProtocolViolation("Invalid message format: " + body.readableBytes()
          + " bytes more than its fields");
    }
  }
}
