package dev.freshet.engine.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.runtime.Trigger;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;

/** {@code SET} and {@code RESET} of a session's options, and what the session reports. */
class SessionOptionsTest {
  private final Engine engine = new Engine("session-options-test");
  private final Session session = engine.openSession();

  @AfterEach void close() {
    engine.close();
  }

  private Duration triggerIntervalAfter(String value) throws SQLException {
    session.execute("SET 'trigger.interval' = '" + value + "'");
    return session.triggerInterval();
  }

  @Test void shouldParseStateTtlsUpToDaysAndReadTheirTextBack() throws Exception {
    SessionOption<Duration> ttl = SessionOption.STATE_TTL;
    assertEquals(Duration.ZERO, ttl.defaultValue());
    assertEquals(Duration.ofHours(1), ttl.parse("1 h"));
    assertEquals(Duration.ofSeconds(2), ttl.parse("2 s"));
    assertEquals(Duration.ofMinutes(30), ttl.parse("30 min"));
    assertEquals(Duration.ofDays(7), ttl.parse(" 7 Days "));
    assertEquals(Duration.ofMillis(1500), ttl.parse("1.5 seconds"));
    assertEquals(Duration.ZERO, ttl.parse("0"));
    for (String text : new String[] {"1 h", "0", "7 days", "250 ms"}) {
      assertEquals(ttl.parse(text), ttl.parse(ttl.text(ttl.parse(text))), text);
    }
    for (String bad : new String[] {"forever", "-1 h", "1 week", "0.5 ms", ""}) {
      SQLException e = assertThrows(SQLException.class, () -> ttl.parse(bad), bad);
      assertEquals("42000", e.getSQLState());
      assertEquals(true, e.getMessage().startsWith("Option 'state.ttl' must be a state"
          + " time-to-live such as '1 h'"), e.getMessage());
    }
    session.execute("SET 'state.ttl' = '1 h'");
    session.execute("RESET 'state.ttl'");
  }

  @Test void shouldParseTriggerIntervalsAsSparkSpellsThem() throws Exception {
    assertEquals(Duration.ZERO, session.triggerInterval());
    assertEquals(Duration.ofSeconds(1), triggerIntervalAfter("1 second"));
    assertEquals(Duration.ofMillis(500), triggerIntervalAfter("500 ms"));
    assertEquals(Duration.ofMillis(500), triggerIntervalAfter("500milliseconds"));
    assertEquals(Duration.ofMillis(1500), triggerIntervalAfter("1.5 Seconds"));
    assertEquals(Duration.ofMinutes(2), triggerIntervalAfter(" 2 minutes "));
    assertEquals(Duration.ofHours(1), triggerIntervalAfter("1 hour"));
    assertEquals(Duration.ZERO, triggerIntervalAfter("0"));
    session.execute("SET 'trigger.interval' = '10 s'");
    session.execute("RESET 'trigger.interval'");
    assertEquals(Duration.ZERO, session.triggerInterval());
  }

  @Test void shouldRejectATriggerIntervalWithoutUnitOrBeyondADayAndKeepTheOldOne()
      throws Exception {
    session.execute("SET 'trigger.interval' = '3 s'");
    for (String bad : new String[] {"500", "-1 s", "1 fortnight", "0.5 ms", "25 hours", ""}) {
      SQLException e = assertThrows(SQLException.class,
          () -> session.execute("SET 'trigger.interval' = '" + bad + "'"), bad);
      assertEquals("42000", e.getSQLState(), bad);
    }
    assertEquals(Duration.ofSeconds(3), session.triggerInterval());
  }

  @Test void shouldAcceptOnlyKnownStateStoreProviders() throws Exception {
    assertEquals(StateStoreProviderKind.MEMORY, session.stateStoreProvider());
    session.execute("SET 'STATE.STORE.PROVIDER' = ' MVStore '");
    assertEquals(StateStoreProviderKind.MVSTORE, session.stateStoreProvider());
    session.execute("SET 'STATE.STORE.PROVIDER' = ' Memory '");
    assertEquals(StateStoreProviderKind.MEMORY, session.stateStoreProvider());
    SQLException e = assertThrows(SQLException.class,
        () -> session.execute("SET 'state.store.provider' = 'h2'"));
    assertEquals("Option 'state.store.provider' must be one of: memory, mvstore; not 'h2'",
        e.getMessage());
  }

  @Test void shouldResetStatePartitions() throws Exception {
    session.execute("SET 'state.partitions' = '8'");
    assertEquals(8, session.statePartitions());
    session.execute("RESET 'state.partitions'");
    assertEquals(1, session.statePartitions());
  }

  @Test void shouldKeepOptionsPerSession() throws Exception {
    session.execute("SET 'trigger.interval' = '1 second'");
    assertEquals(Duration.ZERO, engine.openSession().triggerInterval());
  }

  @Test void shouldSelectSparksTriggersAndRejectOthers() throws Exception {
    session.execute("SET 'trigger' = 'Available-Now'");
    session.execute("SET 'trigger.interval' = '2 s'");
    assertEquals(Trigger.AVAILABLE_NOW, session.trigger());
    session.execute("SET 'trigger' = 'once'");
    assertEquals(Trigger.ONCE, session.trigger());
    session.execute("RESET 'trigger'");
    assertEquals(new Trigger.ProcessingTime(2000), session.trigger());
    SQLException e = assertThrows(SQLException.class,
        () -> session.execute("SET 'trigger' = 'continuous'"));
    assertEquals("Option 'trigger' must be one of: processing-time, once, available-now; not"
        + " 'continuous'", e.getMessage());
  }

  @Test void shouldBoundTheBatchesToRetain() throws Exception {
    assertEquals(100, session.minBatchesToRetain());
    session.execute("SET 'min.batches.to.retain' = '7'");
    assertEquals(7, session.minBatchesToRetain());
    SQLException e = assertThrows(SQLException.class,
        () -> session.execute("SET 'min.batches.to.retain' = '0'"));
    assertEquals("Option 'min.batches.to.retain' must be an integer from 1 to 1000000, not '0'",
        e.getMessage());
    assertEquals("Unknown option 'nope'. Options: max.windows.per.row, min.batches.to.retain,"
        + " on.error, pull.max.rows, push.batch.markers, push.buffer.rows, query.memory.budget,"
        + " restart.backoff, restart.max-attempts, state.partitions,"
        + " state.store.provider, state.ttl, trigger, trigger.interval",
        assertThrows(SQLException.class, () -> session.execute("SET 'nope' = '1'"))
            .getMessage());
  }
}
