package dev.freshet.pgwire.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The statement log's entries: what failed, and no password ever shown. */
class PgStatementLogTest {
  @Test void shouldHidePasswords() {
    PgStatementLog.Entry e = PgStatementLog.Entry.of(7, "simple", null,
        "CREATE USER bob PASSWORD 'it''s secret'; ALTER ROLE al WITH password='x'", List.of(),
        null);
    assertEquals("CREATE USER bob PASSWORD '***'; ALTER ROLE al WITH password='***'", e.sql());
    PgStatementLog.Entry bound = PgStatementLog.Entry.of(7, "extended", "S_1",
        "ALTER USER bob PASSWORD $1", List.of("hunter2"), null);
    assertEquals("ALTER USER bob PASSWORD '***'", bound.sql());
    assertEquals(List.of(), bound.params());
    assertFalse(bound.failed());
  }

  @Test void shouldKeepParametersAndErrors() {
    PgStatementLog.Entry e = PgStatementLog.Entry.of(3, "extended", "", "SELECT $1, $2",
        Arrays.asList("a", null), new SQLException("no such thing", "42P01"));
    assertEquals(Arrays.asList("a", null), e.params());
    assertTrue(e.failed());
    assertEquals("42P01", e.sqlState());
    assertEquals("no such thing", e.error());
  }
}
