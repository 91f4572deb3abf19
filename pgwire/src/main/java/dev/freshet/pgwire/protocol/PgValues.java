package dev.freshet.pgwire.protocol;

import dev.freshet.common.types.SqlType;
import io.netty.buffer.ByteBuf;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Locale;
import org.apache.calcite.avatica.util.ByteString;

/**
 * Values of a row in PostgreSQL's text and binary forms, as PostgreSQL 15 writes them: booleans
 * {@code t}/{@code f}, timestamps {@code 2026-12-01 10:00:00.5}, bytea {@code \x0a0b}, floats
 * by {@code extra_float_digits}; binary dates and timestamps count from 2000-01-01, numerics in
 * base-10000 digits.
 *
 * <pre>{@code
 * PgValues.text(SqlType.BOOLEAN, true, settings);           // "t"
 * PgValues.text(SqlType.TIMESTAMP, 1796119200500L, s);      // "2026-12-01 10:00:00.5"
 * }</pre>
 *
 * <p>A row holds Calcite's representation of each value ({@link SqlType#javaClass}): a DATE is
 * {@code Integer} days, a TIMESTAMP {@code Long} milliseconds read as UTC.
 */
final class PgValues {
  /** 2000-01-01, PostgreSQL's epoch for binary dates, in days since 1970-01-01. */
  private static final int PG_EPOCH_DAYS = 10_957;
  /** 2000-01-01 00:00 UTC in milliseconds since 1970. */
  private static final long PG_EPOCH_MILLIS = PG_EPOCH_DAYS * 86_400_000L;
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private PgValues() {
  }

  /**
   * Non-null {@code value} of {@code type} (null: a PostgreSQL-only type of a catalog result) in
   * PostgreSQL's text form.
   */
  static String text(SqlType type, Object value, Formats formats) {
    if (type == null) {
      return value instanceof byte[] bytes ? hex(bytes) : value.toString();
    }
    return switch (type) {
      case BOOLEAN -> ((Boolean) value) ? "t" : "f";
      case TINYINT, SMALLINT, INTEGER, BIGINT -> value.toString();
      case REAL -> float4(((Number) value).floatValue(), formats.extraFloatDigits());
      case DOUBLE -> float8(((Number) value).doubleValue(), formats.extraFloatDigits());
      case DECIMAL -> value instanceof BigDecimal d ? d.toPlainString() : value.toString();
      case CHAR, VARCHAR -> value.toString();
      case BINARY, VARBINARY -> hex(bytes(value));
      case DATE -> date(((Number) value).intValue());
      case TIME -> time(((Number) value).longValue() * 1_000_000L);
      case TIMESTAMP -> timestamp(LocalDateTime.ofInstant(
          Instant.ofEpochMilli(((Number) value).longValue()), ZoneOffset.UTC));
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamptz(((Number) value).longValue(),
          formats.zone());
      case TIME_WITH_LOCAL_TIME_ZONE -> time(((Number) value).longValue() * 1_000_000L) + "+00";
      case INTERVAL_YEAR_MONTH -> months(((Number) value).intValue());
      case INTERVAL_DAY_SECOND -> millis(((Number) value).longValue());
    };
  }

  /** What text values depend on: the connection's settings. */
  interface Formats {
    /** PostgreSQL's {@code extra_float_digits}. */
    int extraFloatDigits();

    /** The zone {@code timestamptz} values are shown in. */
    ZoneId zone();
  }

  /** Writes non-null {@code value} of {@code type} in PostgreSQL's binary form to {@code out}. */
  static void binary(SqlType type, Object value, ByteBuf out, Formats formats) {
    if (type == null) {
      out.writeBytes(text(null, value, formats).getBytes(StandardCharsets.UTF_8));
      return;
    }
    switch (type) {
    case BOOLEAN -> out.writeByte(((Boolean) value) ? 1 : 0);
    case TINYINT, SMALLINT -> out.writeShort(((Number) value).shortValue());
    case INTEGER -> out.writeInt(((Number) value).intValue());
    case BIGINT -> out.writeLong(((Number) value).longValue());
    case REAL -> out.writeFloat(((Number) value).floatValue());
    case DOUBLE -> out.writeDouble(((Number) value).doubleValue());
    case DECIMAL -> numeric(value instanceof BigDecimal d ? d : new BigDecimal(value.toString()),
        out);
    case CHAR, VARCHAR -> out.writeCharSequence(value.toString(), StandardCharsets.UTF_8);
    case BINARY, VARBINARY -> out.writeBytes(bytes(value));
    case DATE -> out.writeInt(((Number) value).intValue() - PG_EPOCH_DAYS);
    case TIME -> out.writeLong(((Number) value).longValue() * 1000L);
    case TIME_WITH_LOCAL_TIME_ZONE -> out.writeLong(((Number) value).longValue() * 1000L)
        .writeInt(0);
    case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
        out.writeLong((((Number) value).longValue() - PG_EPOCH_MILLIS) * 1000L);
    case INTERVAL_YEAR_MONTH -> out.writeLong(0).writeInt(0)
        .writeInt(((Number) value).intValue());
    case INTERVAL_DAY_SECOND -> out.writeLong(((Number) value).longValue() * 1000L)
        .writeInt(0).writeInt(0);
    default -> throw new IllegalStateException("no binary form for " + type);
    }
  }

