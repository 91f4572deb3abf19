package dev.freshet.pgwire.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Splitting a simple Query into statements, and PostgreSQL's parameters as Freshet's markers. */
class SqlTextTest {
  @Test void shouldSplitAtSemicolonsOutsideStringsAndComments() {
    assertEquals(List.of("SELECT 1", "SELECT ';'", "SELECT \"a;b\" FROM t",
            "SELECT $$ ; $$, $tag$ ; $$ ; $tag$", "SELECT E'\\'; '",
            "-- a comment; still\nSELECT 2 /* ; /* ; */ ; */"),
        SqlText.split("SELECT 1; SELECT ';';SELECT \"a;b\" FROM t ;"
            + "SELECT $$ ; $$, $tag$ ; $$ ; $tag$; SELECT E'\\'; ';"
            + " -- a comment; still\nSELECT 2 /* ; /* ; */ ; */;;"));
    assertEquals(List.of("SELECT 'it''s; here'"), SqlText.split("SELECT 'it''s; here'"));
  }

  @Test void shouldFindQueriesOfOnlyCommentsEmpty() {
    assertTrue(SqlText.isEmpty(""));
    assertTrue(SqlText.isEmpty(" ; ;\n"));
    assertTrue(SqlText.isEmpty("-- ping"));
    assertTrue(SqlText.isEmpty("/* a */ -- b\n;"));
    assertFalse(SqlText.isEmpty("-- x\nSELECT 1"));
    assertEquals(List.of(), SqlText.split("-- ping"));
  }

  @Test void shouldReadTheLeadingWordsPastComments() {
    assertEquals(List.of("CREATE", "MATERIALIZED", "VIEW"),
        SqlText.leadingWords("/* x */ create -- y\n materialized view v AS SELECT 1", 3));
    assertEquals(List.of("SELECT"), SqlText.leadingWords("SELECT * FROM t", 3));
    assertEquals(List.of(), SqlText.leadingWords("  ", 2));
  }

  @Test void shouldTurnNumberedParametersIntoMarkers() {
    SqlText.Markers m = SqlText.markers(
        "SELECT '$1', $2 FROM t WHERE a = $1 AND b = $2 AND c = $$x$1$$ AND d$1 = 1");
    assertEquals("SELECT '$1', ? FROM t WHERE a = ? AND b = ? AND c = $$x$1$$ AND d$1 = 1",
        m.sql());
    assertArrayEquals(new int[] {2, 1, 2}, m.occurrences());
    assertEquals(2, m.count());
  }

  @Test void shouldBindLiteralsForTheCatalog() {
    assertEquals("SELECT * FROM pg_class WHERE relname = 'it''s' AND oid = 42 AND x IS NULL",
        SqlText.bindLiterals("SELECT * FROM pg_class WHERE relname = $1 AND oid = $2"
            + " AND x IS $3", java.util.Arrays.asList("it's", 42, null)));
  }

  @Test void shouldTagCommandsAsPostgreSqlDoes() {
    assertEquals("INSERT 0 3", CommandTags.of("insert into s values (1)", 3, false));
    assertEquals("SELECT 2", CommandTags.of("select * from v", 2, true));
    assertEquals("CREATE MATERIALIZED VIEW",
        CommandTags.of("CREATE MATERIALIZED VIEW v AS SELECT 1", 0, false));
    assertEquals("CREATE VIEW", CommandTags.of("create or replace view v as select 1", 0, false));
    assertEquals("DROP STREAM", CommandTags.of("DROP STREAM s", 0, false));
    assertEquals("SHOW", CommandTags.of("SHOW STREAMS", 4, true));
  }
}
