# Client: pgjdbc 42.7.14 DatabaseMetaData.getTablePrivileges (extended query mode).
# Captured from PostgreSQL 15.18's statement log (log_statement=all) on 2026-12-07, with
# streams/tables/views named clicks, rates, clicks_per_user; deduplicated; SET/SHOW/BEGIN/COMMIT
# left out (the wire protocol answers those). Format: see README.md.
select current_catalog
;;
-- parameters: $1 = 'public', $2 = '%'
SELECT current_database() AS current_database, n.nspname,c.relname,r.rolname,c.relacl  FROM pg_catalog.pg_namespace n, pg_catalog.pg_class c, pg_catalog.pg_roles r  WHERE c.relnamespace = n.oid  AND c.relowner = r.oid  AND c.relkind IN ('r','p','v','m','f')  AND n.nspname LIKE $1 AND c.relname LIKE $2 ORDER BY nspname, relname
;;
