package dev.freshet.common.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every {@link SqlState} is a well-formed SQLSTATE, and no two constants share a code. */
class SqlStateTest {
  @Test void shouldHaveFiveDigitsOrCapitalLettersInEachCode() {
    for (SqlState state : SqlState.values()) {
      assertTrue(state.code().matches("[0-9A-Z]{5}"), state + ": " + state.code());
    }
  }

  @Test void shouldHaveOneConstantPerCode() {
    Map<String, SqlState> byCode = new HashMap<>();
    for (SqlState state : SqlState.values()) {
      SqlState other = byCode.put(state.code(), state);
      assertEquals(null, other, () -> state + " and " + other + " share " + state.code());
    }
    assertEquals(SqlState.values().length, byCode.size());
  }

  @Test void shouldNameTheClassOfAState() {
    assertEquals("42", SqlState.OBJECT_NOT_FOUND.sqlClass());
    assertEquals("0A", SqlState.FEATURE_NOT_SUPPORTED.sqlClass());
    assertEquals(Arrays.asList("HY", "HY"), Arrays.asList(SqlState.GENERAL_ERROR.sqlClass(),
        SqlState.TIMEOUT_EXPIRED.sqlClass()));
  }
}
