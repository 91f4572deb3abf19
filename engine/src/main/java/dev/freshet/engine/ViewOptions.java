package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.options.SessionOption;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.sql.parser.SqlCreateFreshetMaterializedView;
import dev.freshet.sql.parser.WithOption;
import dev.freshet.engine.options.RestartOptions;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.executor.runtime.RestartStrategy;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;

/**
 * The options of a {@code CREATE MATERIALIZED VIEW ... WITH (...)}, checked before the view is
 * planned: {@code engine}, the engine its query runs on, the restart policy
 * ({@code 'restart.max-attempts'}, {@code 'restart.backoff'}, see {@link RestartOptions}) and
 * {@code state.ttl}, its state's time-to-live ({@link SessionOption#STATE_TTL}; the session's
 * when not given).
 *
 * <pre>{@code
 * // CREATE MATERIALIZED VIEW v WITH ('engine' = 'Spark') AS SELECT ...
 * ViewOptions.of(create, engine.viewEngines()).engine();   // "spark"
 * }</pre>
 *
 * @param engine the engine's name, lower case: the view's own, or else the engines' default
 * @param restart the restart options the view gives, keys in lower case; the session's apply
 *     to the others
 * @param stateTtlMs the view's {@code 'state.ttl'} in ms (0 for none), or -1 if not given
 */
record ViewOptions(String engine, Map<String, String> restart, long stateTtlMs) {
  /** The option naming the engine; keys are matched ignoring case, as SQL's words are. */
  static final String ENGINE = "engine";
  /** Every option a view knows, as listed in errors. */
  static final List<String> KNOWN = List.of(ENGINE, RestartOptions.MAX_ATTEMPTS,
      RestartOptions.BACKOFF, SessionOption.STATE_TTL.key());
  /** An engine's name: the runner is looked up by it, so it is a plain word. */
  private static final Pattern ENGINE_NAME = Pattern.compile("[A-Za-z0-9-]+");

  ViewOptions {
    requireNonNull(engine, "engine");
    restart = Map.copyOf(restart);
  }

  /**
   * How the view's query restarts after a recoverable error: the view's own options, else
   * {@code session}'s.
   */
  RestartStrategy restartStrategy(SessionOptions session) throws SQLException {
    return RestartOptions.of(restart, session);
  }

  /** The view's state TTL in ms: its own, else the session's {@code 'state.ttl'}; 0 for none. */
  long stateTtlMs(SessionOptions session) {
    return stateTtlMs >= 0 ? stateTtlMs : session.stateTtlMs();
  }

  /**
   * The options of {@code create}, the engine defaulting to {@code defaults.defaultEngine()}.
   *
   * @throws SQLException (42000) for an unknown option, one given twice, or an engine name that
   *     is empty or not made of letters, digits and '-'
   */
  static ViewOptions of(SqlCreateMaterializedView create, ViewEngines defaults)
      throws SQLException {
    String view = StreamDdl.simpleName(create.name);
    if (create instanceof SqlCreateFreshetMaterializedView freshet) {
      for (WithOption option : freshet.optionEntries()) {
        if (option.secret().isPresent()) {
          throw Errors.of(SqlState.SYNTAX_ERROR, "Option '" + option.key() + "' of materialized"
              + " view " + view + " is SECRET " + option.secret().get() + ", but a view's"
              + " options are plain strings. Write it as a string, e.g. ('engine' = 'spark')");
        }
      }
    }
    Map<String, String> options = create instanceof SqlCreateFreshetMaterializedView freshet
        ? freshet.options() : Map.of();
    String engine = null;
    Map<String, String> restart = new HashMap<>();
    long ttlMs = -1;
    for (Map.Entry<String, String> option : options.entrySet()) {
      String key = option.getKey().toLowerCase(Locale.ROOT);
      if (!KNOWN.contains(key)) {
        throw Errors.of(SqlState.SYNTAX_ERROR, "Unknown option '" + option.getKey()
            + "' of materialized view " + view + ". Valid options: " + String.join(", ", KNOWN));
      }
      if (key.equals(SessionOption.STATE_TTL.key())) {
        if (ttlMs >= 0) {
          throw Errors.of(SqlState.SYNTAX_ERROR, "Option '" + key + "' of materialized view "
              + view + " is given more than once. Give it once");
        }
        ttlMs = SessionOption.stateTtl(key, option.getValue()).toMillis();
        continue;
      }
      if (key.equals(ENGINE) ? engine != null : restart.containsKey(key)) {
        // The parser's check of repeated keys is exact; 'engine' and ENGINE are one option here.
        throw Errors.of(SqlState.SYNTAX_ERROR, "Option '" + key + "' of materialized view "
            + view + " is given more than once. Give it once");
      }
      if (!key.equals(ENGINE)) {
        // Checked now, so that a bad value fails the CREATE, not the view's start.
        RestartOptions.of(Map.of(key, option.getValue()), new SessionOptions());
        restart.put(key, option.getValue());
        continue;
      }
      engine = option.getValue();
      if (!ENGINE_NAME.matcher(engine).matches()) {
        throw Errors.of(SqlState.SYNTAX_ERROR, "Option '" + ENGINE + "' of materialized view "
            + view + " is '" + engine + "', but must be an engine's name, made of letters,"
            + " digits and '-', such as 'freshet' or 'spark'. Leave it out to run the view on '"
            + defaults.defaultEngine() + "'");
      }
    }
    return new ViewOptions(engine == null ? defaults.defaultEngine()
        : engine.toLowerCase(Locale.ROOT), restart, ttlMs);
  }
}
