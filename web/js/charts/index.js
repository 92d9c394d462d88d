// The lesson's charts register here: mountCharts(engine, root) finds each chart slot
// (figure.chart-slot[data-chart]) under root and mounts its chart when it scrolls into view.
// window.positionalCharts.mountAll() (or ?charts=eager) mounts every pending chart at once.

import { createAlibiChart } from './alibi.js';
import { createAttentionWeightsChart } from './attention-weights.js';
import { createContextExtensionChart } from './context-extension.js';
import { createModelCardChart } from './model-card.js';
import { createConventionsChart } from './conventions.js';
import { createOrderBlindnessChart } from './order-blindness.js';
import { createPrecisionChart } from './precision.js';
import { createRopeClockChart } from './rope-clock.js';
import { createRopeFrequenciesChart } from './rope-frequencies.js';
import { createRopeRelativeChart } from './rope-relative.js';
import { createSinusoidalHeatmapChart } from './sinusoidal-heatmap.js';

/** Chart id (the slot's data-chart) → factory(slot, engine) → { update(state), destroy() }. */
export const CHARTS = {
  'order-blindness': createOrderBlindnessChart,
  'sinusoidal-heatmap': createSinusoidalHeatmapChart,
  'rope-relative': createRopeRelativeChart,
  'rope-frequencies': createRopeFrequenciesChart,
  'context-extension': createContextExtensionChart,
  'rope-clock': createRopeClockChart,
  'attention-weights': createAttentionWeightsChart,
  alibi: createAlibiChart,
  conventions: createConventionsChart,
  precision: createPrecisionChart,
  'model-card': createModelCardChart,
};

function mountOne(slot, engine, mounted) {
  const id = slot.dataset.chart;
  if (mounted.has(id) || slot.dataset.chartState === 'mounted') return;
  try {
    mounted.set(id, CHARTS[id](slot, engine));
    slot.dataset.chartState = 'mounted';
  } catch (error) {
    slot.dataset.chartState = 'failed';
    console.warn(`The chart "${id}" could not be drawn:`, error);
  }
}

/**
 * Mounts every known chart under `root` with the loaded engine. Charts mount when their slot
 * comes near the viewport (IntersectionObserver); `eager` (or ?charts=eager) mounts all now.
 * Returns { mounted: Map(id → chart), mountAll(), destroy() }, also kept as window.positionalCharts.
 */
export function mountCharts(engine, root = document, { eager = false } = {}) {
  const mounted = new Map();
  const slots = [...root.querySelectorAll('[data-chart]')].filter((slot) => CHARTS[slot.dataset.chart]);
  const pending = new Set(slots);
  const mountSlot = (slot) => {
    pending.delete(slot);
    observer?.unobserve(slot);
    mountOne(slot, engine, mounted);
  };
  const now = eager || new URLSearchParams(location.search).get('charts') === 'eager' || typeof IntersectionObserver === 'undefined';
  const observer = now
    ? null
    : new IntersectionObserver((entries) => entries.forEach((e) => e.isIntersecting && mountSlot(e.target)), { rootMargin: '300px 0px' });
  for (const slot of slots) {
    slot.dataset.chartState = 'pending';
    if (observer) observer.observe(slot);
    else mountSlot(slot);
  }
  const api = {
    mounted,
    /** Mounts every chart still waiting to scroll into view (used by tests and printing). */
    mountAll() {
      for (const slot of [...pending]) mountSlot(slot);
      return mounted;
    },
    destroy() {
      observer?.disconnect();
      for (const chart of mounted.values()) chart.destroy();
      mounted.clear();
    },
  };
  addEventListener('beforeprint', api.mountAll);
  if (typeof window !== 'undefined') window.positionalCharts = api;
  return api;
}
