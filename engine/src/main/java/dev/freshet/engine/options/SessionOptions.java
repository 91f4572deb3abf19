package dev.freshet.engine.options;

import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.runtime.Trigger;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The options of one session, as {@code SET 'key' = 'value'} and {@code RESET 'key'} change them.
 *
 * <pre>{@code
 * options.set("trigger.interval", "500 ms");   // triggerInterval() = PT0.5S
 * options.set("trigger.interval", null);       // RESET: back to Duration.ZERO
 * }</pre>
 *
 * <p>Mutable; the fields are volatile because a JDBC connection may run its statements on
 * different threads. Each option applies to the continuous queries the session starts afterwards,
 * not to those running.
 */
public final class SessionOptions {
  /** Number of state partitions of the aggregations of new continuous queries; default 1. */
  public static final String STATE_PARTITIONS = "state.partitions";
  /** Time between the starts of micro-batches; {@code 0}, the default, starts each on new data. */
  public static final String TRIGGER_INTERVAL = "trigger.interval";
  /**
   * Where state is kept: {@code memory} (versions in memory, with delta and snapshot files in the
   * checkpoint when the engine has a data directory) or {@code mvstore} (H2's MVStore on disk, for
   * state larger than the heap).
   */
  public static final String STATE_STORE_PROVIDER = "state.store.provider";
  /**
   * When batches run, as Spark's triggers: {@code processing-time} (the default: batches go on,
   * paced by {@link #TRIGGER_INTERVAL}), {@code once} (one batch over the data there at start,
   * then the query stops) or {@code available-now} (batches until the data there at start is
   * processed, then the query stops).
   */
  static final String TRIGGER = "trigger";
  /**
   * How many batches before the latest a checkpoint keeps in its offset and commit logs, and the
   * state versions it keeps loadable (Spark's {@code spark.sql.streaming.minBatchesToRetain});
   * default 100.
   */
  static final String MIN_BATCHES_TO_RETAIN = "min.batches.to.retain";
  /**
   * Whether each batch of a push query ends with a marker row ({@code _ROW_KIND = 'BATCH_END'}),
   * also a batch that changed nothing; {@code true} or {@code false}, the default.
   */
  static final String PUSH_BATCH_MARKERS = "push.batch.markers";
  /**
   * How many unread rows a push query whose rows never change (APPEND) keeps for a slow reader
   * before it fails; default 100000. UPDATE and COMPLETE results coalesce instead.
   */
  public static final String PUSH_BUFFER_ROWS = "push.buffer.rows";
  /** Every option, sorted, as error messages list them. */
  static final List<String> KEYS = List.of(MIN_BATCHES_TO_RETAIN, PUSH_BATCH_MARKERS,
      PUSH_BUFFER_ROWS, STATE_PARTITIONS,
      STATE_STORE_PROVIDER, TRIGGER, TRIGGER_INTERVAL);
  /** The values of {@link #TRIGGER}. */
  static final List<String> TRIGGERS = List.of("processing-time", "once", "available-now");
  private static final int DEFAULT_MIN_BATCHES_TO_RETAIN = 100;
  static final int DEFAULT_PUSH_BUFFER_ROWS = 100_000;
  /** The values of {@link #STATE_STORE_PROVIDER}. */
  static final List<String> STATE_STORE_PROVIDERS = List.of("memory", "mvstore");

  /** An amount and an optional unit: {@code 1 second}, {@code 500ms}, {@code 0}. */
  private static final Pattern DURATION =
      Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([a-z]*)\\s*");
  /** Milliseconds per unit, by every spelling that Spark's trigger intervals accept. */
  private static final Map<String, Long> UNIT_MILLIS = Map.ofEntries(
      Map.entry("ms", 1L), Map.entry("milli", 1L), Map.entry("millis", 1L),
      Map.entry("millisecond", 1L), Map.entry("milliseconds", 1L),
      Map.entry("s", 1000L), Map.entry("sec", 1000L), Map.entry("secs", 1000L),
      Map.entry("second", 1000L), Map.entry("seconds", 1000L),
      Map.entry("min", 60_000L), Map.entry("mins", 60_000L), Map.entry("minute", 60_000L),
      Map.entry("minutes", 60_000L),
      Map.entry("h", 3_600_000L), Map.entry("hour", 3_600_000L),
      Map.entry("hours", 3_600_000L));

  /** A day: a longer interval is a mistake, not a schedule. */
  private static final BigDecimal MAX_TRIGGER_MILLIS = BigDecimal.valueOf(86_400_000L);

  private volatile int statePartitions = 1;
  private volatile Duration triggerInterval = Duration.ZERO;
  private volatile String stateStoreProvider = "memory";
  private volatile String trigger = "processing-time";
  private volatile int minBatchesToRetain = DEFAULT_MIN_BATCHES_TO_RETAIN;
  private volatile boolean pushBatchMarkers;
  private volatile int pushBufferRows = DEFAULT_PUSH_BUFFER_ROWS;

  public boolean pushBatchMarkers() {
    return pushBatchMarkers;
  }

  public int pushBufferRows() {
    return pushBufferRows;
  }

  public int statePartitions() {
    return statePartitions;
  }

