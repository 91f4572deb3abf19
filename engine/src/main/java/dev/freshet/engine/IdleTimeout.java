package dev.freshet.engine;

import dev.freshet.engine.errors.Errors;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The value of a stream's {@code 'watermark.idle-timeout'}: how long the stream may go without a
 * row before its watermark follows the clock (processing time minus the watermark's delay), so
 * that the windows it holds back close when the data stops. {@code '0'} turns it off, as not
 * giving the option does.
 *
 * <pre>{@code
 * IdleTimeout.parseMillis("SENSORS", "30 s");        // 30000
 * IdleTimeout.parseMillis("SENSORS", "2 minutes");   // 120000
 * }</pre>
 */
final class IdleTimeout {
  /** An amount and a unit: {@code 30 s}, {@code 1.5 seconds}, {@code 500 ms}. */
  private static final Pattern DURATION = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([a-z]*)\\s*");
  /** Milliseconds per unit, by the spellings that trigger intervals accept. */
  private static final Map<String, Long> UNIT_MILLIS = Map.ofEntries(
      Map.entry("ms", 1L), Map.entry("millis", 1L), Map.entry("milliseconds", 1L),
      Map.entry("s", 1000L), Map.entry("sec", 1000L), Map.entry("secs", 1000L),
      Map.entry("second", 1000L), Map.entry("seconds", 1000L),
      Map.entry("min", 60_000L), Map.entry("mins", 60_000L), Map.entry("minute", 60_000L),
      Map.entry("minutes", 60_000L),
      Map.entry("h", 3_600_000L), Map.entry("hour", 3_600_000L), Map.entry("hours", 3_600_000L));
  /** A week: a longer timeout is a mistake of unit rather than a wish. */
  private static final BigDecimal MAX_MILLIS = BigDecimal.valueOf(7L * 24 * 3_600_000);

  private IdleTimeout() {
  }

  /**
   * The timeout in milliseconds, 0 for off.
   *
   * @throws SQLException (42000) if {@code value} is not such a duration
   */
  static long parseMillis(String stream, String value) throws SQLException {
    Matcher m = DURATION.matcher(value.toLowerCase(Locale.ROOT));
    BigDecimal amount = m.matches() ? new BigDecimal(m.group(1)) : null;
    Long unit = amount == null ? null
        : m.group(2).isEmpty() && amount.signum() == 0 ? Long.valueOf(1)
        : UNIT_MILLIS.get(m.group(2));
    BigDecimal millis = unit == null ? null : amount.multiply(BigDecimal.valueOf(unit));
    if (millis == null || millis.stripTrailingZeros().scale() > 0
        || millis.compareTo(MAX_MILLIS) > 0) {
      throw Errors.invalidDefinition("Option '" + StreamDdl.IDLE_TIMEOUT_OPTION + "' of stream "
          + stream + " must be a whole number of milliseconds up to 7 days with a unit, such as"
          + " '30 s', '500 ms' or '5 minutes', or '0' for none; not '" + value + "'");
    }
    return millis.longValueExact();
  }
}
