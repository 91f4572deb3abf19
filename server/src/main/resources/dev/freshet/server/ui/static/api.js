// The JSON and event-stream endpoints under /api/ (same origin: the browser's Origin passes,
// and the page's credentials go along).

/** An error the server answered with: its SQLSTATE and message. */
export class ApiError extends Error {
  constructor(sqlState, message) {
    super(message);
    this.sqlState = sqlState;
  }
}

/** GET path, answering its JSON; an ApiError for an error answer. */
export async function getJson(path, signal) {
  const response = await fetch(path, { headers: { Accept: 'application/json' }, signal });
  if (!response.ok) {
    throw await errorOf(response);
  }
  return response.json();
}

async function errorOf(response) {
  const text = await response.text();
  try {
    const body = JSON.parse(text);
    if (body && typeof body.message === 'string') {
      return new ApiError(body.sqlState || '', body.message);
    }
  } catch (notJson) {
    // Falls through: an answer that is not the API's error shape (a proxy's page, say).
  }
  return new ApiError('', `HTTP ${response.status}: ${text.slice(0, 200)}`);
}

/**
 * Runs one statement. A plain statement's JSON answer goes to handlers.result; a push query's
 * event stream goes to handlers.columns, handlers.rows and handlers.error as its events arrive,
 * until the stream ends or signal aborts the fetch (which stops the query on the server).
 */
export async function runSql(sql, signal, handlers) {
  const response = await fetch('/api/sql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ sql }),
    signal,
  });
  if (!response.ok) {
    throw await errorOf(response);
  }
  const type = response.headers.get('Content-Type') || '';
  if (!type.startsWith('text/event-stream')) {
    handlers.result(await response.json());
    return;
  }
  handlers.streaming();
  await readEventStream(response.body, (event, data) => {
    if (event === 'columns') {
      handlers.columns(JSON.parse(data));
    } else if (event === 'rows') {
      handlers.rows(JSON.parse(data));
    } else if (event === 'error') {
      const error = JSON.parse(data);
      handlers.error(new ApiError(error.sqlState || '', error.message));
    }
  });
}

/**
 * Reads a text/event-stream body, calling onEvent(name, data) per event; comments (the
 * server's keepalives) are skipped. Resolves when the body ends.
 */
async function readEventStream(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  // A CR that ends a chunk may be half of a CRLF: it waits for the next chunk.
  let carried = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      return;
    }
    let text = carried + value;
    carried = text.endsWith('\r') ? '\r' : '';
    text = carried ? text.slice(0, -1) : text;
    buffered += text.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      dispatch(buffered.slice(0, end), onEvent);
      buffered = buffered.slice(end + 2);
    }
  }
}

function dispatch(block, onEvent) {
  let event = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') {
      event = value;
    } else if (field === 'data') {
      data.push(value);
    }
  }
  if (data.length > 0) {
    onEvent(event, data.join('\n'));
  }
}
