package dev.freshet.pgwire.protocol;

import io.netty.buffer.ByteBuf;

/**
 * One message a client sent, cut from the byte stream by {@link PgFrameDecoder}: its type byte
 * ({@link #STARTUP} for the untyped messages of connection start) and its body, which the
 * receiver releases.
 *
 * @param type the message's type byte, e.g. {@code 'Q'}
 * @param body the bytes after the length word
 */
record PgFrame(byte type, ByteBuf body) {
  /** The type of the messages a connection starts with, which carry no type byte. */
  static final byte STARTUP = 0;
}
