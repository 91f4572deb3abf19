package dev.freshet.pgwire.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.pgwire.sql.PgToken;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** PostgreSQL's names for unnamed columns, as PostgreSQL 15 gives them. */
class PgColumnLabelsTest {
  private static String named(String sql) {
    return PgColumnLabels.name(PgSqlTranslator.tokens(sql)).stream().map(PgToken::text)
        .collect(Collectors.joining());
  }

  @Test void shouldNameFunctionsCastsAndExpressionsAsPostgresql() {
    assertEquals("SELECT version() AS \"version\", pg_catalog.format_type(a, b) AS \"format_type\","
        + " 1 + 1 AS \"?column?\", c.relname, n AS x, c.oid::pg_catalog.regclass AS \"oid\","
        + " current_user AS \"current_user\", 'a'::text AS \"text\", count(*) n,"
        + " CASE WHEN a THEN 1 END AS \"case\", * FROM t",
        named("SELECT version(), pg_catalog.format_type(a, b), 1 + 1, c.relname, n AS x,"
            + " c.oid::pg_catalog.regclass, current_user, 'a'::text, count(*) n,"
            + " CASE WHEN a THEN 1 END, * FROM t"));
  }

  @Test void shouldLeaveOtherStatementsAlone() {
    for (String sql : List.of("WITH t AS (SELECT 1) SELECT * FROM t", "SHOW x", "")) {
      assertEquals(sql, named(sql));
    }
  }
}
