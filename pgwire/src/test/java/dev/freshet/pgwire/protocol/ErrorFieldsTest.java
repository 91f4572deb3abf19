package dev.freshet.pgwire.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Freshet's messages as PostgreSQL's message and hint. */
class ErrorFieldsTest {
  @Test void shouldSplitWhatIsWrongFromHowToFixIt() {
    ErrorFields e = ErrorFields.of(new SQLException("Stream 'A. B' doesn't exist. Create it"
        + " with CREATE STREAM. Or check SHOW STREAMS", "42S02"));
    assertEquals("ERROR", e.severity());
    assertEquals("42S02", e.sqlState());
    assertEquals("Stream 'A. B' doesn't exist", e.message());
    assertEquals("Create it with CREATE STREAM. Or check SHOW STREAMS", e.hint());
  }

  @Test void shouldKeepAOneSentenceMessageWhole() {
    ErrorFields e = ErrorFields.of(new SQLException("Division by zero: 1.5 / 0", "22012"));
    assertEquals("Division by zero: 1.5 / 0", e.message());
    assertNull(e.hint());
    assertEquals("XX000", ErrorFields.of(new SQLException("no state")).sqlState());
  }
}
