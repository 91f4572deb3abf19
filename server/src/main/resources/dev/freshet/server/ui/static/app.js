// The page: the objects list refreshed every second, the selected query's detail, the SQL box.

import { getJson } from './api.js';
import { markSelected, onObjectClick, queryName, renderOverview } from './objects.js';
import { QueryDetail } from './detail.js';
import { SqlBox } from './sqlbox.js';

/** How often the list of streams, views, sinks and queries is asked for. */
const REFRESH_MS = 1000;

const detail = new QueryDetail();
new SqlBox();

onObjectClick((name) => {
  // The selection lives in the address, so a reload (or a shared link) shows the same query.
  window.location.hash = `query=${encodeURIComponent(name)}`;
});
window.addEventListener('hashchange', selectFromAddress);
selectFromAddress();
refresh();

function selectFromAddress() {
  const match = /^#query=(.+)$/.exec(window.location.hash);
  if (match) {
    const name = decodeURIComponent(match[1]);
    detail.select(name);
    markSelected(name);
  }
}

async function refresh() {
  const connection = document.querySelector('#connection');
  try {
    const overview = await getJson('/api/overview');
    renderOverview(overview, detail.name);
    if (typeof overview.engine === 'string') {
      document.querySelector('#engine-name').textContent = overview.engine;
    }
    detail.update((overview.queries || []).find((query) => queryName(query) === detail.name));
    connection.dataset.state = 'connected';
    connection.textContent = 'live';
  } catch (error) {
    connection.dataset.state = 'disconnected';
    connection.textContent = `not connected: ${error.message}`;
  }
  setTimeout(refresh, REFRESH_MS);
}
