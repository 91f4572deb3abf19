package dev.freshet.pgwire.corpus;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One statement a PostgreSQL client sent, as the regression corpus keeps it: one JSON object a
 * line in {@code src/test/resources/corpus/<client>.jsonl} (see the README there).
 *
 * @param client the client that sent it, e.g. {@code psql}, {@code pgjdbc}
 * @param action what the client was doing, e.g. {@code \dt} or {@code getColumns clicks}
 * @param session which of the client's connections sent it, from 1
 * @param protocol {@code simple} (a Query message, which may hold several statements),
 *     {@code extended} (Parse/Bind/Execute) or {@code fetch} (another Execute of a portal that
 *     was suspended at its row limit)
 * @param statement the prepared statement's name for {@code extended} and {@code fetch}
 *     ({@code <unnamed>} for the unnamed one, {@code S_1/C_2} with a named portal); null for
 *     {@code simple}
 * @param sql the statement's text, exactly as sent
 * @param params the bound parameters in order, as PostgreSQL's log prints them (text; null for
 *     SQL NULL); empty when none
 * @param error the SQLSTATE and message PostgreSQL answered with, null when it succeeded
 * @param source for statements read from a client's source rather than captured: the repository
 *     and path they come from; null for captured ones
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CorpusStatement(String client, String action, int session, String protocol,
    String statement, String sql, List<String> params, String error, String source) {

  public CorpusStatement {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(sql, "sql");
    if (!List.of("simple", "extended", "fetch").contains(protocol)) {
      throw new IllegalArgumentException("Unknown protocol " + protocol
          + ": simple, extended or fetch");
    }
    // List.copyOf refuses nulls, and a NULL parameter is a null.
    params = params == null ? List.of()
        : Collections.unmodifiableList(new ArrayList<>(params));
  }

  /** Whether it was read from the client's source rather than captured from its traffic. */
  public boolean fromSource() {
    return source != null;
  }
}
