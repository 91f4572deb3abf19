// The list of streams, views, sinks and queries, from GET /api/overview.

/**
 * Renders an overview into the four tables. A row carries data-name (and queries
 * data-status); the selected query's row is marked aria-selected.
 */
export function renderOverview(overview, selected) {
  fill('#streams', overview.streams || [], (stream) => [
    stream.name,
    stream.connector,
    (stream.columns || []).map((column) => `${column.name} ${column.type}`).join(', '),
  ]);
  fill('#views', overview.views || [], (view) => [view.name, view.outputMode],
    (row) => row.classList.add('selectable'));
  fill('#sinks', overview.sinks || [], (sink) => [sink.name]);
  fill('#queries', overview.queries || [], (query) => [
    queryName(query),
    query.kind,
    query.status,
    query.lastBatchId ?? '',
    query.lastError ?? '',
  ], (row, query) => {
    row.dataset.status = query.status || '';
    row.classList.add('selectable');
    if (query.lastError) {
      row.title = query.lastError;
      row.classList.add('failed');
    }
  });
  markSelected(selected);
}

/** The name a query is shown and looked up by: a push query may have its id only. */
export function queryName(query) {
  return query.name || query.id;
}

/** Marks the rows of the selected name (a view and its query share it). */
export function markSelected(selected) {
  for (const row of document.querySelectorAll('#objects tbody tr')) {
    row.setAttribute('aria-selected', String(row.dataset.name === selected));
  }
}

/** Calls onSelect(name) when a view's or a query's row is clicked. */
export function onObjectClick(onSelect) {
  for (const table of ['#views', '#queries']) {
    document.querySelector(table).addEventListener('click', (event) => {
      const row = event.target.closest('tr[data-name]');
      if (row) {
        onSelect(row.dataset.name);
      }
    });
  }
}

function fill(table, items, cells, decorate) {
  const body = document.querySelector(`${table} tbody`);
  const rows = items.map((item) => {
    const row = document.createElement('tr');
    const values = cells(item);
    row.dataset.name = values[0];
    for (const value of values) {
      const cell = document.createElement('td');
      cell.textContent = value ?? '';
      row.append(cell);
    }
    if (decorate) {
      decorate(row, item);
    }
    return row;
  });
  if (rows.length === 0) {
    const row = document.createElement('tr');
    const cell = document.createElement('td');
    cell.colSpan = body.closest('table').querySelectorAll('th').length;
    cell.className = 'none';
    cell.textContent = 'none';
    row.append(cell);
    rows.push(row);
  }
  if (!sameRows(body.rows, rows)) {
    body.replaceChildren(...rows);
  }
}

/**
 * Whether the table already shows these rows: then it is left alone, so that a refresh every
 * second does not replace the row under the mouse between a press and its release.
 */
function sameRows(shown, rows) {
  return shown.length === rows.length && rows.every((row, i) => row.outerHTML
    === shown[i].outerHTML.replace(/ aria-selected="(true|false)"/, ''));
}
