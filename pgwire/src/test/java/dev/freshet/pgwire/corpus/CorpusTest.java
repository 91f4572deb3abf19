package dev.freshet.pgwire.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The committed corpus files load, and hold what their README says they hold. */
class CorpusTest {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$(\\d+)");

  @Test void shouldLoadEveryCapturedClientWithNoErrorsAndItsOwnName() {
    for (String client : Corpus.CAPTURED) {
      List<CorpusStatement> statements = Corpus.load(client);
      assertFalse(statements.isEmpty(), client);
      for (CorpusStatement s : statements) {
        assertEquals(client, s.client());
        assertNull(s.error(), () -> client + " got an error from PostgreSQL: " + s);
        assertFalse(s.fromSource(), s::toString);
        assertTrue(s.session() >= 1, s::toString);
      }
    }
  }

  @Test void shouldLoadEveryClientReadFromSourceWithItsSource() {
    for (String client : Corpus.FROM_SOURCE) {
      List<CorpusStatement> statements = Corpus.load(client);
      assertFalse(statements.isEmpty(), client);
      for (CorpusStatement s : statements) {
        assertEquals(client, s.client());
        assertTrue(s.fromSource(), s::toString);
        assertNull(s.error(), s::toString);
      }
    }
  }

  @Test void shouldKeepNpgsqlsTypeLoadingAsOneQueryOfFourStatements() {
    // Npgsql refuses the connection unless all four result sets come back.
    CorpusStatement batch = Corpus.load("npgsql").stream()
        .filter(s -> s.protocol().equals("simple") && s.sql().startsWith("SELECT version();"))
        .findFirst().orElseThrow();

    assertEquals(4, batch.sql().split(";\r\n").length, batch.sql());
  }

  @Test void shouldBindOneParameterPerPlaceholderInCapturedStatements() {
    for (String client : Corpus.CAPTURED) {
      for (CorpusStatement s : Corpus.load(client)) {
        if (s.protocol().equals("simple")) {
          assertEquals(List.of(), s.params(), s::toString);
          continue;
        }
        int highest = 0;
        Matcher m = PLACEHOLDER.matcher(s.sql());
        while (m.find()) {
          highest = Math.max(highest, Integer.parseInt(m.group(1)));
        }
        if (!s.protocol().equals("fetch")) {
          assertEquals(highest, s.params().size(), s::toString);
        }
      }
    }
  }

  @Test void shouldHoldEveryPsqlCommandInOrder() {
    Set<String> actions = Corpus.load("psql").stream().map(CorpusStatement::action)
        .collect(Collectors.toCollection(LinkedHashSet::new));

    assertEquals(CorpusCapture.PSQL_COMMANDS, new ArrayList<>(actions));
  }

  @Test void shouldHoldPgjdbcsNamedStatementPortalFetchAndEmptyQuery() {
    List<CorpusStatement> pgjdbc = Corpus.load("pgjdbc");

    assertTrue(pgjdbc.stream().anyMatch(s -> "S_1".equals(s.statement())), "prepareThreshold");
    assertTrue(pgjdbc.stream().anyMatch(s -> s.protocol().equals("fetch")), "fetch size");
    assertTrue(pgjdbc.stream().anyMatch(s -> s.sql().isEmpty()), "isValid's empty query");
    Set<String> actions = pgjdbc.stream().map(CorpusStatement::action)
        .collect(Collectors.toSet());
    assertTrue(actions.containsAll(List.of("getCatalogs", "getSchemas", "getTables",
        "getColumns", "getPrimaryKeys", "getIndexInfo", "getTypeInfo", "prepared")),
        actions::toString);
  }

  @Test void shouldRoundTripThroughTheFileFormat(@TempDir Path dir) throws Exception {
    List<CorpusStatement> psql = Corpus.load("psql");
    Path file = dir.resolve("psql.jsonl");

    Corpus.write(psql, file);

    try (BufferedReader in = java.nio.file.Files.newBufferedReader(file)) {
      assertEquals(psql, Corpus.read(in, file.toString()));
    }
  }

  @Test void shouldNameTheFileAndLineOfABadStatement() {
    String text = "{\"client\":\"x\",\"action\":\"a\",\"session\":1,\"protocol\":\"simple\","
        + "\"sql\":\"SELECT 1\",\"params\":[]}\n"
        + "{\"client\":\"x\",\"action\":\"a\",\"session\":1,\"protocol\":\"binary\","
        + "\"sql\":\"SELECT 1\",\"params\":[]}\n";

    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> Corpus.read(new BufferedReader(new StringReader(text)), "x.jsonl"));

    assertTrue(e.getMessage().startsWith("x.jsonl:2 "), e.getMessage());
  }

  @Test void shouldRefuseAnUnknownClientNamingTheKnownOnes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Corpus.load("tableau"));

    assertTrue(e.getMessage().contains("psql"), e.getMessage());
  }
}
