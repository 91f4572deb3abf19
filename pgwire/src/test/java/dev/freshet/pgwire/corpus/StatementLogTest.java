package dev.freshet.pgwire.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StatementLogTest {
  private static String entry(long pid, String app, String severity, String message,
      String detail) {
    return "{\"timestamp\":\"2026-12-07 23:03:26.300 UTC\",\"pid\":" + pid
        + ",\"error_severity\":\"" + severity + "\",\"message\":\"" + message + "\""
        + (detail == null ? "" : ",\"detail\":\"" + detail + "\"")
        + ",\"application_name\":\"" + app + "\",\"backend_type\":\"client backend\"}";
  }

  @Test void shouldSplitByClientAndTagStatementsWithTheLastAction() {
    List<String> log = List.of(
        entry(10, "psql", "LOG", "statement: SET x = 1", null),
        entry(11, "capture", "LOG", "statement: CREATE TABLE t (a int)", null),
        entry(10, "psql", "LOG", "statement: SELECT 'freshet-corpus-action:\\\\dt'", null),
        entry(10, "psql", "LOG", "statement: SELECT n.nspname\\nFROM pg_namespace n", null),
        entry(12, "pgjdbc", "LOG", "execute <unnamed>: SELECT 'freshet-corpus-action:prep'",
            null),
        entry(12, "pgjdbc", "LOG", "execute S_1: SELECT * FROM t WHERE a = $1 AND b = $2",
            "parameters: $1 = 'it''s', $2 = NULL"),
        entry(12, "pgjdbc", "LOG", "execute fetch from <unnamed>/C_2: SELECT * FROM t", null));

    Map<String, List<CorpusStatement>> byClient = StatementLog.parse(log, Set.of("capture"));

    assertEquals(Set.of("psql", "pgjdbc"), byClient.keySet());
    assertEquals(List.of(
        new CorpusStatement("psql", "connect", 1, "simple", null, "SET x = 1", List.of(), null,
            null),
        new CorpusStatement("psql", "\\dt", 1, "simple", null,
            "SELECT n.nspname\nFROM pg_namespace n", List.of(), null, null)),
        byClient.get("psql"));
    assertEquals(List.of(
        new CorpusStatement("pgjdbc", "prep", 1, "extended", "S_1",
            "SELECT * FROM t WHERE a = $1 AND b = $2", Arrays.asList("it's", null), null, null),
        new CorpusStatement("pgjdbc", "prep", 1, "fetch", "<unnamed>/C_2", "SELECT * FROM t",
            List.of(), null, null)),
        byClient.get("pgjdbc"));
  }

  @Test void shouldAttachAnErrorToTheSessionsLastStatement() {
    List<String> log = List.of(
        entry(20, "node-postgres", "LOG", "statement: SELECT nope", null),
        entry(21, "node-postgres", "LOG", "statement: SELECT 1", null),
        "{\"pid\":20,\"error_severity\":\"ERROR\",\"state_code\":\"42703\","
            + "\"message\":\"column \\\"nope\\\" does not exist\","
            + "\"application_name\":\"node-postgres\",\"backend_type\":\"client backend\"}");

    List<CorpusStatement> statements =
        StatementLog.parse(log, Set.of()).get("node-postgres");

    assertEquals("42703: column \"nope\" does not exist", statements.get(0).error());
    assertEquals(1, statements.get(0).session());
    assertNull(statements.get(1).error());
    assertEquals(2, statements.get(1).session());
  }

  @Test void shouldReadParametersWithQuotesCommasAndNulls() {
    assertEquals(Arrays.asList("a, $2 = 'b'", null, "", "x''y"),
        StatementLog.parameters(
            "parameters: $1 = 'a, $2 = ''b''', $2 = NULL, $3 = '', $4 = 'x''''y'"));
    assertEquals(List.of(), StatementLog.parameters(null));
  }
}
