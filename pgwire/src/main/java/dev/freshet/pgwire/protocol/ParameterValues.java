package dev.freshet.pgwire.protocol;

import dev.freshet.common.types.SqlType;
import dev.freshet.engine.query.ResultColumn;
import io.netty.buffer.ByteBuf;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The values of a Bind message's parameters as the Java values Freshet binds
 * ({@code dev.freshet.engine.StatementParameters}): read by the type the client declared for the
 * parameter in Parse, or, where it declared none (OID 0, as pgjdbc does for
 * {@code setObject} of strings and for timestamps), by the type Freshet inferred for the marker.
 *
 * <pre>{@code
 * ParameterValues.text(23, "42", inferred);        // Integer 42
 * ParameterValues.text(0, "2026-12-01", dateType); // LocalDate 2026-12-01
 * }</pre>
 *
 * <p>A text value that does not read as the inferred type stays a string: Freshet casts it to
 * the marker's type and reports a value that does not fit in its own words.
 */
final class ParameterValues {
  /** PostgreSQL's timestamp text: date, time, an optional fraction and an optional offset. */
  private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
      .appendPattern("uuuu-MM-dd")
      .optionalStart().appendLiteral(' ').optionalEnd()
      .optionalStart().appendLiteral('T').optionalEnd()
      .appendPattern("HH:mm")
      .optionalStart().appendPattern(":ss").optionalEnd()
      .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
      .optionalStart().appendOffset("+HH:mm", "Z").optionalEnd()
      .optionalStart().appendOffset("+HH", "Z").optionalEnd()
      .toFormatter(Locale.ROOT);

  private ParameterValues() {
  }

