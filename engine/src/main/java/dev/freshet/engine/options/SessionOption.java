package dev.freshet.engine.options;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.limits.HeapBudgets;
import dev.freshet.planner.FreshetPlanner;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One option of {@code SET 'key' = 'value'}: its key, its default, and how its text becomes a
 * typed value. Every check of an option's value is here, so the rest of the engine only sees
 * values of the option's type.
 *
 * <pre>{@code
 * Duration d = SessionOption.TRIGGER_INTERVAL.parse("500 ms");   // PT0.5S
 * SessionOption.TRIGGER_INTERVAL.text(d);                        // "500 ms"
 * SessionOption.of("State.Partitions");                          // STATE_PARTITIONS
 * }</pre>
 *
 * @param <T> the type of the option's values
 */
public final class SessionOption<T> {
  /** Turns an option's text into its value, or fails with a message naming the option. */
  @FunctionalInterface
  private interface Parser<T> {
    T parse(String key, String text) throws SQLException;
  }

  /**
   * The most windows a HOP window may put one row in, {@code ceil(size / slide)}; a query with
   * more is refused when it is planned (54000). Default
   * {@value FreshetPlanner#DEFAULT_MAX_WINDOWS_PER_ROW}.
   */
  public static final SessionOption<Integer> MAX_WINDOWS_PER_ROW = integer(
      "max.windows.per.row", FreshetPlanner.DEFAULT_MAX_WINDOWS_PER_ROW, 1, 100_000_000);
  /**
   * How many batches before the latest a checkpoint keeps in its offset and commit logs, and the
   * state versions it keeps loadable (Spark's {@code spark.sql.streaming.minBatchesToRetain});
   * default 100.
   */
  public static final SessionOption<Integer> MIN_BATCHES_TO_RETAIN =
      integer("min.batches.to.retain", 100, 1, 1_000_000);
  /**
   * What a continuous query does with a row whose expressions fail (a division by zero, a failed
   * cast): {@link RowErrorPolicy#FAIL}, the default, fails the query as Spark does;
   * {@link RowErrorPolicy#SKIP} drops the row and counts it in the query's progress.
   */
  public static final SessionOption<RowErrorPolicy> ON_ERROR = choice("on.error",
      RowErrorPolicy.FAIL, RowErrorPolicy.values(), RowErrorPolicy::text);
  /**
   * The most memory one continuous query's state and batch may take, by an estimate from their
   * counts of groups and rows; a query that needs more fails (53200) and the others go on.
   * Bytes, or with a unit ({@code '64 MB'}, {@code '512 KB'}, {@code '2 GB'}), or
   * {@code unlimited}, where only the engine's budget applies; default 40% of the JVM's
   * maximum heap ({@link HeapBudgets#queryDefault()}). Plain queries count too: the rows they
   * read from streams and the rows of their result.
   */
  public static final SessionOption<Long> QUERY_MEMORY_BUDGET = new SessionOption<>(
      "query.memory.budget", HeapBudgets.queryDefault(), SessionOption::bytes,
      SessionOption::bytesText);
  /**
   * The most rows a plain query's result may hold; one more fails the statement (54000) instead
   * of filling the server's memory, e.g. with a join of two large streams. Default 10000000.
   */
  public static final SessionOption<Integer> PULL_MAX_ROWS =
      integer("pull.max.rows", 10_000_000, 1, Integer.MAX_VALUE);
  /**
   * Whether each batch of a push query ends with a marker row ({@code _ROW_KIND = 'BATCH_END'}),
   * also a batch that changed nothing; {@code true} or {@code false}, the default.
   */
  public static final SessionOption<Boolean> PUSH_BATCH_MARKERS = new SessionOption<>(
      "push.batch.markers", false,
      (key, text) -> Boolean.parseBoolean(oneOf(key, List.of("true", "false"), text)),
      String::valueOf);
  /**
   * How many unread rows a push query whose rows never change (APPEND) keeps for a slow reader
   * before it fails; default 100000. UPDATE and COMPLETE results coalesce instead.
   */
  public static final SessionOption<Integer> PUSH_BUFFER_ROWS =
      integer("push.buffer.rows", 100_000, 1, 100_000_000);
  /**
   * How many times in a row a continuous query that failed with a recoverable error (its sink's
   * or source's database or broker away) is restarted from its checkpoint before it fails for
   * good; {@code 0} fails at the first error. Default 10. A view or sink may set its own in
   * {@code WITH ('restart.max-attempts' = '...')}. See {@link RestartOptions}.
   */
  public static final SessionOption<Integer> RESTART_MAX_ATTEMPTS =
      integer(RestartOptions.MAX_ATTEMPTS, 10, 0, 1_000_000);
  /**
   * The wait before the first restart of a continuous query that failed with a recoverable
   * error; each further one waits twice as long, up to a minute (or this, if longer). Default
   * {@code 1 s}.
   */
  public static final SessionOption<Duration> RESTART_BACKOFF = new SessionOption<>(
      RestartOptions.BACKOFF, Duration.ofSeconds(1),
      (key, text) -> duration(key, text, "'0' to restart at once"), d -> d.toMillis() + " ms");
  /** Number of state partitions of the aggregations of new continuous queries; default 1. */
  public static final SessionOption<Integer> STATE_PARTITIONS =
      integer("state.partitions", 1, 1, 1024);
  /**
   * The state TTL of the push queries, views and sinks created from now on that do not give
   * their own ({@code WITH ('state.ttl' = ...)}): a key of a stateful operator that no batch
   * wrote for that long (processing time) is dropped, and a later row of it starts afresh
   * (Flink's {@code table.exec.state.ttl}). {@code '1 h'}, {@code '30 min'}, {@code '7 days'};
   * {@code '0'}, the default, keeps keys until the watermark evicts them, or forever.
   */
  public static final SessionOption<Duration> STATE_TTL = new SessionOption<>("state.ttl",
      Duration.ZERO, SessionOption::stateTtl, SessionOption::stateTtlText);
  /** Where state is kept; {@link StateStoreProviderKind#MEMORY} by default. */
  public static final SessionOption<StateStoreProviderKind> STATE_STORE_PROVIDER = choice(
      "state.store.provider", StateStoreProviderKind.MEMORY, StateStoreProviderKind.values(),
      StateStoreProviderKind::text);
  /** When batches run; {@link TriggerKind#PROCESSING_TIME} by default. */
  public static final SessionOption<TriggerKind> TRIGGER = choice("trigger",
      TriggerKind.PROCESSING_TIME, TriggerKind.values(), TriggerKind::text);
  /** Time between the starts of micro-batches; {@code 0}, the default, starts each on new data. */
  public static final SessionOption<Duration> TRIGGER_INTERVAL = new SessionOption<>(
      "trigger.interval", Duration.ZERO,
      (key, text) -> duration(key, text, "'0' to start each batch as soon as data arrives"),
      d -> d.toMillis() + " ms");

