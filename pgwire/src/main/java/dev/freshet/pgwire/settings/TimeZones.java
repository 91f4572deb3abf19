package dev.freshet.pgwire.settings;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;

/**
 * PostgreSQL's {@code TimeZone} values as Java zones: region names ({@code Europe/Berlin}),
 * {@code UTC}/{@code GMT}, and offsets, where PostgreSQL's POSIX-style numbers count west of
 * Greenwich ({@code SET TIME ZONE -5} is five hours behind).
 */
final class TimeZones {
  private TimeZones() {
  }

  /** {@code value} if it names a zone Java knows, as it will be shown. */
  static String check(String value) throws SettingException {
    zone(value);
    return value;
  }

  /** The Java zone of PostgreSQL's time zone {@code value}. */
  static ZoneId zone(String value) throws SettingException {
    String v = value.trim();
    if (v.equalsIgnoreCase("local") || v.equalsIgnoreCase("default")) {
      return ZoneId.systemDefault();
    }
    if (v.equalsIgnoreCase("utc") || v.equalsIgnoreCase("gmt") || v.equalsIgnoreCase("z")
        || v.equalsIgnoreCase("zulu")) {
      return ZoneOffset.UTC;
    }
    try {
      if (v.matches("[+-]?\\d{1,2}(:\\d{2})?")) {
        // A bare number: hours east of Greenwich, as SET TIME ZONE reads it.
        String signed = v.startsWith("-") || v.startsWith("+") ? v : "+" + v;
        String[] parts = signed.substring(1).split(":");
        String hh = parts[0].length() == 1 ? "0" + parts[0] : parts[0];
        return ZoneOffset.of(signed.charAt(0) + hh + (parts.length > 1 ? ":" + parts[1] : ""));
      }
      return ZoneId.of(v);
    } catch (DateTimeException e) {
      try {
        return ZoneId.of(v.toUpperCase(Locale.ROOT));
      } catch (DateTimeException again) {
        throw new SettingException("22023", "Invalid value for parameter \"TimeZone\": \""
            + value + "\". Set a zone name such as UTC or Europe/Berlin");
      }
    }
  }

  /** The zone of a value {@link #check} accepted. */
  static ZoneId zoneOf(String value) {
    try {
      return zone(value);
    } catch (SettingException e) {
      return ZoneOffset.UTC;
    }
  }
}