  /** The value of a parameter sent in text form with declared type {@code oid} (0: none). */
  static @Nullable Object text(int oid, String text, @Nullable ResultColumn inferred)
      throws ProtocolViolation {
    int effective = oid != 0 ? oid : inferredOid(inferred);
    try {
      return switch (effective) {
        case 16 -> bool(text);
        case 21 -> Short.valueOf(text.trim());
        case 23 -> Integer.valueOf(text.trim());
        case 20 -> Long.valueOf(text.trim());
        case 700 -> Float.valueOf(floatText(text));
        case 701 -> Double.valueOf(floatText(text));
        case 1700 -> new BigDecimal(text.trim());
        case 17 -> bytea(text);
        case 1082 -> date(text.trim());
        case 1083 -> time(text.trim());
        case 1114 -> timestamp(text.trim(), false);
        case 1184 -> timestamp(text.trim(), true);
        default -> text;
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      if (oid != 0) {
        throw new ProtocolViolation("22P02", "Invalid input syntax for parameter of type OID "
            + oid + ": " + SqlType.quote(text) + ". Send a value of the declared type");
      }
      // Freshet casts the text to the marker's type and says what does not fit.
      return text;
    }
  }

  /** The value of a parameter sent in binary form with declared type {@code oid}. */
  static Object binary(int oid, ByteBuf value, @Nullable ResultColumn inferred)
      throws ProtocolViolation {
    int effective = oid != 0 ? oid : inferredOid(inferred);
    int size = value.readableBytes();
    switch (effective) {
    case 16:
      need(size, 1, effective);
      return value.readByte() != 0;
    case 21:
      need(size, 2, effective);
      return value.readShort();
    case 23:
      need(size, 4, effective);
      return value.readInt();
    case 20:
      need(size, 8, effective);
      return value.readLong();
    case 700:
      need(size, 4, effective);
      return value.readFloat();
    case 701:
      need(size, 8, effective);
      return value.readDouble();
    case 1700:
      if (size < 8) {
        need(size, 8, effective);
      }
      return PgValues.readNumeric(value);
    case 1082:
      need(size, 4, effective);
      return PgValues.readDate(value.readInt());
    case 1083:
      need(size, 8, effective);
      return LocalTime.ofNanoOfDay(value.readLong() * 1000L);
    case 1114:
    case 1184:
      need(size, 8, effective);
      return PgValues.readTimestamp(value.readLong());
    case 17: {
      byte[] bytes = new byte[size];
      value.readBytes(bytes);
      return bytes;
    }
    default:
      if (oid == 0 || oid == 25 || oid == 1043 || oid == 1042 || oid == 19 || oid == 705) {
        return value.toString(StandardCharsets.UTF_8);
      }
      throw new ProtocolViolation("0A000", "Parameters of type OID " + oid + " cannot be sent"
          + " in binary form. Send them as text");
    }
  }

  private static void need(int size, int expected, int oid) throws ProtocolViolation {
    if (size != expected) {
      throw new ProtocolViolation("22P03", "Binary parameter of type OID " + oid + " has "
          + size + " bytes, not " + expected);
    }
  }

  /** The PostgreSQL type of a marker Freshet inferred, or 0 if unknown. */
  private static int inferredOid(@Nullable ResultColumn inferred) {
    if (inferred == null) {
      return 0;
    }
    SqlType type = SqlType.forName(inferred.typeName());
    return type == null ? 0 : type == SqlType.CHAR || type == SqlType.VARCHAR ? 25
        : type == SqlType.TINYINT ? 21 : type.postgresOid();
  }

  /** The OID to describe a marker Freshet inferred with, as ParameterDescription. */
  static int describedOid(ResultColumn inferred) {
    SqlType type = SqlType.forName(inferred.typeName());
    return type == null ? PgColumn.TEXT_OID : type.postgresOid();
  }

  private static Boolean bool(String text) {
    switch (text.trim().toLowerCase(Locale.ROOT)) {
    case "t": case "true": case "y": case "yes": case "on": case "1":
      return Boolean.TRUE;
    case "f": case "false": case "n": case "no": case "off": case "0":
      return Boolean.FALSE;
    default:
      throw new NumberFormatException("not a boolean");
    }
  }

  private static String floatText(String text) {
    String t = text.trim();
    return switch (t.toLowerCase(Locale.ROOT)) {
      case "infinity", "+infinity", "inf" -> "Infinity";
      case "-infinity", "-inf" -> "-Infinity";
      case "nan" -> "NaN";
      default -> t;
    };
  }

  /** bytea in hex ({@code \x0a0b}) or escape form. */
  private static byte[] bytea(String text) {
    if (text.startsWith("\\x")) {
      String hex = text.substring(2);
      if (hex.length() % 2 != 0) {
        throw new NumberFormatException("odd hex digits");
      }
      byte[] bytes = new byte[hex.length() / 2];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) Integer.parseInt(hex, 2 * i, 2 * i + 2, 16);
      }
      return bytes;
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] raw = text.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < raw.length; i++) {
      if (raw[i] == '\\' && i + 1 < raw.length && raw[i + 1] == '\\') {
        out.write('\\');
        i++;
      } else if (raw[i] == '\\' && i + 3 < raw.length) {
        out.write(Integer.parseInt(new String(raw, i + 1, 3, StandardCharsets.US_ASCII), 8));
        i += 3;
      } else {
        out.write(raw[i]);
      }
    }
    return out.toByteArray();
  }

  /** A date's text; what follows the date (pgjdbc's {@code " +00"} zone) is ignored. */
  private static LocalDate date(String text) {
    int end = text.indexOf(' ');
    return LocalDate.parse(end < 0 ? text : text.substring(0, end));
  }

  /** A time's text; a zone offset after it is ignored, as {@code time} ignores it. */
  private static LocalTime time(String text) {
    int end = text.length();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '+' || c == '-' || c == ' ') {
        end = i;
        break;
      }
    }
    return LocalTime.parse(text.substring(0, end));
  }

  /**
   * A timestamp's text. For a {@code timestamptz} with an offset, the instant as a wall-clock
   * time in UTC; a {@code timestamp} ignores an offset, as PostgreSQL does.
   */
  private static LocalDateTime timestamp(String text, boolean zoned) {
    java.time.temporal.TemporalAccessor parsed = TIMESTAMP.parse(text);
    LocalDateTime local = LocalDateTime.of(LocalDate.from(parsed), LocalTime.from(parsed));
    if (zoned && parsed.isSupported(ChronoField.OFFSET_SECONDS)) {
      ZoneOffset offset = ZoneOffset.ofTotalSeconds(parsed.get(ChronoField.OFFSET_SECONDS));
      return OffsetDateTime.of(local, offset).withOffsetSameInstant(ZoneOffset.UTC)
          .toLocalDateTime();
    }
    return local;
  }
}