  /** Every option, sorted by key, as error messages list them. */
  static final List<SessionOption<?>> ALL = List.of(MAX_WINDOWS_PER_ROW, MIN_BATCHES_TO_RETAIN,
      ON_ERROR, PULL_MAX_ROWS, PUSH_BATCH_MARKERS, PUSH_BUFFER_ROWS, QUERY_MEMORY_BUDGET,
      RESTART_BACKOFF, RESTART_MAX_ATTEMPTS, STATE_PARTITIONS,
      STATE_STORE_PROVIDER, STATE_TTL, TRIGGER, TRIGGER_INTERVAL);

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
  /** An amount of bytes and an optional unit: {@code 1048576}, {@code 64 MB}, {@code 1.5gb}. */
  private static final Pattern BYTES =
      Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([a-z]*)\\s*");
  /** Bytes per unit, powers of 1024 as the JVM's -Xmx counts them. */
  private static final Map<String, Long> UNIT_BYTES = Map.of("", 1L, "b", 1L, "kb", 1L << 10,
      "k", 1L << 10, "mb", 1L << 20, "m", 1L << 20, "gb", 1L << 30, "g", 1L << 30);
  /** A day: a longer interval is a mistake, not a schedule. */
  private static final BigDecimal MAX_TRIGGER_MILLIS = BigDecimal.valueOf(86_400_000L);

  private final String key;
  private final T defaultValue;
  private final Parser<T> parser;
  private final Function<T, String> text;

  private SessionOption(String key, T defaultValue, Parser<T> parser, Function<T, String> text) {
    this.key = requireNonNull(key, "key");
    this.defaultValue = requireNonNull(defaultValue, "defaultValue");
    this.parser = requireNonNull(parser, "parser");
    this.text = requireNonNull(text, "text");
  }

  /** The option with key {@code key}, in any case, if there is one. */
  public static Optional<SessionOption<?>> of(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return ALL.stream().filter(option -> option.key.equals(k)).findFirst();
  }

  /** The key, in lower case, e.g. {@code trigger.interval}. */
  public String key() {
    return key;
  }

  /** The value of a session that did not set the option, or reset it. */
  public T defaultValue() {
    return defaultValue;
  }

  /**
   * The value {@code text} sets.
   *
   * @throws SQLException (42000) saying which values the option takes, if {@code text} is not
   *     one of them
   */
  public T parse(String text) throws SQLException {
    return parser.parse(key, text);
  }

  /** {@code value} as {@link #parse} reads it back. */
  public String text(T value) {
    return text.apply(value);
  }

  @Override public String toString() {
    return key;
  }

