package dev.freshet.engine.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.source.MemoryStream;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A transaction's INSERTs become one offset per stream at commit, and nothing before. */
class PendingInsertsTest {
  private static InsertExecutor.Rows rows(String name, MemoryStream stream, Object... values) {
    return new InsertExecutor.Rows(name, stream,
        java.util.Arrays.stream(values).map(v -> new Object[] {v}).toList());
  }

  @Test void commitShouldAppendOneOffsetPerStream() throws SQLException {
    MemoryStream a = new MemoryStream("A", 1);
    MemoryStream b = new MemoryStream("B", 1);
    PendingInserts pending = new PendingInserts();
    pending.add(rows("A", a, 1));
    pending.add(rows("B", b, 10, 20));
    pending.add(rows("A", a, 2, 3));
    assertEquals(5, pending.rowCount());
    assertEquals(0, a.latestOffset());
    assertEquals(0, b.latestOffset());

    pending.commit(name -> Optional.of(Map.of("A", a, "B", b).get(name)));
    assertEquals(1, a.latestOffset(), "a's three rows in one offset");
    assertEquals(1, b.latestOffset(), "b's two rows in one offset");
    assertTrue(pending.isEmpty());
    pending.commit(name -> Optional.empty());
    assertEquals(1, a.latestOffset());
  }

  @Test void commitShouldRefuseRowsOfADroppedStreamAndAppendNothing() {
    MemoryStream a = new MemoryStream("A", 1);
    MemoryStream b = new MemoryStream("B", 1);
    PendingInserts pending = new PendingInserts();
    pending.add(rows("A", a, 1));
    pending.add(rows("B", b, 2));
    SQLException e = assertThrows(SQLException.class, () -> pending.commit(
        name -> name.equals("A") ? Optional.of(a) : Optional.of(new MemoryStream("B", 1))));
    assertEquals("42S02", e.getSQLState());
    assertEquals("Cannot commit: stream B was dropped after this transaction inserted 1 rows"
        + " into it; nothing was committed. Call rollback() to drop the transaction's rows",
        e.getMessage());
    assertEquals(0, a.latestOffset());
    assertEquals(2, pending.rowCount());
    pending.clear();
    assertTrue(pending.isEmpty());
  }
}
