package dev.freshet.pgwire.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Each rewrite of {@link PgSqlTranslator}, on the shapes clients send. */
class PgSqlTranslatorTest {
  private static void check(String expected, String sql) {
    assertEquals(expected, PgSqlTranslator.translate(sql));
  }

  @Test void shouldLeaveWhatH2ParsesAlone() {
    check("SELECT relname FROM pg_catalog.pg_class WHERE relkind = 'r' AND x::INTEGER = 1",
        "SELECT relname FROM pg_catalog.pg_class WHERE relkind = 'r' AND x::int4 = 1");
  }

  @Test void shouldRewriteParametersEscapeStringsAndLiteralsNotInsideStrings() {
    check("SELECT ?1 AS \"?column?\", '$1 ~ pg_catalog.x' AS \"?column?\", 'a\nb' AS \"?column?\"",
        "SELECT $1, '$1 ~ pg_catalog.x', E'a\\nb'");
  }

  @Test void shouldRewriteRegexOperatorsAndDropCollations() {
    check("WHERE c.relname  REGEXP  '^(clicks)$'  AND n.nspname  NOT REGEXP  '^pg_'",
        "WHERE c.relname OPERATOR(pg_catalog.~) '^(clicks)$' COLLATE pg_catalog.default"
            + " AND n.nspname !~ '^pg_'");
    check("WHERE a  REGEXP '(?i)' ||  'x'", "WHERE a ~* 'x'");
  }

  @Test void shouldRewriteOidAliasCasts() {
    check("SELECT pg_catalog.freshet_regclass_oid('pg_class') AS \"regclass\"",
        "SELECT 'pg_class'::regclass");
    check("SELECT pg_catalog.freshet_regclass_name(c.oid)::VARCHAR AS \"oid\"",
        "SELECT c.oid::pg_catalog.regclass::pg_catalog.text");
    check("SELECT pg_catalog.format_type(c.reloftype)::VARCHAR AS \"reloftype\"",
        "SELECT c.reloftype::pg_catalog.regtype::pg_catalog.text");
    check("SELECT typinput=pg_catalog.freshet_regproc('pg_catalog.array_in') AS \"?column?\"",
        "SELECT typinput='pg_catalog.array_in'::regproc");
    check("SELECT x::SMALLINT ARRAY AS \"x\", y::INTEGER AS \"y\"",
        "SELECT x::pg_catalog.int2[], y::oid");
  }

  @Test void shouldReadAParameterCastToRegclassAsAName() {
    check("SELECT 1 AS \"?column?\" FROM pg_class WHERE oid ="
        + " pg_catalog.freshet_regclass_oid(?1)",
        "SELECT 1 FROM pg_class WHERE oid = $1::regclass");
  }

  @Test void shouldReadInformationSchemaAndSessionFunctionsOfTheCatalog() {
    check("SELECT pg_catalog.current_database() AS \"current_catalog\","
        + " pg_catalog.freshet_current_user() AS \"current_user\""
        + " FROM pg_information_schema.tables",
        "SELECT current_catalog, current_user FROM information_schema.tables");
    check("SELECT * FROM generate_series(1, 2)", "SELECT * FROM pg_catalog.generate_series(1, 2)");
    check("SELECT pg_catalog.format_type(1, 2) AS \"format_type\"",
        "SELECT pg_catalog.format_type(1, 2)");
  }

  @Test void shouldReadZeroBasedVectorsAndArrayLiterals() {
    check("SELECT pg_catalog.freshet_vector_element(p.proargtypes, 0) AS \"proargtypes\"",
        "SELECT p.proargtypes[0]");
    check("CASE BITAND(pg_catalog.freshet_vector_element(tmp.I_INDOPTION, tmp.n - 1) , 1) WHEN 1",
        "CASE tmp.I_INDOPTION[tmp.n - 1] & 1::smallint WHEN 1");
    check("WHERE pol.polroles = ARRAY[0]", "WHERE pol.polroles = '{0}'");
  }

