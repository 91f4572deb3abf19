# Client: pgjdbc 42.7.14 DatabaseMetaData.getFunctions (extended query mode).
# Captured from PostgreSQL 15.18's statement log (log_statement=all) on 2026-12-07, with
# streams/tables/views named clicks, rates, clicks_per_user; deduplicated; SET/SHOW/BEGIN/COMMIT
# left out (the wire protocol answers those). Format: see README.md.
-- parameters: $1 = 'public', $2 = '%'
SELECT current_database() AS "FUNCTION_CAT",  n.nspname AS "FUNCTION_SCHEM", p.proname AS "FUNCTION_NAME",  d.description AS "REMARKS",  CASE    WHEN (format_type(p.prorettype, null) = 'unknown') THEN 0   WHEN      (substring(pg_get_function_result(p.oid) from 0 for 6) = 'TABLE') OR      (substring(pg_get_function_result(p.oid) from 0 for 6) = 'SETOF') THEN 2   ELSE 1 END  AS "FUNCTION_TYPE",  p.proname || '_' || p.oid AS "SPECIFIC_NAME" FROM pg_catalog.pg_proc p INNER JOIN pg_catalog.pg_namespace n ON p.pronamespace=n.oid LEFT JOIN pg_catalog.pg_description d ON p.oid=d.objoid WHERE true   AND p.prokind='f' AND n.nspname LIKE $1 AND p.proname LIKE $2 ORDER BY "FUNCTION_SCHEM", "FUNCTION_NAME", p.oid::text
;;
