package dev.freshet.engine.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A statement's cancel reaches its plain query whenever it comes: before the query started (the
 * query ends at its first check), while it runs, or after it ended (nothing happens).
 */
class CancelSignalTest {
  private final Engine engine = new Engine("cancel-signal-test");
  private final Session session = engine.openSession();

  @AfterEach void close() {
    engine.close();
  }

  @Test void shouldRunWhatIsAttachedOnCancelOrAtOnceIfCancelledAlready() {
    AtomicInteger runs = new AtomicInteger();
    CancelSignal signal = new CancelSignal();
    signal.attach(runs::incrementAndGet);
    assertEquals(0, runs.get());
    signal.cancel();
    assertEquals(1, runs.get());

    CancelSignal early = new CancelSignal();
    early.cancel();
    early.attach(runs::incrementAndGet);
    assertEquals(2, runs.get());
    early.detach();
    early.cancel();
    assertEquals(2, runs.get());
  }

  @Test void shouldEndAPlainQueryCancelledBeforeItStartedWith57014() throws Exception {
    session.execute("CREATE STREAM s (v INTEGER)");
    session.execute("INSERT INTO s VALUES (1), (2), (3)");
    CancelSignal cancelled = new CancelSignal();
    cancelled.cancel();

    for (String sql : List.of("SELECT v FROM s", "SELECT COUNT(*) FROM s a JOIN s b ON a.v = b.v",
        "SELECT 1")) {
      SQLException e = assertThrows(SQLException.class, () -> session.execute(sql, cancelled));
      assertEquals("57014", e.getSQLState(), sql + ": " + e);
      assertTrue(e.getMessage().startsWith("Plain query plain-"), e.getMessage());
    }
    assertTrue(engine.plainQueries().visibleTo(session.principal()).isEmpty());
    assertEquals(0, engine.memoryPool().usedBytes());
    // A new signal for the next execution: the query runs.
    assertEquals(3, ((StatementResult.Rows) session.execute("SELECT v FROM s", new CancelSignal()))
        .rows().size());
    assertFalse(new CancelSignal().isCancelled());
  }
}
