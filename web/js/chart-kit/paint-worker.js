// The chart Worker: paints the charts' canvases off the page's main thread (the page's side and the
// messages are in painter.js). It holds each mounted chart's canvases (OffscreenCanvas), the parts of
// its data the page sent, and the parts marked `paint` it computes from them (a heatmap's picture);
// each canvas is painted with the chart's own draw(), as the page would paint it, through the same
// paintCanvas. Frames are coalesced: whatever arrives while a paint runs, only each canvas's latest
// frame is painted next.
import { useLanguage } from '../locale/i18n.js';

let kit = null; // what paints (canvas.js, define-chart.js), once every chart's drawing is loaded
const mounts = new Map(); // mount → { chart, compute, canvases, frames (index → frame), data, seen, changed, layout }
let scheduled = 0;
let colorsKey = '';

async function start({ language }) {
  // Before any chart module runs: their labels are translated when they load.
  useLanguage(language);
  const [{ paintCanvas, themeChanged }, { definedChart, partInputs, isStale }, { CHART_DECLARATIONS }] =
    await Promise.all([import('./canvas.js'), import('./define-chart.js'), import('../charts/declarations.js')]);
  await Promise.all(Object.keys(CHART_DECLARATIONS).map((id) => import(`../charts/${id}.js`)));
  kit = { paintCanvas, themeChanged, definedChart, partInputs, isStale };
  self.postMessage({ kind: 'ready' });
}

function mountOf(mount, chart) {
  let m = mounts.get(mount);
  if (!m) {
    const { spec, compute } = kit.definedChart(chart);
    m = { chart, spec, compute, canvases: [], frames: new Map(), data: {}, seen: {}, changed: new Set(), layout: {} };
    mounts.set(mount, m);
  }
  return m;
}

/** The parts marked `paint` whose inputs changed: computed here from the parts the page sent. */
function computePaintParts(m, { state, size }) {
  for (const [name, part] of m.compute) {
    // A frame painted before the chart's first computation has none of the parts a picture is made from.
    if (!part.paint || (part.after ?? []).some((other) => m.data[other] === undefined)) continue;
    const inputs = kit.partInputs(part, state, size);
    if (!kit.isStale(part, inputs, m.seen[name], m.changed)) continue;
    m.data[name] = part.run(state, null, m.data, size);
    m.seen[name] = inputs;
    m.changed.add(name);
  }
  m.changed.clear();
}

function paintFrame(m, index, frame) {
  const canvas = m.canvases[index];
  if (!canvas) return;
  const { width, height, ratio, colors, state, highlighted, marks, size } = frame;
  const key = JSON.stringify(colors);
  if (key !== colorsKey) {
    colorsKey = key;
    kit.themeChanged();
  }
  computePaintParts(m, frame);
  const w = Math.round(width * ratio);
  const h = Math.round(height * ratio);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const view = { state, data: m.data, highlighted, layout: m.layout, marks, size };
  const { draw } = m.spec.canvases[index];
  kit.paintCanvas(contextOf(canvas), {
    width,
    height,
    ratio,
    colors,
    draw: (ctx, cssWidth, cssHeight, palette) => draw(ctx, cssWidth, cssHeight, palette, view),
  });
}

// Each canvas's context, asked for once: Firefox 153 threw on later getContext() calls of some
// transferred canvases ("Cannot update created context to different thread"), and left them blank.
const contexts = new WeakMap();
function contextOf(canvas) {
  let ctx = contexts.get(canvas);
  if (!ctx) contexts.set(canvas, (ctx = canvas.getContext('2d')));
  return ctx;
}

/** Paints each canvas's latest frame (of one mount, or of all). */
function drain(only = null) {
  for (const [mount, m] of mounts) {
    if (only !== null && mount !== only) continue;
    for (const [index, frame] of m.frames) {
      m.frames.delete(index);
      try {
        paintFrame(m, index, frame);
      } catch (error) {
        self.postMessage({ kind: 'failed', chart: m.chart, message: `${error}\n${error?.stack ?? ''}` });
      }
    }
  }
}

// Paints at the Worker's animation frame, where the engine presents what a transferred canvas drew.
const nextFrame =
  typeof self.requestAnimationFrame === 'function' ? (fn) => self.requestAnimationFrame(fn) : setTimeout;

function schedule() {
  if (scheduled) return;
  scheduled = nextFrame(() => {
    scheduled = 0;
    drain();
  });
}

self.addEventListener('message', ({ data: message }) => {
  switch (message.kind) {
    case 'start':
      start(message).catch((error) =>
        self.postMessage({ kind: 'failed', chart: '(all)', message: String(error?.stack ?? error) }),
      );
      break;
    case 'canvas':
      mountOf(message.mount, message.chart).canvases[message.index] = message.canvas;
      break;
    case 'paint': {
      const m = mounts.get(message.mount);
      if (!m) break;
      Object.assign(m.data, message.parts);
      for (const name of Object.keys(message.parts)) m.changed.add(name);
      m.frames.set(message.index, message.frame);
      schedule();
      break;
    }
    case 'snapshot': {
      const m = mounts.get(message.mount);
      drain(message.mount);
      const canvas = m?.canvases[message.index];
      const bitmap = canvas ? copyOf(canvas).transferToImageBitmap() : null;
      self.postMessage({ kind: 'snapshot', ask: message.ask, bitmap }, bitmap ? [bitmap] : []);
      break;
    }
    case 'forget':
      mounts.delete(message.mount);
      break;
  }
});

/** A copy of `canvas`'s pixels on an OffscreenCanvas of its own (whose bitmap can be handed over without clearing the canvas). */
function copyOf(canvas) {
  const copy = new OffscreenCanvas(canvas.width, canvas.height);
  copy.getContext('2d').drawImage(canvas, 0, 0);
  return copy;
}
