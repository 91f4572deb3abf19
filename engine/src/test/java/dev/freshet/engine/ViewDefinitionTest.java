package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ViewDefinitionTest {
  @Test void shouldCutTheQueryAsWritten() {
    assertEquals("SELECT k, COUNT(*) AS n FROM s GROUP BY k",
        ViewDefinition.of("CREATE MATERIALIZED VIEW v AS SELECT k, COUNT(*) AS n FROM s GROUP BY k"));
    assertEquals("select k,\n  count(*) as n -- per key\nfrom s group by k emit complete",
        ViewDefinition.of("create materialized view if not exists \"V\" as\n  select k,\n"
            + "  count(*) as n -- per key\nfrom s group by k emit complete;\n"));
    assertEquals("(SELECT k FROM s)",
        ViewDefinition.of("CREATE MATERIALIZED VIEW v AS (SELECT k FROM s)"));
  }

  @Test void shouldKeepAStatementItCannotCut() {
    assertEquals("CREATE STREAM s (k VARCHAR)", ViewDefinition.of("CREATE STREAM s (k VARCHAR)"));
  }
}
