// The SQL box: runs a statement and shows its rows, its update count, its error, or a push
// query's rows as they arrive until Stop.

import { runSql } from './api.js';

/** Rows kept in the table: a push query may run for hours. */
const MAX_ROWS = 500;

/** The SQL box's elements and the statement it runs, one at a time. */
export class SqlBox {
  constructor() {
    this.input = document.querySelector('#sql-input');
    this.runButton = document.querySelector('#sql-run');
    this.stopButton = document.querySelector('#sql-stop');
    this.status = document.querySelector('#sql-status');
    this.error = document.querySelector('#sql-error');
    this.table = document.querySelector('#sql-result');
    this.running = null;
    this.received = 0;
    this.runButton.addEventListener('click', () => this.run());
    this.stopButton.addEventListener('click', () => this.stop());
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.run();
      }
    });
  }

  /** Runs the box's statement, stopping the one running, if any. */
  async run() {
    const sql = this.input.value.trim();
    if (!sql) {
      return;
    }
    this.stop();
    const running = new AbortController();
    this.running = running;
    this.received = 0;
    this.showError(null);
    this.showColumns([]);
    this.setStatus('running', 'Running…');
    this.stopButton.disabled = false;
    const current = () => this.running === running;
    try {
      await runSql(sql, running.signal, {
        result: (answer) => current() && this.showResult(answer),
        streaming: () => current() && this.setStatus('streaming', 'Push query running: 0 rows'),
        columns: (columns) => current() && this.showColumns(columns),
        rows: (rows) => current() && this.addRows(rows),
        error: (error) => current() && this.showError(error),
      });
      if (current() && this.status.dataset.state === 'streaming') {
        this.setStatus('ended', `Push query ended after ${this.received} rows`);
      }
    } catch (error) {
      if (running.signal.aborted) {
        return;
      }
      if (current()) {
        this.showError(error);
      }
    } finally {
      if (current()) {
        this.running = null;
        this.stopButton.disabled = true;
      }
    }
  }

  /** Stops the running statement: aborting its fetch stops a push query on the server. */
  stop() {
    if (this.running) {
      this.running.abort();
      this.running = null;
      this.stopButton.disabled = true;
      if (this.status.dataset.state === 'streaming' || this.status.dataset.state === 'running') {
        this.setStatus('stopped', `Stopped after ${this.received} rows`);
      }
    }
  }

  showResult(answer) {
    if (typeof answer.updateCount === 'number') {
      this.setStatus('done', `${answer.updateCount} row${answer.updateCount === 1 ? '' : 's'}`
        + ' updated');
      return;
    }
    this.showColumns(answer.columns || []);
    this.addRows(answer.rows || []);
    this.setStatus('done', `${this.received} row${this.received === 1 ? '' : 's'}`
      + (answer.truncated ? ' (truncated: the server sent the first ones only)' : ''));
  }

  showColumns(columns) {
    const head = document.createElement('tr');
    for (const column of columns) {
      const cell = document.createElement('th');
      cell.textContent = column.name;
      cell.title = column.type;
      head.append(cell);
    }
    this.table.tHead.replaceChildren(...(columns.length ? [head] : []));
    this.table.tBodies[0].replaceChildren();
    this.table.dataset.rows = '0';
  }

  /**
   * Adds rows: a push query's newest rows come first (so they show without scrolling), each
   * arrival in the order the server sent it.
   */
  addRows(rows) {
    const body = this.table.tBodies[0];
    const added = rows.map((values) => {
      const row = document.createElement('tr');
      for (const value of values) {
        const cell = document.createElement('td');
        if (value === null) {
          cell.className = 'null';
          cell.textContent = 'NULL';
        } else {
          cell.textContent = typeof value === 'object' ? JSON.stringify(value) : String(value);
        }
        row.append(cell);
      }
      return row;
    });
    if (this.status.dataset.state === 'streaming') {
      body.prepend(...added);
    } else {
      body.append(...added);
    }
    while (body.rows.length > MAX_ROWS) {
      body.lastElementChild.remove();
    }
    this.received += rows.length;
    this.table.dataset.rows = String(body.rows.length);
    if (this.status.dataset.state === 'streaming') {
      this.status.textContent = `Push query running: ${this.received} rows`
        + (this.received > MAX_ROWS ? ` (the newest ${MAX_ROWS} shown)` : '');
    }
  }

  showError(error) {
    this.error.replaceChildren();
    this.error.hidden = !error;
    if (!error) {
      return;
    }
    if (error.sqlState) {
      const state = document.createElement('code');
      state.className = 'sql-state';
      state.textContent = error.sqlState;
      this.error.append(state, ' ');
    }
    this.error.append(error.message);
    this.error.dataset.sqlState = error.sqlState || '';
    this.setStatus('error', 'Failed');
  }

  setStatus(state, message) {
    this.status.dataset.state = state;
    this.status.textContent = message;
  }
}
