// The lesson's charts register here: mountCharts(engine, root) finds each chart slot
// (figure.chart-slot[data-chart]) under root and mounts its chart when it scrolls into view.
// window.positionalCharts.mountAll() (or ?charts=eager) mounts every pending chart at once.

import { createAlibiChart, CONTROLS as AlibiControls } from './alibi.js';
import {
  createAttentionWeightsChart,
  CONTROLS as AttentionWeightsControls,
  URL_ALIASES as AttentionWeightsAliases,
} from './attention-weights.js';
import {
  createContextExtensionChart,
  CONTROLS as ContextExtensionControls,
  URL_ALIASES as ContextExtensionAliases,
} from './context-extension.js';
import { createModelCardChart, CONTROLS as ModelCardControls, URL_ALIASES as ModelCardAliases } from './model-card.js';
import { createConventionsChart, CONTROLS as ConventionsControls } from './conventions.js';
import {
  createOrderBlindnessChart,
  CONTROLS as OrderBlindnessControls,
  URL_ALIASES as OrderBlindnessAliases,
} from './order-blindness.js';
import { createPrecisionChart, CONTROLS as PrecisionControls } from './precision.js';
import { createRopeClockChart, CONTROLS as RopeClockControls, URL_ALIASES as RopeClockAliases } from './rope-clock.js';
import {
  createRopeFrequenciesChart,
  CONTROLS as RopeFrequenciesControls,
  URL_ALIASES as RopeFrequenciesAliases,
} from './rope-frequencies.js';
import {
  createRopeRelativeChart,
  CONTROLS as RopeRelativeControls,
  URL_ALIASES as RopeRelativeAliases,
} from './rope-relative.js';
import { failureText } from '../chart-kit/shell.js';
import {
  createSinusoidalHeatmapChart,
  CONTROLS as SinusoidalHeatmapControls,
  URL_ALIASES as SinusoidalHeatmapAliases,
} from './sinusoidal-heatmap.js';

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

/**
 * Chart id → its declared URL state: { controls (key → kind, label, default value, range), aliases
 * (older URL prefixes still read) }. The URL parameters are `<id>.<key>`; the README's table and the
 * browser suites' URL sweep are generated from this.
 */
export const CHART_CONTROLS = {
  alibi: { controls: AlibiControls, aliases: [] },
  'attention-weights': { controls: AttentionWeightsControls, aliases: AttentionWeightsAliases },
  'context-extension': { controls: ContextExtensionControls, aliases: ContextExtensionAliases },
  'model-card': { controls: ModelCardControls, aliases: ModelCardAliases },
  conventions: { controls: ConventionsControls, aliases: [] },
  'order-blindness': { controls: OrderBlindnessControls, aliases: OrderBlindnessAliases },
  precision: { controls: PrecisionControls, aliases: [] },
  'rope-clock': { controls: RopeClockControls, aliases: RopeClockAliases },
  'rope-frequencies': { controls: RopeFrequenciesControls, aliases: RopeFrequenciesAliases },
  'rope-relative': { controls: RopeRelativeControls, aliases: RopeRelativeAliases },
  'sinusoidal-heatmap': { controls: SinusoidalHeatmapControls, aliases: SinusoidalHeatmapAliases },
};

function mountOne(slot, engine, mounted) {
  const id = slot.dataset.chart;
  if (mounted.has(id) || slot.dataset.chartState === 'mounted') return;
  try {
    mounted.set(id, CHARTS[id](slot, engine));
    slot.dataset.chartState = 'mounted';
  } catch (error) {
    slot.dataset.chartState = 'failed';
    // Never a blank: the slot says what happened, as text; the rest of the page carries on.
    const note = document.createElement('p');
    note.className = 'chart-error';
    note.setAttribute('role', 'alert');
    note.textContent = failureText(error);
    (slot.querySelector(':scope > .chart-mount') ?? slot).replaceChildren(note);
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
  const now =
    eager ||
    new URLSearchParams(location.search).get('charts') === 'eager' ||
    typeof IntersectionObserver === 'undefined';
  const observer = now
    ? null
    : new IntersectionObserver((entries) => entries.forEach((e) => e.isIntersecting && mountSlot(e.target)), {
        rootMargin: '300px 0px',
      });
  for (const slot of slots) {
    slot.dataset.chartState = 'pending';
    if (observer) observer.observe(slot);
    else mountSlot(slot);
  }
  const api = {
    mounted,
    /** Every chart's declared controls and URL aliases (CHART_CONTROLS). */
    declarations: CHART_CONTROLS,
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
