package dev.freshet.pgwire.live;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The row formats of {@code COPY ... TO STDOUT}, escaped as PostgreSQL 15 escapes them: TEXT
 * separates fields with a tab, writes NULL as {@code \N} and escapes backslash, tab, newline,
 * carriage return, backspace, form feed and vertical tab with a backslash; CSV separates with a
 * comma, writes NULL as nothing, and quotes a value (doubling its quotes) that holds a comma, a
 * quote or a line break, that is empty (so that it differs from NULL), or that is a
 * backslash-period alone on its row.
 *
 * <pre>{@code
 * CopyFormat.TEXT.field(buf, 0, 2, "a\tb");   // a\tb (backslash, t)
 * CopyFormat.CSV.field(buf, 1, 2, "x,y");     // ,"x,y"
 * CopyFormat.CSV.endRow(buf);              // \n
 * }</pre>
 */
public enum CopyFormat {
  /** PostgreSQL's text format. */
  TEXT {
    @Override public void field(ByteBuf out, int index, int count, @Nullable String value) {
      if (index > 0) {
        out.writeByte('\t');
      }
      if (value == null) {
        out.writeByte('\\').writeByte('N');
        return;
      }
      int plain = 0;
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        char escape = switch (c) {
          case '\\' -> '\\';
          case '\t' -> 't';
          case '\n' -> 'n';
          case '\r' -> 'r';
          case '\b' -> 'b';
          case '\f' -> 'f';
          case 0x0B -> 'v';
          default -> 0;
        };
        if (escape != 0) {
          out.writeCharSequence(value.subSequence(plain, i), StandardCharsets.UTF_8);
          out.writeByte('\\').writeByte(escape);
          plain = i + 1;
        }
      }
      out.writeCharSequence(plain == 0 ? value : value.substring(plain), StandardCharsets.UTF_8);
    }
  },
  /** Comma-separated values, PostgreSQL's CSV format. */
  CSV {
    @Override public void field(ByteBuf out, int index, int count, @Nullable String value) {
      if (index > 0) {
        out.writeByte(',');
      }
      if (value == null) {
        return;
      }
      if (!needsQuotes(value, count)) {
        out.writeCharSequence(value, StandardCharsets.UTF_8);
        return;
      }
      out.writeByte('"');
      int plain = 0;
      for (int i = 0; i < value.length(); i++) {
        if (value.charAt(i) == '"') {
          out.writeCharSequence(value.subSequence(plain, i + 1), StandardCharsets.UTF_8);
          out.writeByte('"');
          plain = i + 1;
        }
      }
      out.writeCharSequence(value.substring(plain), StandardCharsets.UTF_8);
      out.writeByte('"');
    }

    private boolean needsQuotes(String value, int count) {
      // A row that is \. alone would read back as the end of the data.
      if (value.isEmpty() || count == 1 && value.equals("\\.")) {
        return true;
      }
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (c == ',' || c == '"' || c == '\n' || c == '\r') {
          return true;
        }
      }
      return false;
    }
  };

  /**
   * Writes field {@code index} (0 first) of a row of {@code count} fields: its separator, then
   * {@code value}.
   */
  public abstract void field(ByteBuf out, int index, int count, @Nullable String value);

  /** Ends a row. */
  public void endRow(ByteBuf out) {
    out.writeByte('\n');
  }
}
