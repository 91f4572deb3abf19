package dev.freshet.engine.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each option's values as {@code SET} spells them, and back: what a view's catalog entry keeps. */
class SessionOptionTest {
  private static <T> void assertRoundTrip(SessionOption<T> option, T value) throws SQLException {
    assertEquals(value, option.parse(option.text(value)), option.key());
  }

  @Test void shouldReadBackTheTextOfEveryValue() throws SQLException {
    for (SessionOption<?> option : SessionOption.ALL) {
      assertRoundTrip(option);
    }
    assertRoundTrip(SessionOption.TRIGGER_INTERVAL, Duration.ofMillis(1500));
    assertRoundTrip(SessionOption.STATE_STORE_PROVIDER, StateStoreProviderKind.MVSTORE);
    assertRoundTrip(SessionOption.TRIGGER, TriggerKind.AVAILABLE_NOW);
    assertRoundTrip(SessionOption.PUSH_BATCH_MARKERS, true);
    assertEquals("available-now", SessionOption.TRIGGER.text(TriggerKind.AVAILABLE_NOW));
    assertEquals("1500 ms", SessionOption.TRIGGER_INTERVAL.text(Duration.ofMillis(1500)));
  }

  private static <T> void assertRoundTrip(SessionOption<T> option) throws SQLException {
    assertRoundTrip(option, option.defaultValue());
  }

  @Test void shouldFindAnOptionByItsKeyInAnyCase() {
    assertSame(SessionOption.STATE_PARTITIONS, SessionOption.of("State.Partitions").orElseThrow());
    assertEquals(java.util.Optional.empty(), SessionOption.of("nope"));
  }
}
