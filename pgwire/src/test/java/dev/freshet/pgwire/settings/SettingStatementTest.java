package dev.freshet.pgwire.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The SET, RESET and SHOW statements of PostgreSQL's settings, and the settings they change. */
class SettingStatementTest {
  @Test void shouldRecognizeWhatClientsSend() {
    assertEquals(Optional.of(new SettingStatement.Set("extra_float_digits", "3")),
        SettingStatement.parse("SET extra_float_digits = 3"));
    assertEquals(Optional.of(new SettingStatement.Set("application_name", "PostgreSQL JDBC")),
        SettingStatement.parse("SET application_name = 'PostgreSQL JDBC';"));
    assertEquals(Optional.of(new SettingStatement.Set("TimeZone", "UTC")),
        SettingStatement.parse("set time zone 'UTC'"));
    assertEquals(Optional.of(new SettingStatement.Set("search_path", "\"$user\", public")),
        SettingStatement.parse("SET SESSION search_path TO \"$user\", public"));
    assertEquals(Optional.of(new SettingStatement.Set("DateStyle", null)),
        SettingStatement.parse("SET DateStyle TO DEFAULT"));
    assertEquals(Optional.of(new SettingStatement.Ignored("SET")),
        SettingStatement.parse("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL"
            + " READ COMMITTED"));
    assertEquals(Optional.of(new SettingStatement.Reset("all")),
        SettingStatement.parse("RESET ALL"));
    assertEquals(Optional.of(new SettingStatement.Show("transaction_isolation")),
        SettingStatement.parse("SHOW TRANSACTION ISOLATION LEVEL"));
    assertEquals(Optional.of(new SettingStatement.Show("streams")),
        SettingStatement.parse("SHOW STREAMS"));
    // Freshet's own: a quoted key.
    assertEquals(Optional.empty(), SettingStatement.parse("SET 'state.partitions' = '4'"));
    assertEquals(Optional.empty(), SettingStatement.parse("SET x = 1; DROP STREAM s"));
  }

  @Test void shouldReportChangesOfReportedSettingsOnly() throws Exception {
    PgSettings settings = PgSettings.defaults("UTC");
    assertTrue(settings.set("application_name", "psql"));
    assertFalse(settings.set("application_name", "psql"));
    assertFalse(settings.set("extra_float_digits", "3"));
    assertEquals(3, settings.extraFloatDigits());
    assertTrue(settings.set("datestyle", "ISO, DMY"));
    assertEquals("ISO, DMY", settings.get("DateStyle").orElseThrow());
    assertEquals("DateStyle", settings.spelling("datestyle"));
    assertTrue(settings.reset("DateStyle"));
    assertEquals("ISO, MDY", settings.get("datestyle").orElseThrow());
    assertEquals("15.0 (Freshet)", settings.reported().get("server_version"));
    assertTrue(settings.set("client_encoding", "sql_ascii"));
    assertEquals("SQL_ASCII", settings.get("client_encoding").orElseThrow());
  }

  @Test void shouldRefuseWhatFreshetCannotHonour() {
    PgSettings settings = PgSettings.defaults("UTC");
    assertEquals("22023", assertThrows(SettingException.class,
        () -> settings.set("client_encoding", "LATIN1")).getSQLState());
    assertEquals("55P02", assertThrows(SettingException.class,
        () -> settings.set("server_version", "16")).getSQLState());
    assertEquals("22023", assertThrows(SettingException.class,
        () -> settings.set("TimeZone", "Mars/Olympus")).getSQLState());
    assertEquals("22023", assertThrows(SettingException.class,
        () -> settings.set("extra_float_digits", "9")).getSQLState());
  }
}
