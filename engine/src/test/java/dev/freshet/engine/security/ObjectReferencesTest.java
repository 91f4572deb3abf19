package dev.freshet.engine.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.freshet.sql.FreshetSqlParser;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a statement reads and writes, as privileges are checked against it. */
class ObjectReferencesTest {
  private static ObjectReferences of(String sql) throws Exception {
    return ObjectReferences.of(FreshetSqlParser.parse(sql));
  }

  @Test void shouldFindEveryObjectInFromClausesJoinsAndSubqueries() throws Exception {
    assertEquals(Set.of("CLICKS", "USERS", "ORDERS", "TOTALS"), of("SELECT * FROM clicks c"
        + " JOIN freshet.users u ON c.u = u.id WHERE c.x IN (SELECT x FROM orders)"
        + " AND EXISTS (SELECT 1 FROM (SELECT * FROM totals) t)").reads());
    assertEquals(Set.of("CLICKS"), of("SELECT STREAM TUMBLE_START(ts, INTERVAL '1' MINUTE),"
        + " COUNT(*) FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) EMIT APPEND").reads());
    assertEquals(Set.of("CLICKS"), of("SELECT * FROM TABLE(TUMBLE(TABLE clicks,"
        + " DESCRIPTOR(ts), INTERVAL '1' MINUTE))").reads());
  }

  @Test void shouldNotTakeAliasesWithItemsOrOtherSchemasForObjects() throws Exception {
    assertEquals(Set.of("CLICKS"), of("WITH totals AS (SELECT * FROM clicks)"
        + " SELECT * FROM totals AS orders").reads());
    assertEquals(Set.of(), of("SELECT * FROM sys.queries, INFORMATION_SCHEMA.TABLES").reads());
    assertEquals(Set.of(), of("SELECT * FROM (VALUES 1) AS t(x)").reads());
  }

  @Test void shouldTellTheWrittenObjectFromWhatTheStatementReads() throws Exception {
    ObjectReferences insert = of("INSERT INTO results SELECT * FROM clicks");
    assertEquals("RESULTS", insert.written());
    assertEquals(Set.of("CLICKS"), insert.reads());
    ObjectReferences update = of("UPDATE products SET price = (SELECT MAX(p) FROM prices)");
    assertEquals("PRODUCTS", update.written());
    assertEquals(Set.of("PRICES"), update.reads());
    assertNull(of("SELECT 1").written());
  }

  @Test void shouldReadAViewNamedBySinkOrViewDefinitions() throws Exception {
    assertEquals(Set.of("TOTALS"), of("CREATE SINK s FROM totals WITH (connector = 'jdbc')")
        .reads());
    assertEquals(Set.of("CLICKS"), of("CREATE MATERIALIZED VIEW v AS SELECT COUNT(*) FROM clicks")
        .reads());
  }

  @Test void shouldMatchNamesIgnoringCase() {
    assertEquals(List.of("clicks", "CLICKS"),
        ObjectReferences.matching("Clicks", List.of("clicks", "CLICKS", "TOTALS")));
  }
}