  public Duration triggerInterval() {
    return triggerInterval;
  }

  /** The trigger of the continuous queries this session starts. */
  public Trigger trigger() {
    switch (trigger) {
    case "once":
      return Trigger.ONCE;
    case "available-now":
      return Trigger.AVAILABLE_NOW;
    default:
      return Trigger.processingTime(triggerInterval.toMillis());
    }
  }

  /** How many batches before the latest the checkpoints of new queries keep. */
  public int minBatchesToRetain() {
    return minBatchesToRetain;
  }

  /**
   * Every option as {@code SET} would give it, so that {@link #set} of each restores them: a
   * materialized view keeps the options it was created with across restarts.
   */
  public Map<String, String> values() {
    Map<String, String> values = new LinkedHashMap<>();
    values.put(MIN_BATCHES_TO_RETAIN, Integer.toString(minBatchesToRetain));
    values.put(STATE_PARTITIONS, Integer.toString(statePartitions));
    values.put(STATE_STORE_PROVIDER, stateStoreProvider);
    values.put(TRIGGER, trigger);
    values.put(TRIGGER_INTERVAL, triggerInterval.toMillis() + " ms");
    return values;
  }

  public String stateStoreProvider() {
    return stateStoreProvider;
  }

  /**
   * Sets option {@code key} (any case) to {@code value}, or back to its default if {@code value}
   * is null ({@code RESET}).
   *
   * @throws SQLException if the key is unknown or the value not valid for it; nothing changes
   */
  public void set(String key, @Nullable String value) throws SQLException {
    switch (key.toLowerCase(Locale.ROOT)) {
    case STATE_PARTITIONS:
      statePartitions = value == null ? 1 : statePartitions(value);
      break;
    case TRIGGER_INTERVAL:
      triggerInterval = value == null ? Duration.ZERO : triggerInterval(value);
      break;
    case STATE_STORE_PROVIDER:
      stateStoreProvider = value == null ? "memory" : stateStoreProvider(value);
      break;
    case TRIGGER:
      trigger = value == null ? "processing-time" : oneOf(TRIGGER, TRIGGERS, value);
      break;
    case MIN_BATCHES_TO_RETAIN:
      minBatchesToRetain = value == null ? DEFAULT_MIN_BATCHES_TO_RETAIN
          : integer(MIN_BATCHES_TO_RETAIN, value, 1, 1_000_000);
      break;
    case PUSH_BATCH_MARKERS:
      pushBatchMarkers = value != null
          && Boolean.parseBoolean(oneOf(PUSH_BATCH_MARKERS, List.of("true", "false"), value));
      break;
    case PUSH_BUFFER_ROWS:
      pushBufferRows = value == null ? DEFAULT_PUSH_BUFFER_ROWS
          : integer(PUSH_BUFFER_ROWS, value, 1, 100_000_000);
      break;
    default:
      throw Errors.invalidDefinition("Unknown option '" + key + "'. Options: "
          + String.join(", ", KEYS));
    }
  }

  private static int statePartitions(String value) throws SQLException {
    return integer(STATE_PARTITIONS, value, 1, 1024);
  }

  private static int integer(String key, String value, int min, int max) throws SQLException {
    int n;
    try {
      n = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      n = min - 1;
    }
    if (n < min || n > max) {
      throw Errors.invalidDefinition("Option '" + key + "' must be an integer from " + min
          + " to " + max + ", not '" + value + "'");
    }
    return n;
  }

  private static String oneOf(String key, List<String> allowed, String value)
      throws SQLException {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (!allowed.contains(v)) {
      throw Errors.invalidDefinition("Option '" + key + "' must be one of: "
          + String.join(", ", allowed) + "; not '" + value + "'");
    }
    return v;
  }

  /** Parses {@code '1 second'}, {@code '500 ms'}, {@code '1.5 s'} or {@code '0'}. */
  public static Duration triggerInterval(String value) throws SQLException {
    Matcher m = DURATION.matcher(value.toLowerCase(Locale.ROOT));
    BigDecimal amount = m.matches() ? new BigDecimal(m.group(1)) : null;
    Long unit = m.matches() ? UNIT_MILLIS.get(m.group(2)) : null;
    if (amount != null && unit == null && m.group(2).isEmpty() && amount.signum() == 0) {
      unit = 1L;
    }
    if (amount == null || unit == null) {
      throw Errors.invalidDefinition("Option '" + TRIGGER_INTERVAL + "' must be a"
          + " duration such as '1 second', '500 ms' or '2 minutes', or '0' to start each batch"
          + " as soon as data arrives; not '" + value + "'");
    }
    BigDecimal millis = amount.multiply(BigDecimal.valueOf(unit));
    if (millis.stripTrailingZeros().scale() > 0 || millis.compareTo(MAX_TRIGGER_MILLIS) > 0) {
      throw Errors.invalidDefinition("Option '" + TRIGGER_INTERVAL + "' must be a whole"
          + " number of milliseconds up to a day, not '" + value + "'");
    }
    return Duration.ofMillis(millis.longValueExact());
  }

  private static String stateStoreProvider(String value) throws SQLException {
    return oneOf(STATE_STORE_PROVIDER, STATE_STORE_PROVIDERS, value);
  }
}
