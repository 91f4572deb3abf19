package dev.freshet.engine.options;

import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.runtime.Trigger;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The options of one session, as {@code SET 'key' = 'value'} and {@code RESET 'key'} change them.
 * Each option is a {@link SessionOption}, which parses and checks its values; this holds the
 * session's.
 *
 * <pre>{@code
 * options.set("trigger.interval", "500 ms");            // triggerInterval() = PT0.5S
 * options.get(SessionOption.TRIGGER_INTERVAL);         // PT0.5S
 * options.set("trigger.interval", null);                // RESET: back to Duration.ZERO
 * }</pre>
 *
 * <p>Thread-safe: a JDBC connection may run its statements on different threads. Each option
 * applies to the continuous queries the session starts afterwards, not to those running.
 */
public final class SessionOptions {
  /**
   * The options a materialized view's query runs with, which the view keeps across restarts
   * ({@link #values()}); the push options concern a reader, which a view does not have.
   */
  private static final List<SessionOption<?>> VIEW_OPTIONS = List.of(
      SessionOption.MAX_WINDOWS_PER_ROW, SessionOption.MIN_BATCHES_TO_RETAIN,
      SessionOption.ON_ERROR, SessionOption.QUERY_MEMORY_BUDGET, SessionOption.STATE_PARTITIONS,
      SessionOption.STATE_STORE_PROVIDER, SessionOption.STATE_TTL, SessionOption.TRIGGER,
      SessionOption.TRIGGER_INTERVAL, SessionOption.RESTART_MAX_ATTEMPTS,
      SessionOption.RESTART_BACKOFF);

  /**
   * The values {@code SET} gave, each of its option's type; an option not here has its default.
   * Replaced whole by each change, so a reader on another thread sees one state or the other.
   */
  private volatile Map<SessionOption<?>, Object> values = Map.of();

  /** The session's value of {@code option}. */
  @SuppressWarnings("unchecked")
  public <T> T get(SessionOption<T> option) {
    // Only option.parse(...) results are stored under option: of type T.
    Object value = values.get(option);
    return value == null ? option.defaultValue() : (T) value;
  }

  public boolean pushBatchMarkers() {
    return get(SessionOption.PUSH_BATCH_MARKERS);
  }

  public int pushBufferRows() {
    return get(SessionOption.PUSH_BUFFER_ROWS);
  }

  /** What the queries this session starts do with a row whose expressions fail. */
  public RowErrorPolicy onError() {
    return get(SessionOption.ON_ERROR);
  }

  /** The most rows a plain query's result may hold. */
  public int pullMaxRows() {
    return get(SessionOption.PULL_MAX_ROWS);
  }

  /** The most windows a HOP of a query this session plans may put one row in. */
  public int maxWindowsPerRow() {
    return get(SessionOption.MAX_WINDOWS_PER_ROW);
  }

  /** The memory budget of each continuous query this session starts, in bytes. */
  public long queryMemoryBudget() {
    return get(SessionOption.QUERY_MEMORY_BUDGET);
  }

  public int statePartitions() {
    return get(SessionOption.STATE_PARTITIONS);
  }

  public Duration triggerInterval() {
    return get(SessionOption.TRIGGER_INTERVAL);
  }

  /** The trigger of the continuous queries this session starts. */
  public Trigger trigger() {
    switch (get(SessionOption.TRIGGER)) {
    case ONCE:
      return Trigger.ONCE;
    case AVAILABLE_NOW:
      return Trigger.AVAILABLE_NOW;
    case PROCESSING_TIME:
    default:
      return Trigger.processingTime(triggerInterval().toMillis());
    }
  }

  /** How many batches before the latest the checkpoints of new queries keep. */
  public int minBatchesToRetain() {
    return get(SessionOption.MIN_BATCHES_TO_RETAIN);
  }

  /**
   * How the continuous queries this session starts are restarted after a recoverable error,
   * unless a view or sink sets its own ({@link RestartOptions}).
   */
  public dev.freshet.executor.runtime.RestartStrategy restartStrategy() {
    return dev.freshet.executor.runtime.RestartStrategy.exponentialDelay(
        get(SessionOption.RESTART_MAX_ATTEMPTS), get(SessionOption.RESTART_BACKOFF))
        .alsoRestartingAfter(dev.freshet.engine.errors.RecoverableSqlStates::isRecoverable);
  }

  /** The state TTL of new queries that give none, in ms; 0 for none. */
  public long stateTtlMs() {
    return get(SessionOption.STATE_TTL).toMillis();
  }

  public StateStoreProviderKind stateStoreProvider() {
    return get(SessionOption.STATE_STORE_PROVIDER);
  }

  /**
   * The options a view's query runs with, as {@code SET} would give them, so that {@link #set}
   * of each restores them: a materialized view keeps the options it was created with across
   * restarts.
   */
  public Map<String, String> values() {
    Map<String, String> texts = new LinkedHashMap<>();
    for (SessionOption<?> option : VIEW_OPTIONS) {
      texts.put(option.key(), text(option));
    }
    return texts;
  }

  private <T> String text(SessionOption<T> option) {
    return option.text(get(option));
  }

  /**
   * Sets option {@code key} (any case) to {@code value}, or back to its default if {@code value}
   * is null ({@code RESET}).
   *
   * @throws SQLException if the key is unknown or the value not valid for it; nothing changes
   */
  public synchronized void set(String key, @Nullable String value) throws SQLException {
    SessionOption<?> option = SessionOption.of(key).orElseThrow(() ->
        Errors.invalidDefinition("Unknown option '" + key + "'. Options: "
            + SessionOption.ALL.stream().map(SessionOption::key)
                .collect(Collectors.joining(", "))));
    Map<SessionOption<?>, Object> next = new HashMap<>(values);
    if (value == null) {
      next.remove(option);
    } else {
      next.put(option, option.parse(value));
    }
    values = Map.copyOf(next);
  }
}
