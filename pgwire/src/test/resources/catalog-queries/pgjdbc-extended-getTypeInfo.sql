# Client: pgjdbc 42.7.14 DatabaseMetaData.getTypeInfo (extended query mode).
# Captured from PostgreSQL 15.18's statement log (log_statement=all) on 2026-12-07, with
# streams/tables/views named clicks, rates, clicks_per_user; deduplicated; SET/SHOW/BEGIN/COMMIT
# left out (the wire protocol answers those). Format: see README.md.
SELECT t.typname,t.oid FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON (t.typnamespace = n.oid)  WHERE n.nspname  != 'pg_toast' AND  (t.typrelid = 0 OR (SELECT c.relkind = 'c' FROM pg_catalog.pg_class c WHERE c.oid = t.typrelid))
;;
SELECT typinput='pg_catalog.array_in'::regproc as is_array, typtype, typname, pg_type.oid   FROM pg_catalog.pg_type   LEFT JOIN (select ns.oid as nspoid, ns.nspname, r.r           from pg_namespace as ns           join ( select s.r, (current_schemas(false))[s.r] as nspname                    from generate_series(1, array_upper(current_schemas(false), 1)) as s(r) ) as r          using ( nspname )        ) as sp     ON sp.nspoid = typnamespace  ORDER BY sp.r, pg_type.oid DESC
;;
