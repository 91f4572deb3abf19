# Client: pgjdbc 42.7.14 DatabaseMetaData.getVersionColumns (extended query mode).
# Captured from PostgreSQL 15.18's statement log (log_statement=all) on 2026-12-07, with
# streams/tables/views named clicks, rates, clicks_per_user; deduplicated; SET/SHOW/BEGIN/COMMIT
# left out (the wire protocol answers those). Format: see README.md.
-- parameters: $1 = 'tid'
SELECT pg_type.oid, typname   FROM pg_catalog.pg_type   LEFT   JOIN (select ns.oid as nspoid, ns.nspname, r.r           from pg_namespace as ns           join ( select s.r, (current_schemas(false))[s.r] as nspname                    from generate_series(1, array_upper(current_schemas(false), 1)) as s(r) ) as r          using ( nspname )        ) as sp     ON sp.nspoid = typnamespace  WHERE typname = $1  ORDER BY sp.r, pg_type.oid DESC LIMIT 1
;;
-- parameters: $1 = '27'
SELECT typinput='pg_catalog.array_in'::regproc as is_array, typtype, typname, pg_type.oid   FROM pg_catalog.pg_type   LEFT JOIN (select ns.oid as nspoid, ns.nspname, r.r           from pg_namespace as ns           join ( select s.r, (current_schemas(false))[s.r] as nspname                    from generate_series(1, array_upper(current_schemas(false), 1)) as s(r) ) as r          using ( nspname )        ) as sp     ON sp.nspoid = typnamespace  WHERE pg_type.oid = $1  ORDER BY sp.r, pg_type.oid DESC
;;
