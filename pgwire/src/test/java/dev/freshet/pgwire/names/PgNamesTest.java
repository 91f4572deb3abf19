package dev.freshet.pgwire.names;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** PostgreSQL's names and casts in Freshet's statements, and Freshet's own SQL left alone. */
class PgNamesTest {
  @Test void shouldDropThePublicSchemaAndTheDatabase() {
    assertEquals("SELECT * FROM v", PgNames.toFreshet("SELECT * FROM public.v"));
    assertEquals("SELECT * FROM \"V\"", PgNames.toFreshet("SELECT * FROM \"public\".\"v\""));
    assertEquals("SELECT * FROM v", PgNames.toFreshet("SELECT * FROM freshet.public.v"));
    assertEquals("SELECT \"V\".\"K\" FROM \"V\"",
        PgNames.toFreshet("SELECT \"public\".\"v\".\"k\" FROM \"public\".\"v\""));
    // A column named public is no schema.
    assertEquals("SELECT public FROM t", PgNames.toFreshet("SELECT public FROM t"));
  }

  @Test void shouldMatchQuotedLowerCaseNamesToFreshetsUpperCaseOnes() {
    assertEquals("SELECT \"USER_ID\", \"Mixed\" FROM \"CLICKS\"",
        PgNames.toFreshet("SELECT \"user_id\", \"Mixed\" FROM \"clicks\""));
    assertEquals("SELECT 'public.v', '\"v\"' FROM t",
        PgNames.toFreshet("SELECT 'public.v', '\"v\"' FROM t"));
  }

  @Test void shouldQuoteAliasesThatAreFreshetKeywords() {
    assertEquals("SELECT 1 AS \"ONE\"", PgNames.toFreshet("SELECT 1 AS one"));
    assertEquals("CREATE MATERIALIZED VIEW v AS SELECT CAST(a AS INTEGER) AS \"A\" FROM s",
        PgNames.toFreshet("CREATE MATERIALIZED VIEW v AS SELECT CAST(a AS INTEGER) AS a FROM s"));
  }

  @Test void shouldTurnCastsIntoCast() {
    assertEquals("SELECT a FROM t WHERE b = CAST(? AS INTEGER) AND c = CAST('x' AS VARCHAR)",
        PgNames.toFreshet("SELECT a FROM t WHERE b = ?::int4 AND c = 'x'::text"));
    assertEquals("SELECT f(a, CAST(n AS INTEGER), b) AS \"F\" FROM t",
        PgNames.toFreshet("SELECT f(a, n::int4, b) FROM t"));
    assertEquals("SELECT CAST((a + 1) AS VARCHAR) AS \"X\" FROM t",
        PgNames.toFreshet("SELECT (a + 1)::text AS x FROM t"));
  }

  @Test void shouldLabelCastsAsPostgresqlDoes() {
    // n::int8 is labelled n, '1'::int4 int4, f(x)::numeric f; shown in lower case.
    assertEquals("SELECT CAST(n AS BIGINT) AS \"N\", CAST('1' AS INTEGER) AS \"INT4\","
        + " CAST(? AS VARCHAR) AS \"TEXT\"",
        PgNames.toFreshet("SELECT n::int8, '1'::int4, ?::text"));
    assertEquals("SELECT CAST(t.x AS DOUBLE) AS \"X\", CAST(f(a, b) AS DECIMAL(10, 2)) AS \"F\","
        + " CAST(ts AS TIMESTAMP WITH LOCAL TIME ZONE) AS \"TS\" FROM t",
        PgNames.toFreshet("SELECT t.x::double precision, f(a, b)::numeric(10, 2),"
            + " ts::timestamptz FROM t"));
    assertEquals("SELECT k, CAST(\"Mixed\" AS INTEGER) AS \"Mixed\" FROM t",
        PgNames.toFreshet("SELECT k, \"Mixed\"::int FROM t"));
  }

  @Test void shouldGroupByOrdinalsAsPostgresqlDoes() {
    assertEquals("SELECT floor(ts / 60) * 60 AS \"TIME\", k, COUNT(*) AS \"COUNT\" FROM t"
        + " GROUP BY (floor(ts / 60) * 60), (k) ORDER BY 1",
        PgNames.toFreshet("SELECT floor(ts / 60) * 60 AS \"time\", k, COUNT(*) FROM t"
            + " GROUP BY 1, 2 ORDER BY 1"));
    // Not an ordinal of the select list: left alone.
    assertEquals("SELECT k FROM t GROUP BY k + 1", PgNames.toFreshet(
        "SELECT k FROM t GROUP BY k + 1"));
    assertEquals("SELECT k FROM t GROUP BY 5", PgNames.toFreshet("SELECT k FROM t GROUP BY 5"));
    assertEquals("SELECT * FROM (SELECT k, COUNT(*) AS \"N\" FROM t GROUP BY (k)) x",
        PgNames.toFreshet("SELECT * FROM (SELECT k, COUNT(*) AS n FROM t GROUP BY 1) x"));
  }

  @Test void shouldLabelCallsAsPostgresqlDoes() {
    assertEquals("SELECT k, count(*) AS \"COUNT\", SUM(n) AS \"SUM\", SUM(n) + 1, MAX(n) AS \"M\""
        + " FROM t GROUP BY k",
        PgNames.toFreshet("SELECT k, count(*), SUM(n), SUM(n) + 1, MAX(n) AS m FROM t GROUP BY k"));
    assertEquals("SELECT STREAM k, COUNT(*) AS \"COUNT\" FROM t GROUP BY k",
        PgNames.toFreshet("SELECT STREAM k, COUNT(*) FROM t GROUP BY k"));
    // Freshet's objects keep Freshet's column names.
    assertEquals("CREATE MATERIALIZED VIEW v AS SELECT k, COUNT(*) FROM t GROUP BY k",
        PgNames.toFreshet("CREATE MATERIALIZED VIEW v AS SELECT k, COUNT(*) FROM t GROUP BY k"));
  }

  @Test void shouldLeaveFreshetsOwnStatementsAlone() {
    for (String sql : new String[] {
        "CREATE STREAM clicks (user_id VARCHAR, ts TIMESTAMP(3),"
            + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'memory')",
        "SELECT STREAM * FROM v EMIT CHANGES", "INSERT INTO s VALUES ('a', 1)",
        "SET 'state.partitions' = '4'", "SELECT k, COUNT(*) FROM s GROUP BY k"}) {
      String once = PgNames.toFreshet(sql);
      assertEquals(once, PgNames.toFreshet(once), sql);
    }
    assertEquals("SELECT STREAM * FROM v EMIT CHANGES",
        PgNames.toFreshet("SELECT STREAM * FROM v EMIT CHANGES"));
  }
}
