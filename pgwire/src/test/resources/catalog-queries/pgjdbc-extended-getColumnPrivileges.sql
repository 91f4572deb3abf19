# Client: pgjdbc 42.7.14 DatabaseMetaData.getColumnPrivileges (extended query mode).
# Captured from PostgreSQL 15.18's statement log (log_statement=all) on 2026-12-07, with
# streams/tables/views named clicks, rates, clicks_per_user; deduplicated; SET/SHOW/BEGIN/COMMIT
# left out (the wire protocol answers those). Format: see README.md.
-- parameters: $1 = 'public', $2 = 'rates', $3 = '%'
SELECT current_database() AS current_database, n.nspname,c.relname,r.rolname,c.relacl, a.attacl,  a.attname  FROM pg_catalog.pg_namespace n, pg_catalog.pg_class c,  pg_catalog.pg_roles r, pg_catalog.pg_attribute a  WHERE c.relnamespace = n.oid  AND c.relowner = r.oid  AND c.oid = a.attrelid  AND c.relkind = 'r'  AND a.attnum > 0 AND NOT a.attisdropped  AND n.nspname = $1 AND c.relname = $2 AND a.attname LIKE $3 ORDER BY attname
;;
