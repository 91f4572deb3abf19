"""psycopg 3 without SQLAlchemy (SQLAlchemy 1.4 has no psycopg 3 dialect; 2.0 added it).

Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSSLMODE),
sends a plain query, a parameterized one (psycopg 3 binds on the server: Parse/Bind/Execute) and
a prepared one, and prints the rows as one JSON object. Each action is preceded by
SELECT 'freshet-corpus-action:<name>' (see sqlalchemy_inspect.py).

Run with Debian's Python: /usr/bin/python3 psycopg_queries.py
"""
import json

import psycopg

found = {"psycopg": psycopg.__version__}
with psycopg.connect("") as conn:
    def action(name):
        conn.execute("SELECT 'freshet-corpus-action:" + name + "'")

    action("simple")
    found["one"] = conn.execute("SELECT 1 AS one").fetchall()
    action("parameterized")
    found["user 1"] = conn.execute(
        "SELECT id, name FROM users WHERE id = %s", (1,)).fetchall()
    action("prepared")
    found["users 2, 3"] = [
        conn.execute("SELECT id, name FROM users WHERE id = %s", (i,), prepare=True).fetchall()
        for i in (2, 3)]
    action("text and numeric parameters")
    found["clicks"] = conn.execute(
        "SELECT user_id, amount FROM clicks WHERE user_id = %s AND amount > %s ORDER BY amount",
        ("alice", 1.5)).fetchall()
    action("transaction")
    with conn.transaction():
        found["count"] = conn.execute("SELECT count(*) FROM clicks").fetchone()[0]
print(json.dumps(found, default=str))
