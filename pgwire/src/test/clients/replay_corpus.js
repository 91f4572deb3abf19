// Replays corpus files (src/test/resources/corpus/*.jsonl) with node-postgres: a "simple" statement
// as a Query message (several statements in one text allowed), an "extended" one with
// Parse/Bind/Execute and its parameters as text, a "fetch" (a portal read again) skipped. Each
// session of a file gets a connection of its own, in order. Connects with libpq's environment
// (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE) and prints one JSON object: per file, the
// statements that succeeded and those that failed with the server's SQLSTATE and message.
// Exits 1 when one failed.
//
//   NODE_PATH=pgwire/target/node-clients/node_modules node replay_corpus.js corpus/psql.jsonl ...
const fs = require('fs');
const path = require('path');
const { Client } = require('pg');

async function replay(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const result = { ok: 0, skipped: 0, failed: [] };
  let client = null;
  let session = null;
  for (let i = 0; i < lines.length; i++) {
    const s = JSON.parse(lines[i]);
    if (s.session !== session) {
      if (client) await client.end();
      client = new Client();
      await client.connect();
      session = s.session;
    }
    if (s.protocol === 'fetch') {
      result.skipped++;
      continue;
    }
    try {
      if (s.protocol === 'simple') {
        await client.query(s.sql);
      } else {
        // An empty values array still goes through Parse/Bind/Execute.
        await client.query({ text: s.sql, values: s.params, queryMode: 'extended' });
      }
      result.ok++;
    } catch (e) {
      result.failed.push({ line: i + 1, action: s.action, sqlstate: e.code, error: e.message });
    }
  }
  if (client) await client.end();
  return result;
}

async function main() {
  const out = {};
  let failed = false;
  for (const file of process.argv.slice(2)) {
    const r = await replay(file);
    out[path.basename(file)] = r;
    failed = failed || r.failed.length > 0;
  }
  console.log(JSON.stringify(out));
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
