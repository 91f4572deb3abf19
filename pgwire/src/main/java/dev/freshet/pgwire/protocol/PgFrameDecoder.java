package dev.freshet.pgwire.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts a connection's bytes into {@link PgFrame}s: first the untyped start-up messages (a length
 * word, then the body), then, once a protocol 3.0 start-up packet is cut, typed messages (a type
 * byte, a length word that counts itself, the body).
 *
 * <p>A length is checked before anything is allocated or awaited: below the length word itself,
 * or above {@link #maxMessageBytes} (a start-up packet above {@link #MAX_STARTUP_BYTES}), ends
 * the connection with a FATAL 08P01, so that a client claiming a 1 GB message is refused at once
 * rather than buffered. After a refusal the decoder drops everything the client sends.
 */
final class PgFrameDecoder extends ByteToMessageDecoder {
  /**
   * The largest start-up packet: PostgreSQL's own limit (its {@code MAX_STARTUP_PACKET_LENGTH}).
   * A start-up packet holds a few settings, never data.
   */
  static final int MAX_STARTUP_BYTES = 10_000;

  private final int maxMessageBytes;
  /** Whether start-up is over and messages carry a type byte; set from the event loop. */
  private boolean typed;
  /** Set once a message was refused: the connection is closing and its bytes are dropped. */
  private boolean failed;

  /** A decoder that refuses typed messages longer than {@code maxMessageBytes}. */
  PgFrameDecoder(int maxMessageBytes) {
    this.maxMessageBytes = maxMessageBytes;
  }

  @Override protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
      throws ProtocolViolation {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    int header = typed ? 5 : 4;
    if (in.readableBytes() < header) {
      return;
    }
    int start = in.readerIndex();
    byte type = typed ? in.getByte(start) : PgFrame.STARTUP;
    int length = in.getInt(start + header - 4);
    int max = typed ? maxMessageBytes : MAX_STARTUP_BYTES;
    if (length < (typed ? 4 : 8) || length > max) {
      failed = true;
      in.skipBytes(in.readableBytes());
      throw new ProtocolViolation(length > max && typed ? "54000" : "08P01",
          (typed ? "Message '" + printable(type) + "'" : "Start-up packet") + " claims "
          + Integer.toUnsignedString(length) + " bytes; this server takes " + (typed ? 4 : 8)
          + " to " + max + (length > max && typed
              ? ". Send smaller statements or fewer rows per INSERT" : ""));
    }
    int frameLength = length + (typed ? 1 : 0);
    if (in.readableBytes() < frameLength) {
      return;
    }
    in.skipBytes(header);
    ByteBuf body = in.readRetainedSlice(length - 4);
    if (!typed && body.getInt(body.readerIndex()) == StartupCodes.PROTOCOL_3_0) {
      // The start-up packet proper: what follows is typed. Switched here, before the next
      // message is cut, whichever thread handles this one.
      typed = true;
    }
    out.add(new PgFrame(type, body));
  }

  private static String printable(byte type) {
    return type >= 32 && type < 127 ? String.valueOf((char) type)
        : "\\x" + Integer.toHexString(type & 0xFF);
  }
}
