// Live charts of a query's batches (uPlot, loaded as the global uPlot by index.html).

/** Points kept per chart: the last few minutes of a query running a batch a second. */
const MAX_POINTS = 300;

const COMPACT = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** The charts: a title and, per line, its label, its value in a batch and its colour. */
const CHARTS = [
  { title: 'Rows per second', lines: [
    { label: 'input rows/s', value: (b) => b.inputRowsPerSecond, colour: '#1f77b4' },
    { label: 'processed rows/s', value: (b) => b.processedRowsPerSecond, colour: '#ff7f0e' },
  ] },
  { title: 'Batch duration (ms)', lines: [
    { label: 'duration ms', value: (b) => b.durationMs, colour: '#2ca02c' },
  ] },
  { title: 'State rows', lines: [
    { label: 'state rows', value: (b) => b.stateRows, colour: '#9467bd' },
  ] },
  { title: 'Watermark lag (ms)', lines: [
    { label: 'lag ms', value: (b) => b.watermarkLagMs, colour: '#8c564b' },
  ] },
  { title: 'Late rows', lines: [
    { label: 'late rows', value: (b) => b.lateRows, colour: '#d62728' },
  ] },
];

/**
 * The charts of one query, in container, which carries data-batches: the number of batches
 * plotted (at most MAX_POINTS).
 */
export class ProgressCharts {
  constructor(container) {
    this.container = container;
    this.plots = [];
    this.times = [];
    this.series = CHARTS.map((chart) => chart.lines.map(() => []));
    new ResizeObserver(() => this.resize()).observe(container);
  }

  /** Forgets every point and draws empty charts (a new query was selected). */
  reset() {
    for (const plot of this.plots) {
      plot.destroy();
    }
    this.container.replaceChildren();
    this.times = [];
    this.series = CHARTS.map((chart) => chart.lines.map(() => []));
    this.plots = CHARTS.map((chart, i) => {
      const box = document.createElement('div');
      box.className = 'chart';
      this.container.append(box);
      return new uPlot(options(chart, box), this.data(i), box);
    });
    this.container.dataset.batches = '0';
  }

  /** Adds batches (ascending, newer than those plotted) and redraws. */
  append(batches) {
    if (batches.length === 0) {
      return;
    }
    for (const batch of batches) {
      this.times.push(batch.timestamp / 1000);
      CHARTS.forEach((chart, i) => chart.lines.forEach((line, j) => {
        this.series[i][j].push(numberOrNull(line.value(batch)));
      }));
    }
    const extra = this.times.length - MAX_POINTS;
    if (extra > 0) {
      this.times.splice(0, extra);
      this.series.forEach((lines) => lines.forEach((points) => points.splice(0, extra)));
    }
    this.plots.forEach((plot, i) => plot.setData(this.data(i)));
    this.container.dataset.batches = String(this.times.length);
  }

  data(i) {
    return [this.times, ...this.series[i]];
  }

  resize() {
    for (const plot of this.plots) {
      const width = plot.root.parentElement.clientWidth;
      if (width > 0 && width !== plot.width) {
        plot.setSize({ width, height: plot.height });
      }
    }
  }
}

function options(chart, box) {
  return {
    title: chart.title,
    width: Math.max(box.clientWidth, 200),
    height: 160,
    scales: { x: { time: true } },
    // Compact numbers (25K, 1.2M) so that large counts fit beside the chart.
    axes: [{}, { values: (plot, splits) => splits.map((n) => COMPACT.format(n)), size: 48 }],
    series: [
      {},
      ...chart.lines.map((line) => ({
        label: line.label,
        stroke: line.colour,
        width: 2,
        points: { show: true, size: 4 },
      })),
    ],
  };
}

/** A value uPlot can draw: a finite number, or null for a gap (no watermark yet, say). */
function numberOrNull(value) {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
