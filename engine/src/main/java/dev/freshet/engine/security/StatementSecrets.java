package dev.freshet.engine.security;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.security.SensitiveOptions;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.SqlWithOptions;
import dev.freshet.sql.parser.WithOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * The secrets of one {@code CREATE STREAM}, {@code CREATE TABLE} or {@code CREATE SINK}: the
 * options with each {@code SECRET name} replaced by its value, for the connector being opened;
 * the statement as the catalog records it, with each sensitive option written as a string
 * replaced by {@code SECRET "object$key"}, an anonymous secret; and the statement as shown.
 *
 * <pre>{@code
 * // CREATE SINK out FROM v WITH (connector = 'jdbc', ..., 'password' = 'hunter2')
 * StatementSecrets secrets = StatementSecrets.of(store, alice, "OUT", create, sql);
 * secrets.options().get("password");   // hunter2, for the connector
 * secrets.sql();                       // ... 'password' = SECRET "OUT$password")
 * secrets.store();                     // once the sink exists: keeps OUT$password
 * }</pre>
 *
 * <p>{@link #of} checks that the user may use every secret named, before anything is opened.
 * {@link #store} is called once the object exists, under the engine's DDL lock: it keeps the
 * anonymous secrets and records which secrets the object uses.
 */
public final class StatementSecrets {
  private final SecretStore store;
  private final Principal principal;
  private final String object;
  private final Map<String, String> options;
  private final String sql;
  /** The anonymous secrets to keep, by name. */
  private final Map<String, String> anonymous;
  /** Every secret the object uses, named or anonymous. */
  private final Set<String> used;
  /**
   * The secret values the statement names or writes, to be hidden in its errors; the session
   * hides what else the text holds ({@link Redaction#hiddenValues}).
   */
  private final List<String> values;

  private StatementSecrets(SecretStore store, Principal principal, String object,
      Map<String, String> options, String sql, Map<String, String> anonymous, Set<String> used,
      List<String> values) {
    this.store = store;
    this.principal = principal;
    this.object = object;
    this.options = Collections.unmodifiableMap(options);
    this.sql = sql;
    this.anonymous = anonymous;
    this.used = used;
    this.values = values;
  }

  /**
   * The secrets of {@code statement}, the text {@code sql}, which creates {@code object}.
   *
   * @throws SQLException 42704 if a secret named does not exist; 42501 if {@code principal}
   *     may not use it
   */
  public static StatementSecrets of(SecretStore store, Principal principal, String object,
      SqlWithOptions statement, String sql) throws SQLException {
    requireNonNull(store, "store");
    requireNonNull(principal, "principal");
    Map<String, String> options = new LinkedHashMap<>();
    Map<String, String> anonymous = new LinkedHashMap<>();
    Set<String> used = new LinkedHashSet<>();
    List<String> values = new ArrayList<>();
    for (WithOption option : statement.optionEntries()) {
      if (option.secret().isPresent()) {
        String value = store.value(principal, option.secret().get());
        options.put(option.key(), value);
        used.add(option.secret().get());
        values.add(value);
      } else {
        String value = option.literal().orElseThrow();
        options.put(option.key(), value);
        if (anonymous(option)) {
          String name = anonymousName(object, option);
          anonymous.put(name, value);
          used.add(name);
          values.add(value);
        }
      }
    }
    return new StatementSecrets(store, principal, object, options,
        recorded(sql, object, statement), anonymous, used, values);
  }

  /**
   * {@code sql}, a statement the catalog recorded for {@code object}, with each sensitive
   * option written as a string replaced by its anonymous secret: what an engine that recorded
   * strings records instead once it has kept them.
   */
  public static String recorded(String sql, String object) {
    SqlNode node;
    try {
      node = FreshetSqlParser.parse(sql);
    } catch (SqlParseException e) {
      return sql;
    }
    return node instanceof SqlWithOptions statement ? recorded(sql, object, statement) : sql;
  }

  private static String recorded(String sql, String object, SqlWithOptions statement) {
    TextPositions positions = new TextPositions(sql);
    StringBuilder text = new StringBuilder(sql.length());
    int from = 0;
    for (WithOption option : statement.optionEntries()) {
      if (anonymous(option)) {
        int start = positions.start(option.value().getParserPosition());
        text.append(sql, from, start).append("SECRET ")
            .append(quotedName(anonymousName(object, option)));
        from = positions.end(option.value().getParserPosition());
      }
    }
    return text.append(sql, from, sql.length()).toString();
  }

  /** Whether {@code option} is a sensitive string, which is kept as an anonymous secret. */
  private static boolean anonymous(WithOption option) {
    return SensitiveOptions.isSensitive(option.key())
        && option.literal().filter(value -> !value.isEmpty()).isPresent();
  }

  private static String anonymousName(String object, WithOption option) {
    return SecretStore.anonymousName(object, option.key().toLowerCase(Locale.ROOT));
  }

  private static String quotedName(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** The options, keys as written, each {@code SECRET name} replaced by the secret's value. */
  public Map<String, String> options() {
    return options;
  }

  /** The statement as the catalog records it: sensitive strings replaced by secrets. */
  public String sql() {
    return sql;
  }

  /** The statement as shown ({@code SHOW QUERIES}, {@code sys.queries}, the web UI). */
  public String shownSql() {
    return Redaction.statement(sql);
  }

  /**
   * Keeps the anonymous secrets, and records what the object uses: call it once the object
   * exists, before the catalog records it.
   *
   * @throws SQLException 42704 if a secret it uses was dropped since {@link #of}
   */
  public void store() throws SQLException {
    for (Map.Entry<String, String> secret : anonymous.entrySet()) {
      store.keepAnonymous(principal, object, secret.getKey(), secret.getValue());
    }
    store.use(object, used);
  }

  /** {@code e} with the secrets this statement handles hidden from its messages. */
  public SQLException scrub(SQLException e) {
    return Redaction.scrub(e, values);
  }
}
