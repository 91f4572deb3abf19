package dev.freshet.jdbc.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every {@link ClientSqlState} is a well-formed SQLSTATE, and no two constants share a code. */
class ClientSqlStateTest {
  @Test void shouldHaveFiveDigitsOrCapitalLettersInEachCode() {
    for (ClientSqlState state : ClientSqlState.values()) {
      assertTrue(state.code().matches("[0-9A-Z]{5}"), state + ": " + state.code());
    }
  }

  @Test void shouldHaveOneConstantPerCode() {
    Map<String, ClientSqlState> byCode = new HashMap<>();
    for (ClientSqlState state : ClientSqlState.values()) {
      ClientSqlState other = byCode.put(state.code(), state);
      assertEquals(null, other, () -> state + " and " + other + " share " + state.code());
    }
  }
}
