// The lesson's charts register here: mountCharts(engine, root) finds each chart slot
// (figure.chart-slot[data-chart]) under root and mounts its chart when it scrolls into view.
// window.positionalCharts.mountAll() (or ?charts=eager) mounts every pending chart at once.

import { failureText } from '../chart-kit/failure.js';
import { flushUrlState } from '../chart-kit/url-state.js';
import { paintMode, startPainter } from '../chart-kit/painter.js';
import { canvasPicture } from '../chart-kit/canvas.js';
import { CHART_DECLARATIONS } from './declarations.js';

/** The factory a chart's module exports: rope-clock.js → createRopeClockChart. */
export const factoryName = (id) => `create${id.replace(/(?:^|-)(\w)/g, (_, c) => c.toUpperCase())}Chart`;

// Each declared chart's drawing module, ./<id>.js, loaded (import()) only when its figure nears the
// viewport, with the engine module its declaration names in `engineModule` (the model card's
// config reader). The single-file build (esbuild) bundles every module the pattern can match.
const LOADERS = Object.fromEntries(
  Object.entries(CHART_DECLARATIONS).map(([id, { engineModule }]) => [
    id,
    (engine) =>
      Promise.all([import(`./${id}.js`), engineModule && engine[engineModule]()]).then(([module]) => {
        const create = module[factoryName(id)];
        if (typeof create !== 'function') throw new Error(`charts/${id}.js exports no ${factoryName(id)}`);
        return create;
      }),
  ]),
);

/**
 * Chart id (the slot's data-chart) → async factory(slot, engine) → the chart object
 * { update, set, state, controls, highlight, parts, destroy, … }. The factory loads the chart's
 * module first, and waits for the chart Worker where the address asks for it (?paint=worker).
 */
export const CHARTS = Object.fromEntries(
  Object.entries(LOADERS).map(([id, load]) => [
    id,
    async (slot, engine) => (await Promise.all([load(engine), startPainter()]))[0](slot, engine),
  ]),
);

/**
 * Chart id → its declared URL state: { title, controls (key → kind, label, default value, range),
 * aliases (older URL prefixes still read) }. The URL parameters are `<id>.<key>`; docs/contributing.md's
 * table and the browser suites' URL sweep are generated from this (declarations.js).
 */
export const CHART_CONTROLS = CHART_DECLARATIONS;

async function mountOne(slot, engine, mounted) {
  const id = slot.dataset.chart;
  if (mounted.has(id) || slot.dataset.chartState === 'mounted' || slot.dataset.chartState === 'loading') return;
  slot.dataset.chartState = 'loading';
  try {
    mounted.set(id, await CHARTS[id](slot, engine));
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
 * Returns { mounted: Map(id → chart), declarations, flushUrlState(), mountAll(), destroy() }, also kept as
 * window.positionalCharts.
 */
export function mountCharts(engine, root = document, { eager = false } = {}) {
  const mounted = new Map();
  const slots = [...root.querySelectorAll('[data-chart]')].filter((slot) => CHARTS[slot.dataset.chart]);
  const pending = new Set(slots);
  const loading = new Map(); // slot → the promise of its mount
  const mountSlot = (slot) => {
    pending.delete(slot);
    observer?.unobserve(slot);
    if (!loading.has(slot)) loading.set(slot, mountOne(slot, engine, mounted));
    return loading.get(slot);
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
    /** Where the charts paint: { mode: 'worker' | 'page' | 'starting', why } (painter.js). */
    paintMode,
    /**
     * Each canvas of chart `id` as ImageData, as the reader sees it (the chart Worker's latest paint,
     * or the page's canvas): what tests read pixels from.
     */
    async pixels(id) {
      const chart = mounted.get(id);
      if (!chart) throw new Error(`the chart "${id}" is not mounted`);
      chart.flush?.();
      return Promise.all(
        [...document.querySelectorAll(`[data-chart-root="${id}"] canvas.chart-canvas`)].map(api.canvasPixels),
      );
    },
    /** One chart canvas element's pixels as ImageData (see pixels). */
    async canvasPixels(canvas) {
      const picture = await canvasPicture(canvas);
      if (picture === canvas) return canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      const copy = document.createElement('canvas');
      copy.width = picture.width;
      copy.height = picture.height;
      const ctx = copy.getContext('2d');
      ctx.drawImage(picture, 0, 0);
      return ctx.getImageData(0, 0, copy.width, copy.height);
    },
    /** Every chart's declared controls and URL aliases (CHART_CONTROLS). */
    declarations: CHART_CONTROLS,
    /** Writes the charts' pending state to the address now, rather than when the reader pauses (as Copy link does). */
    flushUrlState,
    /** Mounts every chart still waiting to scroll into view (used by tests and printing); resolves to `mounted` once all are drawn. */
    async mountAll() {
      for (const slot of [...pending]) mountSlot(slot);
      await Promise.all(loading.values());
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
