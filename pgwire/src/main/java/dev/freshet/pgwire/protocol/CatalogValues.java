package dev.freshet.pgwire.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Values of the PostgreSQL-only types of catalog results ({@code oid}, {@code name},
 * {@code "char"}, {@code regclass}, arrays, {@code int2vector}...) in PostgreSQL's text and
 * binary forms, by their type's OID. An array is an {@code Object[]}: its text form is
 * PostgreSQL's ({@code {a,"b c",NULL}}, vectors {@code 1 2}), its binary form
 * {@code array_send}'s.
 *
 * <pre>{@code
 * CatalogValues.text(1009, new Object[] {"a", "b c"});   // {a,"b c"}
 * CatalogValues.text(22, new Object[] {1, 2});           // 1 2
 * }</pre>
 */
final class CatalogValues {
  private CatalogValues() {
  }

  /** Non-null {@code value} of the type with {@code oid} in PostgreSQL's text form. */
  static String text(int oid, Object value) {
    if (value instanceof Object[] array) {
      return oid == 22 || oid == 30 ? vector(array) : array(array);
    }
    if (value instanceof Boolean b) {
      return b ? "t" : "f";
    }
    return value instanceof byte[] bytes ? PgValues.hex(bytes) : value.toString();
  }

  /** {@code int2vector} and {@code oidvector}: the elements separated by spaces. */
  private static String vector(Object[] array) {
    StringBuilder s = new StringBuilder();
    for (Object e : array) {
      s.append(s.length() == 0 ? "" : " ").append(e);
    }
    return s.toString();
  }

  /** An array as {@code array_out} writes it: elements quoted where PostgreSQL quotes them. */
  private static String array(Object[] array) {
    StringBuilder s = new StringBuilder("{");
    for (int i = 0; i < array.length; i++) {
      if (i > 0) {
        s.append(',');
      }
      Object e = array[i];
      if (e == null) {
        s.append("NULL");
      } else if (e instanceof Object[] nested) {
        s.append(array(nested));
      } else {
        element(text(0, e), s);
      }
    }
    return s.append('}').toString();
  }

  private static void element(String e, StringBuilder s) {
    boolean quote = e.isEmpty() || e.equalsIgnoreCase("NULL");
    for (int i = 0; i < e.length() && !quote; i++) {
      char c = e.charAt(i);
      quote = c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || c == ' '
          || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B;
    }
    if (!quote) {
      s.append(e);
      return;
    }
    s.append('"');
    for (int i = 0; i < e.length(); i++) {
      char c = e.charAt(i);
      if (c == '"' || c == '\\') {
        s.append('\\');
      }
      s.append(c);
    }
    s.append('"');
  }

  /** Writes non-null {@code value} of the type with {@code oid} in PostgreSQL's binary form. */
  static void binary(int oid, Object value, ByteBuf out) {
    int element = elementOid(oid);
    if (element != 0 && value instanceof Object[] array) {
      boolean nulls = false;
      for (Object e : array) {
        nulls |= e == null;
      }
      if (array.length == 0) {
        out.writeInt(0).writeInt(0).writeInt(element);
        return;
      }
      out.writeInt(1).writeInt(nulls ? 1 : 0).writeInt(element).writeInt(array.length)
          .writeInt(oid == 22 || oid == 30 ? 0 : 1);
      for (Object e : array) {
        if (e == null) {
          out.writeInt(-1);
        } else {
          int at = out.writerIndex();
          out.writeInt(0);
          binary(element, e, out);
          out.setInt(at, out.writerIndex() - at - 4);
        }
      }
      return;
    }
    switch (oid) {
    case 16 -> out.writeByte(Boolean.TRUE.equals(value) ? 1 : 0);
    case 21 -> out.writeShort(((Number) value).shortValue());
    case 23, 26, 24, 28, 2205, 2206, 4089, 4096 -> out.writeInt(((Number) value).intValue());
    case 20 -> out.writeLong(((Number) value).longValue());
    case 700 -> out.writeFloat(((Number) value).floatValue());
    case 701 -> out.writeDouble(((Number) value).doubleValue());
    default -> out.writeBytes(text(oid, value).getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The element type of array type {@code oid}, or 0 if it is no array. */
  static int elementOid(int oid) {
    return switch (oid) {
      case 22, 1005 -> 21;
      case 30, 1028 -> 26;
      case 1007 -> 23;
      case 1016 -> 20;
      case 1009 -> 25;
      case 1015 -> 1043;
      case 1003 -> 19;
      case 1002 -> 18;
      case 1022 -> 701;
      case 1034 -> 1033;
      default -> 0;
    };
  }
}
