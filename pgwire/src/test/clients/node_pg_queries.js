// node-postgres (npm's pg): connect, a plain query (simple protocol), a parameterized one and a
// named prepared one (extended protocol). Connects with libpq's environment variables (PGHOST,
// PGPORT, PGUSER, PGPASSWORD, PGDATABASE), which pg reads too, and prints the rows as one JSON
// object. Each action is preceded by SELECT 'freshet-corpus-action:<name>' (see CorpusCapture).
//
// Run with NODE_PATH naming the node_modules that ./run-tests fills:
//   NODE_PATH=pgwire/target/node-clients/node_modules node node_pg_queries.js
const { Client } = require('pg');

async function main() {
  const client = new Client();
  await client.connect();
  const action = (name) => client.query(`SELECT 'freshet-corpus-action:${name}'`);
  const found = { pg: require('pg/package.json').version };
  await action('simple');
  found.one = (await client.query('SELECT 1 AS one')).rows;
  await action('parameterized');
  found.user1 = (await client.query('SELECT id, name FROM users WHERE id = $1', [1])).rows;
  await action('named prepared');
  for (const id of [2, 3]) {
    const r = await client.query({
      name: 'user-by-id', text: 'SELECT id, name FROM users WHERE id = $1', values: [id] });
    found['user' + id] = r.rows;
  }
  await action('text and numeric parameters');
  found.clicks = (await client.query(
      'SELECT user_id, amount FROM clicks WHERE user_id = $1 AND amount > $2 ORDER BY amount',
      ['alice', 1.5])).rows;
  await client.end();
  console.log(JSON.stringify(found));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
