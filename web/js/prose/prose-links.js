// Words of the prose linked to parts of a figure ({{part:CHART/PART|TEXT}} in lesson.md): pointing at
// or focusing them highlights that part of the chart (chart.highlight(part), highlight(null) on
// leave), and the chart's own `chart-part` events (the reader pointing into the figure) mark the words
// that name the same part. A chart not yet mounted (charts load near the viewport) takes the
// highlight that is wanted when it arrives.
import { mountedChart, watchChartMounts } from './prose-charts.js';

const POINTED = 'is-pointed';

/** Sets up every .part-link under `root`. Returns { wanted } (chart id → part) for tests. */
export function setupProseLinks(root) {
  const links = [...root.querySelectorAll('.part-link[data-part-chart]')];
  const wanted = new Map(); // chart id → the part the prose asks for (null: none)

  const mark = (chart, part) => {
    for (const link of links) {
      if (link.dataset.partChart === chart) link.classList.toggle(POINTED, part !== null && link.dataset.part === part);
    }
  };

  const highlight = (id, part) => {
    wanted.set(id, part);
    mark(id, part);
    const chart = mountedChart(id);
    if (!chart?.highlight) return;
    try {
      chart.highlight(part);
    } catch (error) {
      // The build checked every link against the chart's parts; a chart that changed since says so here.
      console.warn(`The text links to a part "${part}" of the chart "${id}" that it does not draw:`, error);
    }
  };

  for (const link of links) {
    const { partChart: id, part } = link.dataset;
    const on = () => highlight(id, part);
    const off = () => {
      if (wanted.get(id) === part) highlight(id, null);
    };
    link.addEventListener('pointerenter', on);
    link.addEventListener('focus', on);
    link.addEventListener('pointerleave', () => {
      if (document.activeElement !== link) off();
    });
    link.addEventListener('blur', off);
  }

  // The reader pointing into a figure marks the words naming what is under the pointer.
  (root.body ?? root).addEventListener('chart-part', (event) => {
    const { chart, part } = event.detail ?? {};
    if (typeof chart === 'string') mark(chart, part ?? null);
  });

  watchChartMounts(root.body ?? root, (id, chart) => {
    const part = wanted.get(id);
    if (part && chart.highlight) highlight(id, part);
  });
  return { wanted };
}
