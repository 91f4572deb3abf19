package dev.freshet.pgwire.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes the backend's messages of one connection into a buffer that goes to the channel when it
 * is large or when {@link #flush} is called (at ReadyForQuery, Flush, and before waiting for
 * the client), so that a result's many small DataRows leave in few writes.
 *
 * <p>A writer belongs to the one thread that runs its connection's messages at a time. When the
 * channel cannot take more (a slow client), writing a full buffer waits until it can, so that a
 * large result is never buffered whole in the server.
 */
final class MessageWriter {
  /** Hand the buffer to the channel when it holds this much. */
  private static final int BATCH_BYTES = 32 * 1024;

  private final Channel channel;
  /** Null for a writer that never waits (one that runs on the event loop). */
  private final Writability writability;
  /** What is written and not sent; null when nothing is, so an idle connection holds none. */
  private ByteBuf out;
  /** Where the length word of the message being written is; -1 between messages. */
  private int lengthAt = -1;

  MessageWriter(Channel channel, Writability writability) {
    this.channel = channel;
    this.writability = writability;
  }

  /** Starts a message of {@code type}; {@link #end} finishes it. */
  MessageWriter begin(char type) {
    if (out == null) {
      out = channel.alloc().buffer(256);
    }
    out.writeByte(type);
    lengthAt = out.writerIndex();
    out.writeInt(0);
    return this;
  }

  /** Finishes the message {@link #begin} started, and hands a full buffer to the channel. */
  void end() {
    out.setInt(lengthAt, out.writerIndex() - lengthAt);
    lengthAt = -1;
    if (out.readableBytes() >= BATCH_BYTES) {
      send(false);
    }
  }

  MessageWriter int8(int value) {
    out.writeByte(value);
    return this;
  }

  MessageWriter int16(int value) {
    out.writeShort(value);
    return this;
  }

  MessageWriter int32(int value) {
    out.writeInt(value);
    return this;
  }

  MessageWriter bytes(byte[] value) {
    out.writeBytes(value);
    return this;
  }

  /** A NUL-terminated UTF-8 string. */
  MessageWriter cstring(String value) {
    // A NUL inside would end the string early and shift every field after it.
    out.writeCharSequence(value.indexOf('\0') < 0 ? value : value.replace('\0', '?'),
        StandardCharsets.UTF_8);
    out.writeByte(0);
    return this;
  }

  /** The buffer messages are written to, for a value's encoder; between begin and end only. */
  ByteBuf buffer() {
    return out;
  }

  /** Sends what is written and flushes the channel. */
  void flush() {
    send(true);
  }

  private void send(boolean flush) {
    ByteBuf full = out;
    out = null;
    if (full != null && full.isReadable()) {
      // A write to a closed channel fails and releases the buffer.
      channel.writeAndFlush(full, channel.voidPromise());
      if (!flush && writability != null) {
        writability.await(channel);
      }
    } else if (full != null) {
      full.release();
    }
  }

  /** The messages written and not sent, which the caller now owns; null if none. */
  ByteBuf take() {
    ByteBuf taken = out;
    out = null;
    return taken;
  }

  // The messages.

  void authenticationOk() {
    begin('R').int32(0).end();
  }

  void authenticationCleartextPassword() {
    begin('R').int32(3).end();
  }

  void authenticationSasl(String mechanism) {
    begin('R').int32(10).cstring(mechanism).int8(0).end();
  }

  void authenticationSaslContinue(String data) {
    begin('R').int32(11).bytes(data.getBytes(StandardCharsets.UTF_8)).end();
  }

  void authenticationSaslFinal(String data) {
    begin('R').int32(12).bytes(data.getBytes(StandardCharsets.UTF_8)).end();
  }

  void parameterStatus(String name, String value) {
    begin('S').cstring(name).cstring(value).end();
  }

  void parameterStatuses(Map<String, String> settings) {
    settings.forEach(this::parameterStatus);
  }

  void backendKeyData(int processId, int secretKey) {
    begin('K').int32(processId).int32(secretKey).end();
  }

  void readyForQuery(char status) {
    begin('Z').int8(status).end();
  }

  void commandComplete(String tag) {
    begin('C').cstring(tag).end();
  }

  void emptyQueryResponse() {
    begin('I').end();
  }

  void parseComplete() {
    begin('1').end();
  }

  void bindComplete() {
    begin('2').end();
  }

  void closeComplete() {
    begin('3').end();
  }

  void noData() {
    begin('n').end();
  }

  void portalSuspended() {
    begin('s').end();
  }

  void parameterDescription(int[] oids) {
    begin('t').int16(oids.length);
    for (int oid : oids) {
      int32(oid);
    }
    end();
  }

  /** An ErrorResponse ({@code 'E'}) or NoticeResponse ({@code 'N'}) with its fields. */
  void errorOrNotice(char type, ErrorFields fields) {
    begin(type);
    field('S', fields.severity());
    field('V', fields.severity());
    field('C', fields.sqlState());
    field('M', fields.message());
    if (fields.detail() != null) {
      field('D', fields.detail());
    }
    if (fields.hint() != null) {
      field('H', fields.hint());
    }
    int8(0);
    end();
  }

  private void field(char code, String value) {
    int8(code).cstring(value);
  }
}
