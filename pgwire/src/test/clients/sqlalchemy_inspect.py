"""SQLAlchemy 1.4's Inspector over psycopg2, as Superset reads a database's tables.

Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE; PGSSLMODE
through psycopg2's libpq) and prints what the Inspector found as one JSON object. Each action is
preceded by SELECT 'freshet-corpus-action:<name>', which CorpusCapture reads from the server's
statement log to tell which action sent which statement.

Run with Debian's Python: /usr/bin/python3 sqlalchemy_inspect.py
"""
import json
import os
import sys

import sqlalchemy as sa

url = sa.engine.URL.create(
    "postgresql+psycopg2",
    username=os.environ["PGUSER"],
    password=os.environ.get("PGPASSWORD"),
    host=os.environ["PGHOST"],
    port=int(os.environ["PGPORT"]),
    database=os.environ["PGDATABASE"],
)
engine = sa.create_engine(url)
found = {"sqlalchemy": sa.__version__}
with engine.connect() as conn:
    def action(name):
        conn.exec_driver_sql("SELECT 'freshet-corpus-action:" + name + "'")

    inspector = sa.inspect(conn)
    action("get_schema_names")
    found["schemas"] = inspector.get_schema_names()
    action("get_table_names")
    found["tables"] = inspector.get_table_names(schema="public")
    action("get_view_names")
    found["views"] = inspector.get_view_names(schema="public")
    action("has_table")
    found["has_clicks"] = sa.inspect(conn).has_table("clicks", schema="public")
    for table in sys.argv[1:] or ["clicks", "users", "clicks_by_user"]:
        action("get_columns " + table)
        found["columns " + table] = [
            {"name": c["name"], "type": str(c["type"]), "nullable": c["nullable"]}
            for c in inspector.get_columns(table, schema="public")]
        action("get_pk_constraint " + table)
        found["pk " + table] = inspector.get_pk_constraint(table, schema="public")
        # What Superset reads besides columns and the primary key when it shows a table.
        action("get_foreign_keys " + table)
        found["fks " + table] = inspector.get_foreign_keys(table, schema="public")
        action("get_indexes " + table)
        found["indexes " + table] = [
            {"name": i["name"], "columns": i["column_names"], "unique": i["unique"]}
            for i in inspector.get_indexes(table, schema="public")]
        action("get_table_comment " + table)
        found["comment " + table] = inspector.get_table_comment(table, schema="public")
        action("get_unique_constraints " + table)
        found["unique " + table] = inspector.get_unique_constraints(table, schema="public")
        action("get_check_constraints " + table)
        found["checks " + table] = inspector.get_check_constraints(table, schema="public")
    # Superset's data preview: the table reflected, then its first rows.
    action("reflect and preview clicks")
    clicks = sa.Table("clicks", sa.MetaData(), autoload_with=conn, schema="public")
    found["preview"] = [list(r) for r in conn.execute(sa.select(clicks).limit(100))]
    action("select")
    found["rows"] = [list(r) for r in conn.exec_driver_sql(
        "SELECT id, name FROM users ORDER BY id")]
print(json.dumps(found, default=str))
