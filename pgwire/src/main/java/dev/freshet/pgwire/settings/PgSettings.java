package dev.freshet.pgwire.settings;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The PostgreSQL run-time settings of one connection ({@code client_encoding}, {@code DateStyle},
 * {@code TimeZone}, {@code extra_float_digits}, ...): what the client's start-up packet and its
 * {@code SET}, {@code RESET} and {@code SHOW} statements read and change. They are PostgreSQL's
 * settings, not Freshet's session options ({@code SET 'state.partitions' = '4'}), which the
 * Freshet session keeps.
 *
 * <pre>{@code
 * PgSettings settings = PgSettings.defaults("UTC");
 * settings.set("extra_float_digits", "3");   // what pgjdbc sends at start-up
 * settings.get("DateStyle");                 // "ISO, MDY"
 * }</pre>
 *
 * <p>Names are matched ignoring case, as PostgreSQL matches them. A few settings are reported:
 * the server sends a {@code ParameterStatus} message for each at start-up and whenever one
 * changes, as PostgreSQL does for these names. Settings nobody reads here are kept and shown as
 * set, so that the statements tools send at connection start succeed; settings Freshet cannot
 * honour ({@code client_encoding} other than UTF8) are refused with SQLSTATE 22023 by
 * {@link #set}.
 */
public final class PgSettings {
  /** What {@code server_version} reports: PostgreSQL 15, whose catalog queries psql 15 sends. */
  public static final String SERVER_VERSION = "15.0 (Freshet)";
  /** {@code server_version_num}, as PostgreSQL numbers 15.0. */
  public static final String SERVER_VERSION_NUM = "150000";

  /** The settings PostgreSQL 15 reports by ParameterStatus (its GUC_REPORT flag). */
  private static final Set<String> REPORTED = Set.of("server_version", "server_encoding",
      "client_encoding", "application_name", "default_transaction_read_only", "in_hot_standby",
      "is_superuser", "session_authorization", "datestyle", "intervalstyle", "timezone",
      "integer_datetimes", "standard_conforming_strings");

  /** Settings a client may not change: the server's facts. */
  private static final Set<String> READ_ONLY = Set.of("server_version", "server_version_num",
      "server_encoding", "integer_datetimes", "in_hot_standby", "is_superuser",
      "max_identifier_length", "block_size", "lc_collate", "lc_ctype");

  /** Each setting's value, by lower-case name; the spelling shown is {@link #names}'s. */
  private final Map<String, String> values = new LinkedHashMap<>();
  /** The defaults, for RESET. */
  private final Map<String, String> defaults = new LinkedHashMap<>();
  /** Each setting's name as PostgreSQL spells it ({@code DateStyle}), by lower-case name. */
  private final Map<String, String> names = new LinkedHashMap<>();

  private PgSettings() {
  }

  /**
   * The settings of a new connection, before its start-up packet's: PostgreSQL 15's defaults,
   * in time zone {@code timeZone}.
   */
  public static PgSettings defaults(String timeZone) {
    requireNonNull(timeZone, "timeZone");
    PgSettings s = new PgSettings();
    s.define("server_version", SERVER_VERSION);
    s.define("server_version_num", SERVER_VERSION_NUM);
    s.define("server_encoding", "UTF8");
    s.define("client_encoding", "UTF8");
    s.define("DateStyle", "ISO, MDY");
    s.define("IntervalStyle", "postgres");
    s.define("TimeZone", timeZone);
    s.define("integer_datetimes", "on");
    s.define("standard_conforming_strings", "on");
    s.define("application_name", "");
    s.define("is_superuser", "off");
    s.define("session_authorization", "");
    s.define("default_transaction_read_only", "off");
    s.define("in_hot_standby", "off");
    s.define("extra_float_digits", "1");
    s.define("search_path", "\"$user\", public");
    s.define("statement_timeout", "0");
    s.define("lock_timeout", "0");
    s.define("idle_in_transaction_session_timeout", "0");
    s.define("default_transaction_isolation", "read committed");
    s.define("transaction_isolation", "read committed");
    s.define("transaction_read_only", "off");
    s.define("bytea_output", "hex");
    s.define("max_identifier_length", "63");
    s.define("block_size", "8192");
    s.define("lc_collate", "C");
    s.define("lc_ctype", "C");
    s.define("lc_messages", "C");
    s.define("lc_monetary", "C");
    s.define("lc_numeric", "C");
    s.define("lc_time", "C");
    s.define("client_min_messages", "notice");
    s.define("geqo", "on");
    s.define("jit", "off");
    return s;
  }

  private void define(String name, String value) {
    String key = key(name);
    names.put(key, name);
    values.put(key, value);
    defaults.put(key, value);
  }

  private static String key(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  /** The value of setting {@code name}, or empty if it was never set nor has a default. */
  public Optional<String> get(String name) {
    return Optional.ofNullable(values.get(key(name)));
  }

  /** Whether {@code name} is a setting this connection knows (PostgreSQL's or one set). */
  public boolean knows(String name) {
    return values.containsKey(key(name));
  }

  /** How many digits beyond the shortest exact form floats are shown with (PostgreSQL's -15..3). */
  public int extraFloatDigits() {
    try {
      return Math.max(-15, Math.min(3, Integer.parseInt(values.get("extra_float_digits").trim())));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  /**
   * {@code statement_timeout} in milliseconds, 0 for none: a number is milliseconds, as in
   * PostgreSQL, or a number with a unit ({@code 500ms}, {@code 5s}, {@code 1min}, {@code 1h},
   * {@code 1d}).
   */
  public long statementTimeoutMillis() {
    return millis(values.get("statement_timeout"));
  }

  private static long millis(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    int unitAt = 0;
    while (unitAt < v.length()
        && (Character.isDigit(v.charAt(unitAt)) || v.charAt(unitAt) == '.')) {
      unitAt++;
    }
    double number = Double.parseDouble(v.substring(0, unitAt));
    long factor = switch (v.substring(unitAt).trim()) {
      case "", "ms" -> 1L;
      case "s" -> 1_000L;
      case "min" -> 60_000L;
      case "h" -> 3_600_000L;
      case "d" -> 86_400_000L;
      default -> throw new NumberFormatException(value);
    };
    return (long) (number * factor);
  }

  /** The time zone values of {@code timestamptz} are shown in. */
  public java.time.ZoneId zone() {
    return TimeZones.zoneOf(values.get("timezone"));
  }

  /**
   * Sets {@code name} to {@code value}.
   *
   * @return whether the client must be told ({@code ParameterStatus}): a reported setting changed
   * @throws SettingException 55P02 for a read-only setting, 22023 for a value Freshet cannot take
   */
  public boolean set(String name, String value) throws SettingException {
    String key = key(name);
    requireNonNull(value, "value");
    if (READ_ONLY.contains(key)) {
      if (value.equalsIgnoreCase(values.get(key))) {
        return false;
      }
      throw new SettingException("55P02", "Parameter \"" + name + "\" cannot be changed. It is"
          + " a fact of the server, shown by SHOW " + name);
    }
    String checked = check(key, value);
    names.putIfAbsent(key, name);
    String before = values.put(key, checked);
    return REPORTED.contains(key) && !checked.equals(before);
  }

  /**
   * Sets {@code name} back to its default; a setting without one is removed.
   *
   * @return whether the client must be told ({@code ParameterStatus})
   */
  public boolean reset(String name) throws SettingException {
    String key = key(name);
    if (READ_ONLY.contains(key)) {
      return false;
    }
    String value = defaults.get(key);
    if (value == null) {
      values.remove(key);
      names.remove(key);
      return false;
    }
    String before = values.put(key, value);
    return REPORTED.contains(key) && !value.equals(before);
  }

  /** Every setting back to its default; returns the reported ones that changed. */
  public List<String> resetAll() throws SettingException {
    List<String> changed = new ArrayList<>();
    for (String key : new ArrayList<>(values.keySet())) {
      String shown = names.get(key);
      if (reset(key)) {
        changed.add(shown);
      }
    }
    return changed;
  }

  /** The settings reported at start-up, each name as PostgreSQL spells it, with its value. */
  public Map<String, String> reported() {
    Map<String, String> reported = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (REPORTED.contains(e.getKey())) {
        reported.put(names.get(e.getKey()), e.getValue());
      }
    }
    return reported;
  }

  /** Every setting, each name as PostgreSQL spells it, with its value ({@code SHOW ALL}). */
  public Map<String, String> all() {
    Map<String, String> all = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : values.entrySet()) {
      all.put(names.get(e.getKey()), e.getValue());
    }
    return all;
  }

  /** How PostgreSQL spells setting {@code name} ({@code datestyle} is {@code DateStyle}). */
  public String spelling(String name) {
    return names.getOrDefault(key(name), name);
  }

  /** The value to keep for {@code value} of setting {@code key}, or the refusal. */
  private static String check(String key, String value) throws SettingException {
    switch (key) {
    case "client_encoding": {
      String v = value.replace("-", "").replace("_", "").toUpperCase(Locale.ROOT);
      if (v.equals("SQLASCII")) {
        // What psql asks for in the C locale: bytes passed through, which UTF-8 text is.
        return "SQL_ASCII";
      }
      if (!v.equals("UTF8") && !v.equals("UNICODE")) {
        throw new SettingException("22023", "Freshet speaks UTF8 only, not client encoding "
            + value + ". Set client_encoding to UTF8 (psql: \\encoding UTF8)");
      }
      return "UTF8";
    }
    case "datestyle": {
      // Dates and timestamps are written in ISO form; the order part is kept as shown.
      String v = value.toUpperCase(Locale.ROOT);
      if (!v.contains("ISO") && !v.contains("MDY") && !v.contains("DMY") && !v.contains("YMD")) {
        throw new SettingException("22023", "Freshet writes dates in ISO form only, not "
            + value + ". Set DateStyle to ISO");
      }
      return "ISO, " + (v.contains("DMY") ? "DMY" : v.contains("YMD") ? "YMD" : "MDY");
    }
    case "extra_float_digits": {
      try {
        int digits = Integer.parseInt(value.trim());
        if (digits < -15 || digits > 3) {
          throw new NumberFormatException();
        }
        return Integer.toString(digits);
      } catch (NumberFormatException e) {
        throw new SettingException("22023", value + " is outside the valid range for parameter"
            + " \"extra_float_digits\" (-15 .. 3). Set a whole number in that range");
      }
    }
    case "timezone":
      return TimeZones.check(value);
    case "statement_timeout":
      try {
        if (millis(value) < 0) {
          throw new NumberFormatException(value);
        }
        return value.trim();
      } catch (NumberFormatException e) {
        throw new SettingException("22023", "Invalid value for parameter"
            + " \"statement_timeout\": \""
            + value + "\". Set milliseconds, or a number with ms, s, min, h or d; 0 for none");
      }
    default:
      return value;
    }
  }
}
