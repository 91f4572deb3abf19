package dev.freshet.pgwire.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's statement log ({@code log_statement = all}, {@code log_destination = jsonlog})
 * read into corpus statements, one list per client.
 *
 * <p>A session's client is its {@code application_name} (the capture starts each client with
 * its corpus name there). A client marks its actions by sending
 * {@code SELECT 'freshet-corpus-action:<name>'}: the statements after it, up to the next marker,
 * are that action's, and the marker itself is left out; statements before the first marker are
 * the action {@code connect}. An {@code ERROR} entry is the error of the session's last
 * statement.
 *
 * <pre>{@code
 * Map<String, List<CorpusStatement>> byClient = StatementLog.parse(lines, Set.of("capture"));
 * }</pre>
 */
final class StatementLog {
  static final String ACTION_MARKER = "freshet-corpus-action:";
  private static final Pattern MARKER =
      Pattern.compile("SELECT '" + Pattern.quote(ACTION_MARKER) + "(.*)'", Pattern.DOTALL);
  private static final Pattern EXECUTE =
      Pattern.compile("execute (fetch from )?([^:]*): (.*)", Pattern.DOTALL);
  // $1 = '...' with '' for a quote inside, or $1 = NULL.
  private static final Pattern PARAM =
      Pattern.compile("\\$(\\d+) = (?:'((?:[^']|'')*)'|(NULL))");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, List<CorpusStatement>> byClient = new LinkedHashMap<>();
  private final Map<Long, Session> sessions = new HashMap<>();
  private final Map<String, Integer> sessionCounts = new HashMap<>();
  private final Set<String> ignored;

  private StatementLog(Set<String> ignoredApplications) {
    this.ignored = ignoredApplications;
  }

  /** Reads a jsonlog's lines; sessions of the ignored application names are left out. */
  static Map<String, List<CorpusStatement>> parse(List<String> jsonLines,
      Set<String> ignoredApplications) {
    StatementLog log = new StatementLog(ignoredApplications);
    for (String line : jsonLines) {
      if (!line.isBlank()) {
        log.read(line);
      }
    }
    return log.byClient;
  }

  private void read(String line) {
    JsonNode entry;
    try {
      entry = JSON.readTree(line);
    } catch (IOException e) {
      throw new UncheckedIOException("Not a jsonlog line: " + line, e);
    }
    String application = entry.path("application_name").asText("");
    if (application.isEmpty() || ignored.contains(application)
        || !"client backend".equals(entry.path("backend_type").asText())) {
      return;
    }
    long pid = entry.path("pid").asLong();
    Session session = sessions.computeIfAbsent(pid, p -> new Session(application,
        sessionCounts.merge(application, 1, Integer::sum)));
    String severity = entry.path("error_severity").asText();
    String message = entry.path("message").asText();
    if (severity.equals("ERROR") || severity.equals("FATAL")) {
      session.failed(entry.path("state_code").asText() + ": " + message);
    } else if (severity.equals("LOG")) {
      session.logged(message, entry.path("detail").asText(null));
    }
  }

  static List<String> parameters(String detail) {
    List<String> params = new ArrayList<>();
    if (detail == null || !detail.startsWith("parameters: ")) {
      return params;
    }
    Matcher m = PARAM.matcher(detail);
    while (m.find()) {
      int index = Integer.parseInt(m.group(1));
      if (index != params.size() + 1) {
        throw new IllegalStateException("Parameters out of order in: " + detail);
      }
      params.add(m.group(3) != null ? null : m.group(2).replace("''", "'"));
    }
    return params;
  }

  private final class Session {
    private final String client;
    private final int number;
    private String action = "connect";
    private CorpusStatement last;
    private int lastIndex = -1;

    Session(String client, int number) {
      this.client = client;
      this.number = number;
    }

    void logged(String message, String detail) {
      String protocol;
      String name = null;
      String sql;
      if (message.startsWith("statement: ")) {
        protocol = "simple";
        sql = message.substring("statement: ".length());
      } else {
        Matcher m = EXECUTE.matcher(message);
        if (!m.matches()) {
          return;  // not a statement: a connection or checkpoint message
        }
        protocol = m.group(1) != null ? "fetch" : "extended";
        name = m.group(2);
        sql = m.group(3);
      }
      Matcher marker = MARKER.matcher(sql.strip());
      if (marker.matches()) {
        action = marker.group(1);
        last = null;
        return;
      }
      List<CorpusStatement> statements = byClient.computeIfAbsent(client, c -> new ArrayList<>());
      last = new CorpusStatement(client, action, number, protocol, name, sql, parameters(detail),
          null, null);
      statements.add(last);
      lastIndex = statements.size() - 1;
    }

    void failed(String error) {
      if (last == null) {
        return;  // an error before any statement (authentication) or of a marker
      }
      last = new CorpusStatement(last.client(), last.action(), last.session(), last.protocol(),
          last.statement(), last.sql(), last.params(), error, null);
      byClient.get(client).set(lastIndex, last);
    }
  }
}
