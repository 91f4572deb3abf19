# Client: pgjdbc 42.7.14 DatabaseMetaData.getProcedures (extended query mode).
# Captured from PostgreSQL 15.18's statement log (log_statement=all) on 2026-12-07, with
# streams/tables/views named clicks, rates, clicks_per_user; deduplicated; SET/SHOW/BEGIN/COMMIT
# left out (the wire protocol answers those). Format: see README.md.
-- parameters: $1 = 'public', $2 = '%'
SELECT current_database() AS "PROCEDURE_CAT",  n.nspname AS "PROCEDURE_SCHEM", p.proname AS "PROCEDURE_NAME", NULL, NULL, NULL, d.description AS "REMARKS", 2 AS "PROCEDURE_TYPE",  p.proname || '_' || p.oid AS "SPECIFIC_NAME"  FROM pg_catalog.pg_namespace n, pg_catalog.pg_proc p  LEFT JOIN pg_catalog.pg_description d ON (p.oid=d.objoid)  LEFT JOIN pg_catalog.pg_class c ON (d.classoid=c.oid AND c.relname='pg_proc')  LEFT JOIN pg_catalog.pg_namespace pn ON (c.relnamespace=pn.oid AND pn.nspname='pg_catalog')  WHERE p.pronamespace=n.oid  AND p.prokind='p' AND n.nspname LIKE $1 AND p.proname LIKE $2 ORDER BY "PROCEDURE_SCHEM", "PROCEDURE_NAME", p.oid::text
;;
