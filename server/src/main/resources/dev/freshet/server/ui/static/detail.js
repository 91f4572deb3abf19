// The selected query: its SQL, plan and status, and its charts fed by polling its progress.

import { ApiError, getJson } from './api.js';
import { ProgressCharts } from './charts.js';

/** How often the progress of the selected query is asked for. */
const POLL_MS = 500;

/** The detail panel; one query at a time. */
export class QueryDetail {
  constructor() {
    this.panel = document.querySelector('#detail');
    this.hint = document.querySelector('#detail-hint');
    this.charts = new ProgressCharts(document.querySelector('#charts'));
    this.name = null;
    // Each selection gets a new controller: answers for an earlier selection are dropped.
    this.selection = new AbortController();
  }

  /** Shows the query called name (a view's query has the view's name) and follows it. */
  select(name) {
    if (name === this.name) {
      return;
    }
    this.selection.abort();
    this.selection = new AbortController();
    this.name = name;
    this.panel.hidden = false;
    this.hint.hidden = true;
    this.panel.dataset.name = name;
    text('#detail-name', name);
    text('#detail-kind', '');
    text('#detail-sql', '');
    text('#detail-plan', '');
    text('#detail-watermark', '');
    this.showStatus('', null);
    this.charts.reset();
    this.load(name, this.selection.signal);
    this.poll(name, -1, this.selection.signal);
  }

  /** Updates the status and last error from the overview's entry for this query. */
  update(query) {
    if (query) {
      this.showStatus(query.status, query.lastError);
    }
  }

  async load(name, signal) {
    try {
      const query = await getJson(`/api/queries/${encodeURIComponent(name)}`, signal);
      text('#detail-kind', query.kind || '');
      text('#detail-sql', query.sql || '');
      text('#detail-plan', query.plan || '');
      this.showStatus(query.status, query.lastError);
    } catch (error) {
      if (!signal.aborted) {
        this.showStatus('', describe(error));
      }
    }
  }

  /** Asks for the batches after the last one plotted, again and again until unselected. */
  async poll(name, after, signal) {
    let last = after;
    while (!signal.aborted) {
      try {
        const progress = await getJson(
          `/api/queries/${encodeURIComponent(name)}/progress?after=${last}`, signal);
        const batches = (progress.batches || []).filter((batch) => batch.batchId > last);
        if (!signal.aborted && batches.length > 0) {
          this.charts.append(batches);
          last = batches[batches.length - 1].batchId;
          this.showWatermark(batches[batches.length - 1]);
        }
      } catch (error) {
        if (signal.aborted) {
          return;
        }
        if (error instanceof ApiError && error.sqlState) {
          // The query is gone (dropped, or a push query that ended): nothing more will come.
          this.showStatus('GONE', describe(error));
          return;
        }
        // The server did not answer (restarting, say): try again at the next tick.
      }
      await pause(POLL_MS, signal);
    }
  }

  /** The watermark the last batch ran with, and how far it trailed the batch's time. */
  showWatermark(batch) {
    text('#detail-watermark', batch.watermark == null ? ''
      : `Watermark ${utc(batch.watermark)}, ${(batch.watermarkLagMs / 1000).toFixed(1)} s`
        + ` behind batch ${batch.batchId}`);
  }

  showStatus(status, lastError) {
    const element = document.querySelector('#detail-status');
    element.textContent = status || '';
    element.dataset.status = status || '';
    const error = document.querySelector('#detail-error');
    error.textContent = lastError || '';
    error.hidden = !lastError;
  }
}

function text(selector, value) {
  document.querySelector(selector).textContent = value;
}

/** An instant as 2026-12-02 11:10:27.123 UTC: event times are UTC. */
function utc(ms) {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', ' UTC');
}

function describe(error) {
  return error.sqlState ? `${error.sqlState}: ${error.message}` : error.message;
}

function pause(ms, signal) {
  return new Promise((resolve) => {
    const aborted = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    signal.addEventListener('abort', aborted, { once: true });
  });
}
