package dev.freshet.engine;

import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.engine.options.SessionOption;
import dev.freshet.executor.source.StreamRetention;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The retention options of a memory stream: {@code 'retention'} (how long log segments are kept
 * once every durable reader has committed past them), {@code 'memory.max'} (the most bytes of
 * rows the stream keeps in memory) and {@code 'segment.size'} (where log segments roll).
 *
 * <pre>{@code
 * CREATE STREAM clicks (...) WITH ('retention' = '1 h', 'memory.max' = '64 MB')
 * StreamRetentionOptions.of("CLICKS", options);   // StreamRetention[..., PT1H, 67108864]
 * }</pre>
 */
final class StreamRetentionOptions {
  /** How long a log segment is kept after every durable reader committed past it. */
  static final String RETENTION = "retention";
  /** The most bytes (estimated) of rows kept in memory. */
  static final String MEMORY_MAX = "memory.max";
  /** The size at which a log segment is full. */
  static final String SEGMENT_SIZE = "segment.size";
  /** The options, as the memory connector lists them. */
  static final List<String> OPTIONS = List.of(RETENTION, MEMORY_MAX, SEGMENT_SIZE);

  private static final Pattern DURATION = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([a-z]*)\\s*");
  private static final Map<String, Long> UNIT_MILLIS = Map.ofEntries(
      Map.entry("ms", 1L), Map.entry("s", 1000L), Map.entry("sec", 1000L),
      Map.entry("second", 1000L), Map.entry("seconds", 1000L),
      Map.entry("min", 60_000L), Map.entry("minute", 60_000L), Map.entry("minutes", 60_000L),
      Map.entry("h", 3_600_000L), Map.entry("hour", 3_600_000L), Map.entry("hours", 3_600_000L),
      Map.entry("d", 86_400_000L), Map.entry("day", 86_400_000L),
      Map.entry("days", 86_400_000L));

  private StreamRetentionOptions() {
  }

  /**
   * The retention that {@code options} (keys in lower case) give, the defaults where absent.
   *
   * @throws SQLException (42000) naming the option if a value is not one
   */
  static StreamRetention of(String stream, Map<String, String> options) throws SQLException {
    StreamRetention retention = StreamRetention.defaults();
    String text = options.get(RETENTION);
    if (text != null) {
      retention = retention.withRetention(duration(stream, text));
    }
    text = options.get(MEMORY_MAX);
    if (text != null) {
      retention = retention.withMemoryMax(SessionOption.bytes(MEMORY_MAX, text));
    }
    text = options.get(SEGMENT_SIZE);
    if (text != null) {
      long bytes = SessionOption.bytes(SEGMENT_SIZE, text);
      if (bytes == Long.MAX_VALUE) {
        throw StreamErrors.badStreamOption(stream, SEGMENT_SIZE, text, "an amount of bytes"
            + " such as '64 MB'", null);
      }
      retention = retention.withSegmentBytes(bytes);
    }
    return retention;
  }

  /** {@code '7 days'}, {@code '1 h'}, {@code '30 min'}, {@code '0'}. */
  private static Duration duration(String stream, String value) throws SQLException {
    Matcher m = DURATION.matcher(value.toLowerCase(Locale.ROOT));
    if (m.matches()) {
      BigDecimal amount = new BigDecimal(m.group(1));
      Long unit = m.group(2).isEmpty() && amount.signum() == 0 ? Long.valueOf(1)
          : UNIT_MILLIS.get(m.group(2));
      if (unit != null) {
        return Duration.ofMillis(amount.multiply(BigDecimal.valueOf(unit)).longValue());
      }
    }
    throw StreamErrors.badStreamOption(stream, RETENTION, value, "a duration such as '1 h',"
        + " '7 days', '30 min' or '0'", null);
  }
}
