package dev.freshet.engine.security;

import dev.freshet.common.security.SensitiveOptions;
import dev.freshet.common.security.UrlRedaction;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Hides secrets in what Freshet shows: statements (in {@code SHOW QUERIES}, {@code sys.queries},
 * the web UI, logs), JDBC URLs and error messages.
 *
 * <pre>{@code
 * Redaction.statement("CREATE SINK s FROM v WITH (connector = 'jdbc', 'password' = 'x', ...)");
 * // CREATE SINK s FROM v WITH (connector = 'jdbc', 'password' = '***', ...)
 * Redaction.url("jdbc:postgresql://db/app?user=app&password=x");
 * // jdbc:postgresql://db/app?user=app&password=***
 * Redaction.scrub(e, List.of("x1y2z3"));   // e, or a copy whose messages hide x1y2z3
 * }</pre>
 *
 * <p>In a statement, the value of {@code CREATE SECRET}, each {@code WITH} option value whose
 * key is {@link SensitiveOptions sensitive}, and each {@code SET} of such a key is shown as
 * {@code '***'}; a URL value has its password hidden; the rest of the text keeps its spelling.
 * {@code SECRET name} is shown as written: a name is not a secret.
 */
public final class Redaction {
  /** What a hidden value is shown as. */
  public static final String HIDDEN = UrlRedaction.HIDDEN;
  /**
   * Secrets shorter than this are not searched for in messages: they would replace parts of
   * words, and such a secret is no secret anyway.
   */
  static final int MIN_SCRUBBED_LENGTH = 4;

  private Redaction() {
  }

  /** {@code sql} with the values of its secrets shown as {@code '***'}. */
  public static String statement(String sql) {
    List<HiddenSpans.Span> spans = HiddenSpans.of(sql);
    if (spans.isEmpty()) {
      return sql;
    }
    StringBuilder shown = new StringBuilder(sql.length());
    int from = 0;
    for (HiddenSpans.Span span : spans) {
      shown.append(sql, from, span.start()).append(span.shown());
      from = span.end();
    }
    return shown.append(sql, from, sql.length()).toString();
  }

  /** The secrets that {@code sql} holds as written, which a message about it might quote. */
  public static List<String> hiddenValues(String sql) {
    List<String> values = new ArrayList<>();
    for (HiddenSpans.Span span : HiddenSpans.of(sql)) {
      values.addAll(span.values());
    }
    return values;
  }

  /** {@code url} with its passwords shown as {@code ***}: {@link UrlRedaction#url}. */
  public static String url(String url) {
    return UrlRedaction.url(url);
  }

  /** The passwords that {@link #url} hides in {@code url}. */
  static List<String> urlPasswords(String url) {
    return UrlRedaction.passwords(url);
  }

  /** {@code message} with each of {@code secrets} shown as {@code ***}. */
  public static String scrub(String message, Collection<String> secrets) {
    String scrubbed = message;
    for (String secret : longestFirst(secrets)) {
      scrubbed = scrubbed.replace(secret, HIDDEN);
    }
    return scrubbed;
  }

  /**
   * {@code e} itself if neither its message nor its causes' quote any of {@code secrets}; else
   * a copy, with the same SQLSTATE and stack trace, whose message hides them and which drops the
   * causes that quote them.
   */
  public static SQLException scrub(SQLException e, Collection<String> secrets) {
    List<String> searched = longestFirst(secrets);
    if (searched.isEmpty() || !quotesAny(e, searched)) {
      return e;
    }
    SQLException copy = new SQLException(scrub(String.valueOf(e.getMessage()), searched),
        e.getSQLState(), e.getErrorCode());
    copy.setStackTrace(e.getStackTrace());
    Throwable cause = e.getCause();
    if (cause != null && !quotesAny(cause, searched)) {
      copy.initCause(cause);
    }
    return copy;
  }

  private static boolean quotesAny(Throwable failure, List<String> secrets) {
    Set<Throwable> seen = new java.util.HashSet<>();
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      String message = t.getMessage();
      if (message != null && !scrub(message, secrets).equals(message)) {
        return true;
      }
    }
    return false;
  }

  /** The secrets worth searching for, longest first: a secret inside another goes second. */
  private static List<String> longestFirst(Collection<String> secrets) {
    Set<String> unique = new LinkedHashSet<>();
    for (String secret : secrets) {
      if (secret != null && secret.length() >= MIN_SCRUBBED_LENGTH) {
        unique.add(secret);
      }
    }
    List<String> sorted = new ArrayList<>(unique);
    sorted.sort(Comparator.comparingInt(String::length).reversed());
    return sorted;
  }
}