  @Test void shouldJoinSetReturningArrayExpansions() {
    check("SELECT freshet_k.x attnum, freshet_k.n ord FROM pg_index ix"
        + "  JOIN pg_catalog.freshet_indkey freshet_k ON (freshet_k.indexrelid ="
        + " ix.indexrelid) WHERE ix.indisprimary",
        "SELECT unnest(ix.indkey) attnum, generate_subscripts(ix.indkey, 1) ord FROM pg_index ix"
            + " WHERE ix.indisprimary");
    check("SELECT r.k FROM (SELECT freshet_k.n AS s, freshet_k.x AS k"
        + " FROM pg_constraint con JOIN pg_class c ON (c.oid = con.conrelid)"
        + " JOIN pg_catalog.freshet_conkey freshet_k ON (freshet_k.conoid = con.oid) "
        + ") r WHERE r.a = r.k",
        "SELECT r.k FROM (SELECT (information_schema._pg_expandarray(con.conkey)).n AS s,"
            + " information_schema._pg_expandarray(con.conkey) AS k"
            + " FROM pg_constraint con JOIN pg_class c ON (c.oid = con.conrelid)) r"
            + " WHERE r.a = (r.k).x");
  }

  @Test void shouldQuoteKeywordLabelsAndReadBooleanLetters() {
    check("SELECT cons.conkey as \"key\" FROM t WHERE ix.indisprimary = FALSE",
        "SELECT cons.conkey as key FROM t WHERE ix.indisprimary = 'f'");
    check("SELECT 1 AS \"?column?\" FROM c WHERE c.relkind = 'f'",
        "SELECT 1 FROM c WHERE c.relkind = 'f'");
  }

  @Test void shouldReadFunctionStyleCastsAndScalarFunctionsInFrom() {
    // Metabase: CAST(CAST(FORMAT(...) AS REGCLASS) AS OID)
    check("SELECT COL_DESCRIPTION((pg_catalog.freshet_regclass_oid((FORMAT('%I', n) )) )"
        + "::INTEGER, 1) AS \"col_description\"",
        "SELECT COL_DESCRIPTION(CAST(CAST(FORMAT('%I', n) AS REGCLASS) AS OID), 1)");
    check("SELECT (x )::VARCHAR AS \"x\", (1 )::INTEGER AS \"oid\"",
        "SELECT CAST(x AS TEXT), CAST(1 AS OID)");
    // Grafana: string_to_array(...) s in FROM, and user
    check("SELECT s[i] AS \"s\" FROM generate_series(1, 2) as i(i), (SELECT"
        + " string_to_array('a,b', ',') AS s) s WHERE pg_catalog.freshet_current_user() = 'x'",
        "SELECT s[i] FROM generate_series(1, 2) as i, string_to_array('a,b', ',') s"
            + " WHERE user = 'x'");
    // Metabase: t.objectname as table
    check("SELECT t.objectname as \"table\", t.a as \"select\" FROM t",
        "SELECT t.objectname as table, t.a as select FROM t");
  }

  @Test void shouldReadALateralUnnestOfAColumnAsNoRows() {
    check("SELECT array(select x from (SELECT CAST(NULL AS VARCHAR) AS v WHERE FALSE) as t(x))"
        + " AS \"array\" FROM e",
        "SELECT array(select x from pg_catalog.unnest(evttags) as t(x)) FROM e");
    check("SELECT array(select 'toast.' || x from (SELECT CAST(NULL AS VARCHAR) AS x WHERE"
        + " FALSE) x) AS \"array\" FROM c",
        "SELECT array(select 'toast.' || x from pg_catalog.unnest(tc.reloptions) x) FROM c");
    check("SELECT x FROM unnest(ARRAY[1, 2]) AS t(x)",
        "SELECT x FROM unnest(ARRAY[1, 2]) AS t(x)");
  }

  @Test void shouldNameASeriesColumnAfterItsTable() {
    check("SELECT x FROM generate_series(0, 3) s(s), t WHERE a[s] = 1",
        "SELECT x FROM generate_series(0, 3) s, t WHERE a[s] = 1");
    check("SELECT r FROM generate_series(1, 3) as s(r)",
        "SELECT r FROM generate_series(1, 3) as s(r)");
  }
}
