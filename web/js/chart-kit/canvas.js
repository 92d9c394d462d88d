// The canvas lifecycle every chart shares: a crisp canvas at any devicePixelRatio, redrawn on
// resize and on theme change, with the theme's colours read from CSS custom properties; painted on
// the page or, where the page has a chart Worker (painter.js), in it.

import { createLayoutContext } from './layout-context.js';

/** The font stack every chart draws its text in. */
export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** The chart palette, read from CSS custom properties on `element` (see web/css/charts.css). */
export function themeColors(element) {
  const css = getComputedStyle(element);
  const get = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  return {
    fg: get('--chart-fg', '#111827'),
    muted: get('--chart-muted', '#6b7280'),
    grid: get('--chart-grid', '#e5e7eb'),
    bg: get('--chart-bg', '#ffffff'),
    red: get('--chart-red', '#dc2626'),
    blue: get('--chart-blue', '#2563eb'),
    grey: get('--chart-grey', '#9ca3af'),
    black: get('--chart-black', '#111827'),
    cycle: [1, 2, 3, 4, 5, 6].map((i) =>
      get(`--chart-c${i}`, ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b'][i - 1]),
    ),
  };
}

// The draw in progress (draws are synchronous, one at a time): what the chart kit has laid out in it.
let drawing = null;

// Each canvas's cached layers (see drawCached), by the order of the cached drawings within a draw.
const layersOf = new WeakMap();
// Bumped on every theme change: a layer drawn in the other theme's colours is never blitted.
let themeGeneration = 0;

/**
 * The record of the draw in progress, for the chart kit's drawing functions to add to, or null
 * outside a draw: { width, height (CSS px), need (the canvas height its plots ask for; 0 for no
 * wish), panels: [{ x, y, w, h }] (plot frames with axes), legends: [{ x, y, w, h, items: [{ label,
 * lines, cut }] }] }. The canvas keeps the last one (its `drawn`).
 */
export function drawInProgress() {
  return drawing;
}

/**
 * A canvas inside `host` sized to its box, drawn by `draw(ctx, width, height, colors)` in CSS
 * pixels; `aspect` is height / width (or a function of the width), kept within minHeight and maxHeight
 * unless the draw asks for more (a plot frame does when its title and legend would leave its panel
 * under PLOT_FLOOR; see plot.js). Redraws on resize (ResizeObserver), on data-theme changes and on prefers-color-scheme.
 * beforeDraw(width, height), when given, runs first on every render (the chart skeleton recomputes
 * what depends on the plot's size there, so draw itself never computes).
 * painter, when given, is the chart Worker's { attach(canvas) } (painter.js): the canvas is handed to
 * the Worker, which paints each frame; here the draw runs on a layout context (layout-context.js)
 * for its record and the chart's layout.
 * Returns { canvas, redraw(), drawn, snapshot(), destroy() }.
 */
export function createPlotCanvas(
  host,
  { label, aspect = 0.6, minHeight = 220, maxHeight = 520, draw, beforeDraw, painter = null },
) {
  const canvas = document.createElement('canvas');
  canvas.className = 'chart-canvas';
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  host.append(canvas);
  // Painted in the chart Worker (painter.js) when the page has one: the canvas's pixels are the Worker's from here on.
  const offscreen = painter?.attach(canvas) ?? null;
  let layoutContext = null;
  let frame = 0;
  let width = 0; // CSS pixels, from the ResizeObserver: redraws never force a layout
  let styledHeight = 0;
  let colors = null; // read once per theme change, not per frame
  let drawn = null; // what the last draw laid out (see drawInProgress)
  let need = { width: 0, height: 0 }; // the height the last draw asked for, at that width
  const paint = (height) => {
    const ratio = window.devicePixelRatio || 1;
    const w = Math.round(width * ratio);
    const h = Math.round(height * ratio);
    if (!offscreen && (canvas.width !== w || canvas.height !== h)) {
      canvas.width = w;
      canvas.height = h;
    }
    if (styledHeight !== height) {
      canvas.style.height = `${height}px`;
      styledHeight = height;
    }
    beforeDraw?.(width, height);
    colors ??= themeColors(host);
    if (offscreen) {
      // Laid out here (the record, the chart's layout for hit() and the handles), painted in the Worker.
      layoutContext ??= createLayoutContext();
      layoutContext.canvas.width = w;
      layoutContext.canvas.height = h;
      drawn = paintCanvas(layoutContext, { width, height, ratio, colors, draw });
      offscreen.paint({ width, height, ratio, colors });
    } else drawn = paintCanvas(canvas.getContext('2d'), { width, height, ratio, colors, draw });
    return drawn.need;
  };
  const render = () => {
    frame = 0;
    if (!width) width = Math.max(200, Math.floor(host.clientWidth || 600));
    const ratioOfWidth = typeof aspect === 'function' ? aspect(width) : aspect;
    const proportioned = Math.round(Math.min(maxHeight, Math.max(minHeight, width * ratioOfWidth)));
    // Taller than its proportions (and maxHeight) when what the draw lays out around its plots (a
    // wrapped title, a legend of several rows) would squeeze them: the draw says how tall it needs
    // the canvas (a height that does not depend on the height it was given), and when that differs
    // from the height it was drawn at, it is drawn once more at the height it asked for.
    const heightFor = (asked) => Math.max(proportioned, Math.ceil(asked));
    let height = heightFor(need.width === width ? need.height : 0);
    const asked = paint(height);
    need = { width, height: asked };
    if (heightFor(asked) !== height) {
      height = heightFor(asked);
      paint(height);
    }
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(render);
  };
  const snapshot = () => (offscreen ? offscreen.snapshot() : Promise.resolve(canvas));
  snapshots.set(canvas, snapshot);
  const resize = new ResizeObserver((entries) => {
    const next = Math.max(200, Math.floor(entries[entries.length - 1].contentRect.width));
    if (next !== width) {
      width = next;
      schedule();
    }
  });
  resize.observe(host);
  const restyle = () => {
    colors = null;
    themeGeneration++;
    schedule();
  };
  const themeWatch = new MutationObserver(restyle);
  themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const media = matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', restyle);
  render();
  return {
    canvas,
    /** Draws now (synchronously), e.g. after the state changed. */
    redraw: render,
    /** What the last draw laid out: { width, height, need, panels: [frame], legends: [legend] } (see drawInProgress). */
    get drawn() {
      return drawn;
    },
    /**
     * The canvas's current picture, for an export or a test: the canvas itself, or, when the Worker
     * paints it, an ImageBitmap of its latest drawing (every paint posted before this call included).
     */
    snapshot,
    destroy() {
      resize.disconnect();
      themeWatch.disconnect();
      media.removeEventListener('change', restyle);
      if (frame) cancelAnimationFrame(frame);
      canvas.remove();
    },
  };
}

// Each chart canvas on the page → its snapshot(), for canvasPicture.
const snapshots = new WeakMap();

/**
 * The picture a chart's canvas element shows (tests and exports read pixels through it): the
 * canvas itself when the page paints it, an ImageBitmap of the chart Worker's latest paint when the Worker does.
 */
export function canvasPicture(element) {
  const snapshot = snapshots.get(element);
  return snapshot ? snapshot() : Promise.resolve(element);
}

/**
 * Paints one frame of a chart's canvas on `ctx` (a canvas's 2D context, an OffscreenCanvas's in the
 * chart Worker, or a layout context): the background, the chart's font, then draw(ctx, width,
 * height, colors) in CSS pixels. Every draw starts from the same context state (line width, dash,
 * cap, alignment …), never from whatever the previous draw left. Returns the draw's record (see
 * drawInProgress).
 */
export function paintCanvas(ctx, { width, height, ratio, colors, draw }) {
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.fillStyle = colors.bg;
  ctx.fillRect(0, 0, width, height);
  ctx.font = `12px ${FONT}`;
  const outer = drawing;
  drawing = { width, height, need: 0, panels: [], legends: [], layer: 0 };
  let drawn;
  ctx.save();
  try {
    draw(ctx, width, height, colors);
  } finally {
    ctx.restore();
    drawn = drawing;
    drawing = outer;
    // Layers past the last one this draw used belong to drawings it no longer makes.
    const layers = layersOf.get(ctx.canvas);
    if (layers && layers.length > drawn.layer) layers.length = drawn.layer;
  }
  return drawn;
}

/** A canvas of its own for a drawing kept between frames: an element on the page, an OffscreenCanvas in a Worker. */
export function scratchCanvas(width = 1, height = 1) {
  if (typeof document !== 'undefined') {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    return canvas;
  }
  return new OffscreenCanvas(width, height);
}

/** Tells the cached layers the theme changed (the chart Worker, which sees no document, calls it when its colours do). */
export function themeChanged() {
  themeGeneration++;
}

/** Each cached layer's canvas → the canvas it is copied onto (whose size cssSize reports). */
const hostOf = new WeakMap();

/**
 * Draws `draw(ctx)` (what does not change from one step to the next: axis labels, titles, legends,
 * colour bars) through a cached layer of the canvas being drawn: an offscreen canvas the size of
 * the part it covers, drawn when `key` changes and otherwise only copied (one drawImage) at the same
 * place in the drawing order. `key` (a string) names everything the drawing depends on besides the
 * part of the canvas it covers, its devicePixelRatio, the theme and the context's transform, font and
 * line style, which are added to it here; a resize, a theme change or a move to a screen of another
 * pixel ratio draws the layer again. What `draw` adds to the draw's record (panels, legends; see drawInProgress) is kept with the
 * layer and added again on every copy. The layers of one canvas are told apart by their order in its
 * draw: draw() must make its cached drawings in a fixed order. A drawing goes through its layer every
 * time, even the first, so the same state always gives the same pixels (text drawn onto a
 * transparent layer and copied can differ from text drawn straight by one level in a few edge pixels).
 * `bounds` ({ x, y, w, h } in the context's units; w and h may be Infinity), when given, is where
 * the drawing lies: the layer covers only that part of the canvas, and whatever `draw` puts outside
 * it is lost.
 * Outside a draw (an export, a test's context) it simply draws.
 */
export function drawCached(ctx, key, draw, bounds = null) {
  const record = drawing;
  if (!record || ctx.layoutOnly) {
    draw(ctx);
    return;
  }
  const t = ctx.getTransform();
  // The part of the canvas (device pixels) the layer covers: `bounds` when given, else all of it.
  // The layer is only that big: a full-size layer per call costs its whole size to allocate and
  // to copy, whatever the part copied, so four full layers per canvas made a chart's first draws
  // long tasks (figures: BENCHMARKS.md, Measurements).
  let [x0, y0, x1, y1] = [0, 0, ctx.canvas.width, ctx.canvas.height];
  if (bounds && !t.b && !t.c) {
    x0 = Math.max(x0, Math.floor(t.a * bounds.x + t.e));
    y0 = Math.max(y0, Math.floor(t.d * bounds.y + t.f));
    x1 = Math.min(x1, Math.ceil(t.a * (bounds.x + bounds.w) + t.e));
    y1 = Math.min(y1, Math.ceil(t.d * (bounds.y + bounds.h) + t.f));
  }
  const full = [
    key,
    x0,
    y0,
    x1,
    y1,
    themeGeneration,
    t.a,
    t.b,
    t.c,
    t.d,
    t.e,
    t.f,
    ctx.font,
    ctx.lineCap,
    ctx.lineJoin,
    ctx.getLineDash().join(','),
  ].join('\u0001');
  let layers = layersOf.get(ctx.canvas);
  if (!layers) layersOf.set(ctx.canvas, (layers = []));
  const index = record.layer++;
  const slot = (layers[index] ??= { key: null, canvas: null, panels: [], legends: [] });
  const [w, h] = [Math.max(0, x1 - x0), Math.max(0, y1 - y0)];
  if (slot.key !== full) {
    slot.key = null;
    slot.canvas ??= scratchCanvas();
    const layer = slot.canvas;
    hostOf.set(layer, ctx.canvas);
    // A layer of no size still runs draw(), which records the panels and legends it lays out.
    if (layer.width !== Math.max(1, w) || layer.height !== Math.max(1, h)) {
      layer.width = Math.max(1, w);
      layer.height = Math.max(1, h);
    }
    const lctx = layer.getContext('2d');
    lctx.reset?.();
    lctx.setTransform(1, 0, 0, 1, 0, 0);
    lctx.clearRect(0, 0, layer.width, layer.height);
    // The canvas's transform moved by whole device pixels: the drawing lands on the same pixels
    // of the layer as it would on the canvas, so the copy is the same image.
    lctx.setTransform(t.a, t.b, t.c, t.d, t.e - x0, t.f - y0);
    lctx.font = ctx.font;
    lctx.lineCap = ctx.lineCap;
    lctx.lineJoin = ctx.lineJoin;
    lctx.setLineDash(ctx.getLineDash());
    const panels = record.panels.length;
    const legends = record.legends.length;
    draw(lctx);
    slot.panels = record.panels.slice(panels);
    slot.legends = record.legends.slice(legends);
    slot.key = full;
  } else {
    record.panels.push(...slot.panels);
    record.legends.push(...slot.legends);
  }
  if (w === 0 || h === 0) return;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(slot.canvas, 0, 0, w, h, x0, y0, w, h);
  ctx.restore();
}

/** The canvas's size in CSS pixels (what draw() callbacks call width and height). */
export function cssSize(ctx) {
  if (drawing) return { width: drawing.width, height: drawing.height };
  const ratio = globalThis.devicePixelRatio || 1;
  // A cached layer covers only part of its canvas: a drawing on it is laid out by the canvas's size.
  const canvas = hostOf.get(ctx.canvas) ?? ctx.canvas;
  return { width: canvas.width / ratio, height: canvas.height / ratio };
}