  private static byte[] bytes(Object value) {
    if (value instanceof byte[] bytes) {
      return bytes;
    }
    if (value instanceof ByteString s) {
      return s.getBytes();
    }
    return value.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** bytea's hex form: {@code \x} then two digits a byte. */
  static String hex(byte[] bytes) {
    char[] text = new char[2 + bytes.length * 2];
    text[0] = '\\';
    text[1] = 'x';
    for (int i = 0; i < bytes.length; i++) {
      text[2 + 2 * i] = HEX[(bytes[i] >> 4) & 0xF];
      text[3 + 2 * i] = HEX[bytes[i] & 0xF];
    }
    return new String(text);
  }

  /**
   * A float8 as PostgreSQL 12+ writes it: with {@code extra_float_digits} above 0 the shortest
   * text that reads back exactly, else rounded to 15 + extra significant digits; an exponent
   * below -4 or from 15 (or the precision) on is written {@code 1e+15}.
   */
  static String float8(double d, int extraFloatDigits) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0" : "0";
    }
    BigDecimal exact = extraFloatDigits > 0 ? new BigDecimal(Double.toString(d))
        : new BigDecimal(d).round(new java.math.MathContext(Math.max(1, 15 + extraFloatDigits),
            RoundingMode.HALF_EVEN));
    return general(exact, extraFloatDigits > 0 ? 15 : Math.max(1, 15 + extraFloatDigits));
  }

  /** A float4, as {@link #float8} with 6 digits of precision. */
  static String float4(float f, int extraFloatDigits) {
    if (Float.isNaN(f)) {
      return "NaN";
    }
    if (Float.isInfinite(f)) {
      return f > 0 ? "Infinity" : "-Infinity";
    }
    if (f == 0) {
      return (1 / f < 0) ? "-0" : "0";
    }
    BigDecimal exact = extraFloatDigits > 0 ? new BigDecimal(Float.toString(f))
        : new BigDecimal(f).round(new java.math.MathContext(Math.max(1, 6 + extraFloatDigits),
            RoundingMode.HALF_EVEN));
    return general(exact, extraFloatDigits > 0 ? 6 : Math.max(1, 6 + extraFloatDigits));
  }

  /** C's {@code %g} of {@code value}'s significant digits: no trailing zeros. */
  private static String general(BigDecimal value, int precision) {
    BigDecimal v = value.stripTrailingZeros();
    int exponent = v.precision() - v.scale() - 1;
    if (exponent < -4 || exponent >= precision) {
      BigDecimal mantissa = v.movePointLeft(exponent).stripTrailingZeros();
      String m = mantissa.toPlainString();
      String e = Integer.toString(Math.abs(exponent));
      return m + "e" + (exponent < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
    }
    return v.toPlainString();
  }

  static String date(int epochDay) {
    LocalDate date = LocalDate.ofEpochDay(epochDay);
    if (date.getYear() <= 0) {
      return String.format(Locale.ROOT, "%04d-%02d-%02d BC", 1 - date.getYear(),
          date.getMonthValue(), date.getDayOfMonth());
    }
    return String.format(Locale.ROOT, "%04d-%02d-%02d", date.getYear(), date.getMonthValue(),
        date.getDayOfMonth());
  }

  /** {@code HH:MM:SS[.ffffff]} of {@code nanos} since midnight, trailing zeros dropped. */
  static String time(long nanos) {
    StringBuilder s = new StringBuilder(15);
    LocalTime t = LocalTime.ofNanoOfDay(Math.floorMod(nanos, 86_400_000_000_000L));
    two(s, t.getHour()).append(':');
    two(s, t.getMinute()).append(':');
    two(s, t.getSecond());
    fraction(s, t.getNano());
    return s.toString();
  }

  static String timestamp(LocalDateTime t) {
    StringBuilder s = new StringBuilder(26);
    s.append(date((int) t.toLocalDate().toEpochDay()), 0, 10).append(' ');
    two(s, t.getHour()).append(':');
    two(s, t.getMinute()).append(':');
    two(s, t.getSecond());
    fraction(s, t.getNano());
    if (t.getYear() <= 0) {
      s.append(" BC");
    }
    return s.toString();
  }

  static String timestamptz(long millis, ZoneId zone) {
    ZonedDateTime z = Instant.ofEpochMilli(millis).atZone(zone);
    StringBuilder s = new StringBuilder(timestamp(z.toLocalDateTime()));
    int offset = z.getOffset().getTotalSeconds();
    s.append(offset < 0 ? '-' : '+');
    int abs = Math.abs(offset);
    two(s, abs / 3600);
    if (abs % 3600 != 0) {
      s.append(':');
      two(s, abs % 3600 / 60);
    }
    return s.toString();
  }

  /** An interval of {@code months}, as PostgreSQL's {@code postgres} IntervalStyle shows it. */
  static String months(int months) {
    if (months == 0) {
      return "00:00:00";
    }
    int years = months / 12;
    int rest = months % 12;
    StringBuilder s = new StringBuilder();
    if (years != 0) {
      s.append(years).append(Math.abs(years) == 1 ? " year" : " years");
    }
    if (rest != 0) {
      if (s.length() > 0) {
        s.append(' ');
      }
      s.append(rest).append(Math.abs(rest) == 1 ? " mon" : " mons");
    }
    return s.toString();
  }

  /** An interval of {@code millis}: {@code 1 day 02:03:04.5}, {@code -01:00:00}. */
  static String millis(long millis) {
    long days = millis / 86_400_000L;
    long rest = millis % 86_400_000L;
    StringBuilder s = new StringBuilder();
    if (days != 0) {
      s.append(days).append(Math.abs(days) == 1 ? " day" : " days");
    }
    if (rest != 0 || days == 0) {
      if (s.length() > 0) {
        s.append(' ');
      }
      if (rest < 0) {
        s.append('-');
      }
      s.append(time(Math.abs(rest) * 1_000_000L));
    }
    return s.toString();
  }

  private static StringBuilder two(StringBuilder s, int value) {
    if (value < 10) {
      s.append('0');
    }
    return s.append(value);
  }

  /** {@code .ffffff} of {@code nanos}, to microseconds, trailing zeros dropped; none for 0. */
  private static void fraction(StringBuilder s, int nanos) {
    int micros = nanos / 1000;
    if (micros == 0) {
      return;
    }
    String digits = Integer.toString(1_000_000 + micros).substring(1);
    int end = digits.length();
    while (digits.charAt(end - 1) == '0') {
      end--;
    }
    s.append('.').append(digits, 0, end);
  }

  /** {@code value} in numeric's binary form: digit count, weight, sign, scale, digits. */
  static void numeric(BigDecimal value, ByteBuf out) {
    int dscale = Math.max(value.scale(), 0);
    BigDecimal abs = value.abs();
    if (abs.signum() == 0) {
      out.writeShort(0).writeShort(0).writeShort(0).writeShort(dscale);
      return;
    }
    String plain = abs.toPlainString();
    int point = plain.indexOf('.');
    String whole = point < 0 ? plain : plain.substring(0, point);
    String fraction = point < 0 ? "" : plain.substring(point + 1);
    if (whole.equals("0")) {
      whole = "";
    }
    // Pad the whole part on the left and the fraction on the right to groups of four digits.
    whole = "0".repeat((4 - whole.length() % 4) % 4) + whole;
    fraction = fraction + "0".repeat((4 - fraction.length() % 4) % 4);
    String digits = whole + fraction;
    int groups = digits.length() / 4;
    int weight = whole.length() / 4 - 1;
    int first = 0;
    while (first < groups && digits.startsWith("0000", first * 4)) {
      first++;
      weight--;
    }
    int last = groups;
    while (last > first && digits.startsWith("0000", (last - 1) * 4)) {
      last--;
    }
    out.writeShort(last - first).writeShort(weight)
        .writeShort(value.signum() < 0 ? 0x4000 : 0).writeShort(dscale);
    for (int g = first; g < last; g++) {
      out.writeShort(Integer.parseInt(digits, g * 4, g * 4 + 4, 10));
    }
  }

  /** A numeric's binary form read back. */
  static BigDecimal readNumeric(ByteBuf in) throws ProtocolViolation {
    int count = in.readShort();
    int weight = in.readShort();
    int sign = in.readUnsignedShort();
    int dscale = in.readShort();
    if (sign == 0xC000) {
      throw new ProtocolViolation("22P03", "NaN is not a DECIMAL value. Send a number");
    }
    if (count < 0 || in.readableBytes() != 2 * count) {
      throw new ProtocolViolation("22P03", "Malformed binary numeric parameter");
    }
    BigInteger unscaled = BigInteger.ZERO;
    BigInteger base = BigInteger.valueOf(10_000);
    for (int i = 0; i < count; i++) {
      unscaled = unscaled.multiply(base).add(BigInteger.valueOf(in.readShort()));
    }
    BigDecimal result = new BigDecimal(unscaled).movePointRight(4 * (weight - count + 1));
    if (sign == 0x4000) {
      result = result.negate();
    }
    return result.setScale(Math.max(dscale, 0), RoundingMode.HALF_EVEN);
  }

  /** A timestamp's binary form (microseconds since 2000-01-01) as a wall-clock time in UTC. */
  static LocalDateTime readTimestamp(long micros) {
    long millis = Math.floorDiv(micros, 1000L) + PG_EPOCH_MILLIS;
    int microsOfMilli = (int) Math.floorMod(micros, 1000L);
    return LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC)
        .plusNanos(microsOfMilli * 1000L);
  }

  /** A date's binary form (days since 2000-01-01). */
  static LocalDate readDate(int days) {
    return LocalDate.ofEpochDay((long) days + PG_EPOCH_DAYS);
  }
}