  private static SessionOption<Integer> integer(String key, int defaultValue, int min,
      int max) {
    return new SessionOption<>(key, defaultValue, (k, text) -> integer(k, text, min, max),
        String::valueOf);
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

  /** An option whose values are {@code values}, spelled as {@code text} gives them. */
  private static <E extends Enum<E>> SessionOption<E> choice(String key, E defaultValue,
      E[] values, Function<E, String> text) {
    List<String> texts = new ArrayList<>();
    for (E value : values) {
      texts.add(text.apply(value));
    }
    return new SessionOption<>(key, defaultValue,
        (k, t) -> values[texts.indexOf(oneOf(k, texts, t))], text);
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

  /**
   * Parses an amount of memory: {@code 'unlimited'}, or bytes with an optional unit
   * ({@code '64 MB'}, {@code '512kb'}, {@code '1073741824'}).
   *
   * @param key the option or property, for the error
   * @return bytes, at least 1; {@link Long#MAX_VALUE} for unlimited
   * @throws SQLException (42000) naming {@code key} if {@code value} is not such an amount
   */
  public static long bytes(String key, String value) throws SQLException {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("unlimited")) {
      return Long.MAX_VALUE;
    }
    Matcher m = BYTES.matcher(v);
    Long unit = m.matches() ? UNIT_BYTES.get(m.group(2)) : null;
    BigDecimal bytes = unit == null ? null
        : new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
    if (bytes == null || bytes.compareTo(BigDecimal.ONE) < 0
        || bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) >= 0) {
      throw Errors.invalidDefinition("Option '" + key + "' must be an amount of memory such as"
          + " '64 MB', '512 KB', '2 GB' or a number of bytes, or 'unlimited'; not '" + value
          + "'");
    }
    return bytes.longValue();
  }

  /** Bytes as {@link #bytes} reads them back: whole MB or KB where exact. */
  public static String bytesText(long bytes) {
    if (bytes == Long.MAX_VALUE) {
      return "unlimited";
    }
    if (bytes % (1L << 20) == 0) {
      return (bytes >> 20) + " MB";
    }
    return bytes % 1024 == 0 ? (bytes >> 10) + " KB" : Long.toString(bytes);
  }

  /** Milliseconds per unit of a state TTL: those of durations, and days. */
  private static final Map<String, Long> TTL_UNIT_MILLIS = ttlUnits();

  private static Map<String, Long> ttlUnits() {
    Map<String, Long> units = new java.util.HashMap<>(UNIT_MILLIS);
    units.put("d", 86_400_000L);
    units.put("day", 86_400_000L);
    units.put("days", 86_400_000L);
    units.put("hrs", 3_600_000L);
    return Map.copyOf(units);
  }

  /**
   * Parses a state TTL, the value of option {@code key} ({@code 'state.ttl'} of a session, a
   * view or a sink): {@code '1 h'}, {@code '2 s'}, {@code '7 days'}, {@code '500 ms'}, or
   * {@code '0'} for none.
   *
   * @return the TTL, {@link Duration#ZERO} for none
   * @throws SQLException (42000) naming {@code key} if {@code value} is not such a duration
   */
  public static Duration stateTtl(String key, String value) throws SQLException {
    Matcher m = DURATION.matcher(value.toLowerCase(Locale.ROOT));
    BigDecimal amount = m.matches() ? new BigDecimal(m.group(1)) : null;
    Long unit = m.matches() ? TTL_UNIT_MILLIS.get(m.group(2)) : null;
    if (amount != null && unit == null && m.group(2).isEmpty() && amount.signum() == 0) {
      unit = 1L;
    }
    BigDecimal millis = amount == null || unit == null ? null
        : amount.multiply(BigDecimal.valueOf(unit));
    if (millis == null || millis.stripTrailingZeros().scale() > 0
        || millis.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 4)) > 0) {
      throw Errors.invalidDefinition("Option '" + key + "' must be a state time-to-live such as"
          + " '1 h', '30 min', '7 days' or '500 ms' (a whole number of milliseconds), or '0' to"
          + " keep state until the watermark evicts it; not '" + value + "'");
    }
    return Duration.ofMillis(millis.longValueExact());
  }

  /** A state TTL as {@link #stateTtl} reads it back. */
  private static String stateTtlText(Duration ttl) {
    return ttl.isZero() ? "0" : ttl.toMillis() + " ms";
  }

  /**
   * Parses {@code '1 second'}, {@code '500 ms'}, {@code '1.5 s'} or {@code '0'}; {@code zero}
   * says what 0 means, for the error.
   */
  private static Duration duration(String key, String value, String zero) throws SQLException {
    Matcher m = DURATION.matcher(value.toLowerCase(Locale.ROOT));
    BigDecimal amount = m.matches() ? new BigDecimal(m.group(1)) : null;
    Long unit = m.matches() ? UNIT_MILLIS.get(m.group(2)) : null;
    if (amount != null && unit == null && m.group(2).isEmpty() && amount.signum() == 0) {
      unit = 1L;
    }
    if (amount == null || unit == null) {
      throw Errors.invalidDefinition("Option '" + key + "' must be a"
          + " duration such as '1 second', '500 ms' or '2 minutes', or " + zero + "; not '"
          + value + "'");
    }
    BigDecimal millis = amount.multiply(BigDecimal.valueOf(unit));
    if (millis.stripTrailingZeros().scale() > 0 || millis.compareTo(MAX_TRIGGER_MILLIS) > 0) {
      throw Errors.invalidDefinition("Option '" + key + "' must be a whole"
          + " number of milliseconds up to a day, not '" + value + "'");
    }
    return Duration.ofMillis(millis.longValueExact());
  }
}
