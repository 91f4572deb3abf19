package dev.freshet.engine.options;

import dev.freshet.engine.errors.RecoverableSqlStates;
import dev.freshet.executor.runtime.RestartStrategy;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The restart policy of a view's or sink's query: its own {@code 'restart.max-attempts'} and
 * {@code 'restart.backoff'} from {@code WITH (...)}, else the session's options of the same
 * names. A query that fails with a recoverable error (a database or broker that is away, see
 * {@link dev.freshet.executor.runtime.RecoverableFailures} and {@link RecoverableSqlStates})
 * restarts from its checkpoint after the backoff, doubling up to a minute, at most that many
 * times in a row.
 *
 * <pre>{@code
 * // CREATE SINK s WITH ('connector' = 'jdbc', ..., 'restart.max-attempts' = '3',
 * //     'restart.backoff' = '500 ms') AS ...
 * RestartStrategy s = RestartOptions.of(with, session);   // 3 attempts, 500 ms, 1 s, 2 s
 * Map<String, String> rest = RestartOptions.without(with);   // the connector's options
 * }</pre>
 */
public final class RestartOptions {
  /** Restarts in a row before the query fails for good. */
  public static final String MAX_ATTEMPTS = "restart.max-attempts";
  /** The wait before the first restart. */
  public static final String BACKOFF = "restart.backoff";

  private RestartOptions() {
  }

  /** Whether {@code key} (any case) is one of the restart options. */
  public static boolean isRestartOption(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.equals(MAX_ATTEMPTS) || k.equals(BACKOFF);
  }

  /**
   * The strategy {@code options} give (keys in any case), each option missing there taken from
   * {@code session}.
   *
   * @throws SQLException (42000) naming the option if a value is not valid
   */
  public static RestartStrategy of(Map<String, String> options, SessionOptions session)
      throws SQLException {
    int attempts = session.get(SessionOption.RESTART_MAX_ATTEMPTS);
    java.time.Duration backoff = session.get(SessionOption.RESTART_BACKOFF);
    for (Map.Entry<String, String> option : options.entrySet()) {
      String key = option.getKey().toLowerCase(Locale.ROOT);
      if (key.equals(MAX_ATTEMPTS)) {
        attempts = SessionOption.RESTART_MAX_ATTEMPTS.parse(option.getValue());
      } else if (key.equals(BACKOFF)) {
        backoff = SessionOption.RESTART_BACKOFF.parse(option.getValue());
      }
    }
    return RestartStrategy.exponentialDelay(attempts, backoff)
        .alsoRestartingAfter(RecoverableSqlStates::isRecoverable);
  }

  /** {@code options} without the restart options, in their order. */
  public static Map<String, String> without(Map<String, String> options) {
    Map<String, String> rest = new LinkedHashMap<>();
    options.forEach((k, v) -> {
      if (!isRestartOption(k)) {
        rest.put(k, v);
      }
    });
    return rest;
  }
}
