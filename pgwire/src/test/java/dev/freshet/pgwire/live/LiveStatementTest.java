package dev.freshet.pgwire.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Recognising live statements by their text, and COPY's escaping. */
class LiveStatementTest {
  @Test void shouldParseCopy() throws SQLException {
    assertEquals(Optional.of(new LiveStatement.CopyOut("SELECT STREAM * FROM v", CopyFormat.TEXT,
        false)), LiveStatement.parse("COPY (SELECT STREAM * FROM v) TO STDOUT"));
    assertEquals(Optional.of(new LiveStatement.CopyOut("SELECT STREAM a FROM (SELECT 1 AS a)",
        CopyFormat.CSV, true)), LiveStatement.parse(
        "copy (SELECT STREAM a FROM (SELECT 1 AS a)) to stdout with (format 'csv', header);"));
    assertEquals("0A000", assertThrows(SQLException.class,
        () -> LiveStatement.parse("COPY t TO STDOUT")).getSQLState());
    assertEquals("0A000", assertThrows(SQLException.class,
        () -> LiveStatement.parse("COPY (SELECT 1) TO '/tmp/x'")).getSQLState());
    assertEquals("0A000", assertThrows(SQLException.class,
        () -> LiveStatement.parse("COPY (SELECT 1) TO STDOUT (FORMAT binary)")).getSQLState());
  }

  @Test void shouldParseCursors() throws SQLException {
    assertEquals(Optional.of(new LiveStatement.Declare("c", true, "SELECT STREAM * FROM v")),
        LiveStatement.parse("DECLARE C CURSOR WITH HOLD FOR SELECT STREAM * FROM v"));
    assertEquals(Optional.of(new LiveStatement.Declare("My C", false, "SELECT STREAM 1")),
        LiveStatement.parse("declare \"My C\" no scroll cursor without hold for SELECT STREAM 1"));
    assertEquals(Optional.of(new LiveStatement.Fetch("c", 1, null)),
        LiveStatement.parse("FETCH c"));
    assertEquals(Optional.of(new LiveStatement.Fetch("c", LiveStatement.ALL, null)),
        LiveStatement.parse("FETCH FORWARD ALL FROM c"));
    assertEquals(Optional.of(new LiveStatement.Fetch("c", 10, Duration.ofMillis(1500))),
        LiveStatement.parse("FETCH 10 IN c WITH (timeout = '1.5 s')"));
    assertEquals(Optional.of(new LiveStatement.Fetch("c", 1, Duration.ZERO)),
        LiveStatement.parse("fetch next c with (TIMEOUT = '0s');"));
    assertEquals(Optional.of(new LiveStatement.Close(null)), LiveStatement.parse("CLOSE ALL"));
    assertEquals(Optional.of(new LiveStatement.Close("c")), LiveStatement.parse("close C"));
    assertEquals(Optional.empty(), LiveStatement.parse("SELECT STREAM * FROM fetches"));
    assertEquals("42601", assertThrows(SQLException.class,
        () -> LiveStatement.parse("FETCH BACKWARD 1 c")).getSQLState());
    assertEquals("22007", assertThrows(SQLException.class,
        () -> LiveStatement.parse("FETCH c WITH (timeout = 'soon')")).getSQLState());
  }

  @Test void shouldMakeSinceVersionTheHint() throws SQLException {
    assertEquals("SELECT STREAM * FROM per_user /*+ OPTIONS('since_version'='42') */",
        LiveStatement.sinceVersion("SELECT STREAM * FROM per_user WITH (since_version = 42);"));
    assertEquals("SELECT STREAM * FROM \"V\" /*+ OPTIONS('since_version'='7') */",
        LiveStatement.sinceVersion("select stream * from \"V\" with (SINCE_VERSION='7')"));
    assertEquals("SELECT STREAM * FROM v", LiveStatement.sinceVersion("SELECT STREAM * FROM v"));
    assertEquals("0A000", assertThrows(SQLException.class, () -> LiveStatement.sinceVersion(
        "SELECT STREAM k FROM v WITH (since_version = 1)")).getSQLState());
  }

  private static String row(CopyFormat format, String... values) {
    ByteBuf buf = Unpooled.buffer();
    for (int i = 0; i < values.length; i++) {
      format.field(buf, i, values.length, values[i]);
    }
    format.endRow(buf);
    return buf.toString(StandardCharsets.UTF_8);
  }

  @Test void shouldEscapeAsPostgresDoes() {
    // What PostgreSQL 15's COPY ... TO STDOUT writes for these values.
    assertEquals("a\\tb\t\\N\tc\\\\d\\ne\\rf\t\n", row(CopyFormat.TEXT, "a\tb", null,
        "c\\d\ne\rf", ""));
    assertEquals("\"\\.\"\n", row(CopyFormat.CSV, "\\."));
    assertEquals("\"a,b\",,\"\",\"say \"\"hi\"\"\",\"l1\nl2\",\\.,plain\\x\n",
        row(CopyFormat.CSV, "a,b", null, "", "say \"hi\"", "l1\nl2", "\\.", "plain\\x"));
    assertEquals("é\tü\n", row(CopyFormat.TEXT, "é", "ü"));
  }
}
