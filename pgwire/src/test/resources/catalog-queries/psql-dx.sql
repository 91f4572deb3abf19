# Client: psql 15.18 (Debian) dx.
# Captured from PostgreSQL 15.18's statement log (log_statement=all) on 2026-12-07, with
# streams/tables/views named clicks, rates, clicks_per_user; deduplicated; SET/SHOW/BEGIN/COMMIT
# left out (the wire protocol answers those). Format: see README.md.
SELECT e.extname AS "Name", e.extversion AS "Version", n.nspname AS "Schema", c.description AS "Description"
FROM pg_catalog.pg_extension e LEFT JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace LEFT JOIN pg_catalog.pg_description c ON c.objoid = e.oid AND c.classoid = 'pg_catalog.pg_extension'::pg_catalog.regclass
ORDER BY 1;
;;
