package dev.freshet.engine.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What {@link Redaction} shows of statements, URLs and messages: every secret replaced, exactly
 * the secret's text, the rest as the user wrote it.
 */
class RedactionTest {
  @Test void shouldHideSensitiveOptionValuesAndKeepTheRestAsWritten() {
    String sql = "create sink out from totals with (\n"
        + "  connector = 'jdbc', -- the target\n"
        + "\t'url' = 'jdbc:postgresql://db/app',\r\n"
        + "  username='app', \"password\" = 'hunter2',  /* kept */ 'table-name' = 't',\n"
        + "  'properties.sasl.jaas.config' = 'org.example.Login required password=\"x9x9\";')";

    assertEquals("create sink out from totals with (\n"
        + "  connector = 'jdbc', -- the target\n"
        + "\t'url' = 'jdbc:postgresql://db/app',\r\n"
        + "  username='app', \"password\" = '***',  /* kept */ 'table-name' = 't',\n"
        + "  'properties.sasl.jaas.config' = '***')", Redaction.statement(sql));
    assertEquals(List.of("hunter2", "org.example.Login required password=\"x9x9\";"),
        Redaction.hiddenValues(sql));
  }

  @Test void shouldShowSecretReferencesAsWrittenSinceANameIsNoSecret() {
    String sql = "CREATE TABLE t (a INT) WITH (connector = 'jdbc', 'url' = SECRET pg_url,"
        + " 'password' = SECRET \"pg pass\")";

    assertEquals(sql, Redaction.statement(sql));
    assertEquals(List.of(), Redaction.hiddenValues(sql));
  }

  @Test void shouldHideTheValueOfCreateSecretWhereverTheStatementIsShown() {
    assertEquals("CREATE SECRET IF NOT EXISTS s AS '***'",
        Redaction.statement("CREATE SECRET IF NOT EXISTS s AS 'it''s'"));
    assertEquals(List.of("it's"), Redaction.hiddenValues("CREATE SECRET s AS 'it''s'"));
  }

  @Test void shouldHideTheValueOfASensitiveSessionSetting() {
    assertEquals("SET 'spark.hadoop.fs.s3a.secret.key' = '***'",
        Redaction.statement("SET 'spark.hadoop.fs.s3a.secret.key' = 'AKIA1234'"));
    assertEquals("SET 'state.partitions' = '4'",
        Redaction.statement("SET 'state.partitions' = '4'"));
  }

  @Test void shouldHideTheSensitiveOptionsOfAnExplainedView() {
    assertEquals("EXPLAIN PLAN FOR CREATE MATERIALIZED VIEW v WITH (token = '***') AS SELECT 1",
        Redaction.statement("EXPLAIN PLAN FOR CREATE MATERIALIZED VIEW v WITH (token = 'tok1')"
            + " AS SELECT 1"));
  }

  @Test void shouldLeaveAStatementWithoutSecretsAsItIs() {
    String sql = "SELECT password FROM users WHERE password = 'not an option'";

    assertSame(sql, Redaction.statement(sql));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "CREATE SECRET s AS 'hunter2' garbage | CREATE SECRET s AS '***' garbage",
      "CREATE SECRET s 'hunter2' | CREATE SECRET s '***'",
      "CREATE SECRET s AS hunter2 | CREATE SECRET s AS '***'",
      "CREATE SINK k FROM v WITH ('password' = 'hunter2' | CREATE SINK k FROM v WITH ('password' = '***'",
      "CREATE SINK k FROM v WITH (password = hunter2) | CREATE SINK k FROM v WITH (password = '***')",
      "CREATE SINK k FROM v WITH (a.password = 'hun''ter2' 'x' | CREATE SINK k FROM v WITH (a.password = '***' 'x'",
      "CREATE SINK k WITH (password = SECRET p | CREATE SINK k WITH (password = SECRET p",
  })
  void shouldHideSecretsWhenTheStatementDoesNotParse(String sql, String shown) {
    assertEquals(shown, Redaction.statement(sql));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "jdbc:postgresql://db/app?user=app&password=hunter2&ssl=true"
          + " | jdbc:postgresql://db/app?user=app&password=***&ssl=true",
      "jdbc:h2:tcp://localhost:9092/mem:t;USER=sa;PASSWORD=hunter2"
          + " | jdbc:h2:tcp://localhost:9092/mem:t;USER=sa;PASSWORD=***",
      "jdbc:postgresql://app:hunter2@db:5432/app | jdbc:postgresql://app:***@db:5432/app",
      "jdbc:postgresql://db/app?sslpassword=hunter2 | jdbc:postgresql://db/app?sslpassword=***",
      "jdbc:postgresql://db/app?user=app | jdbc:postgresql://db/app?user=app",
      "jdbc:h2:tcp://localhost/x;PASSWORD= | jdbc:h2:tcp://localhost/x;PASSWORD=",
  })
  void shouldHideThePasswordOfAUrl(String url, String shown) {
    assertEquals(shown, Redaction.url(url));
  }

  @Test void shouldHideAPasswordInAUrlOptionOfAStatement() {
    String sql = "CREATE TABLE t (a INT) WITH (connector = 'jdbc',"
        + " url = 'jdbc:postgresql://db/app?password=hunter2', 'table-name' = 't')";

    assertEquals("CREATE TABLE t (a INT) WITH (connector = 'jdbc',"
        + " url = 'jdbc:postgresql://db/app?password=***', 'table-name' = 't')",
        Redaction.statement(sql));
    assertEquals(List.of("hunter2"), Redaction.hiddenValues(sql));
  }

  @Test void shouldScrubAMessageAndDropTheCausesThatQuoteASecret() {
    SQLException quoted = new SQLException("connect with hunter2 failed", "08001", 7,
        new IllegalStateException("inner hunter2"));

    SQLException scrubbed = Redaction.scrub(quoted, List.of("hunter2"));

    assertEquals("connect with *** failed", scrubbed.getMessage());
    assertEquals("08001", scrubbed.getSQLState());
    assertEquals(7, scrubbed.getErrorCode());
    assertNull(scrubbed.getCause());
    assertEquals(quoted.getStackTrace().length, scrubbed.getStackTrace().length);
  }

  @Test void shouldKeepAnExceptionThatQuotesNoSecret() {
    SQLException clean = new SQLException("cannot connect", "08001",
        new IllegalStateException("refused"));

    assertSame(clean, Redaction.scrub(clean, List.of("hunter2")));
    assertSame(clean, Redaction.scrub(clean, List.of()));
  }

  @Test void shouldScrubTheLongerSecretFirstAndSkipSecretsTooShortToSearchFor() {
    assertEquals("*** and ***; a",
        Redaction.scrub("hunter22 and hunter2; a", List.of("a", "hunter2", "hunter22")));
    assertFalse(Redaction.scrub("hunter2", List.of("hunter2")).contains("hunter2"));
    assertTrue(Redaction.scrub("abc", List.of("abc")).contains("abc"));
  }
}
