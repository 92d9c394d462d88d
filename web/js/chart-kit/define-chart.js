// @ts-check
// One skeleton for every chart: a chart declares its controls, ONE computation from its state to
// its data made of named parts (each part says which state keys and which other parts it reads,
// and is recomputed only when those change), how it draws that data, and what it says about it.
// The skeleton owns the rest: the URL state (read, validated and clamped by the controls, with the
// message beside the control), the shell (description, data table, export), resizing and theme
// (createPlotCanvas), the highlight of a named part and the `chart-part` event, and the object
// the page keeps for each mounted chart:
//   { update(patch), set(patch), state, controls, highlight(part | null), parts, destroy(), values, drawn }.
// Drawing never calls the engine: everything a draw needs is in `data`.

import { createDeclaredControls } from './chart-controls.js';
import { buttonControl } from './controls.js';
import { createPlotCanvas } from './canvas.js';
import { createChartShell } from './shell.js';
import { attachHandles } from './handles.js';
import { attachMotion } from './motion.js';
import { chartPainter } from './painter.js';
import { t } from '../locale/i18n.js';

// Every declared chart by id, for the chart Worker (paint-worker.js), which paints a chart's canvases from its spec.
const DEFINED = new Map();

/**
 * The spec and computation of the chart declared as `id` ({ spec, compute }), or null.
 * @param {string} id
 * @returns {{ spec: ChartDeclaration & ChartBehaviour, compute: [string, ComputedPart][] } | null}
 */
export function definedChart(id) {
  return DEFINED.get(id) ?? null;
}

/** @typedef {Record<string, any>} ChartState The controls' values by key. */
/** @typedef {{ width: number, height: number, ratio: number }} ChartSize The first canvas in CSS pixels, and devicePixelRatio. */
/**
 * @typedef {object} ChartView What draw(), hit() and the texts see.
 * @property {ChartState} state
 * @property {Record<string, any>} data the computed parts by name
 * @property {string | null} highlighted
 * @property {Record<string, any>} layout what draw() last laid out
 * @property {Record<string, any>} [marks]
 * @property {ChartSize | null} [size]
 */
/**
 * @typedef {object} ComputedPart One named part of the computation.
 * @property {string[]} [reads] state keys, or '@size'
 * @property {string[]} [after] parts it is computed after
 * @property {(state: ChartState, engine: any, data: Record<string, any>, size: ChartSize | null) => any} run
 * @property {boolean} [paint] a picture made from other parts, without the engine
 */
/**
 * @typedef {object} ChartCanvas One canvas of the chart.
 * @property {string} label
 * @property {number | ((width: number, view: ChartView) => number)} aspect
 * @property {number} [minHeight]
 * @property {number} [maxHeight]
 * @property {(ctx: CanvasRenderingContext2D, width: number, height: number, colors: Record<string, string>, view: ChartView) => void} draw
 * @property {(view: ChartView, x: number, y: number, width: number, height: number) => string | null} [hit]
 * @property {string[]} [reads] state keys and parts the draw depends on
 * @property {string[]} [shows] the parts its draw emphasises
 */
/**
 * @typedef {object} ChartButton
 * @property {string} name
 * @property {string} label
 * @property {(state: ChartState, controls: Record<string, any>) => void} onClick
 */
/**
 * @typedef {object} ChartHandle A value the reader drags on a canvas (handles.js has the rest of its keys).
 * @property {string} key the control it sets
 * @property {string} [part] the part it highlights (default: key)
 * @property {number} [canvas]
 * @property {string} [axis]
 * @property {boolean} [dragStops] whether a drag walks the declared stops
 * @property {(view: ChartView) => any} [at]
 * @property {(view: ChartView, px: any) => any} [from]
 */
/**
 * @typedef {object} ChartMotion A Play button (motion.js).
 * @property {string} label
 * @property {number} duration
 * @property {(view: ChartView) => any} start
 * @property {(t: number, plan: any, view: ChartView) => Record<string, any> | null | void} frame
 */
/**
 * @typedef {object} ChartDeclaration What the reader can set (charts/declarations.js).
 * @property {string} id
 * @property {string} [title]
 * @property {Record<string, object>} controls control key → declaration (createDeclaredControls)
 * @property {string[]} [aliases] older URL prefixes still read
 */
/**
 * @typedef {object} ChartBehaviour The rest of a chart's spec; each key is described in defineChart's comment.
 * @property {string[]} [order]
 * @property {ChartButton[]} [buttons]
 * @property {(state: ChartState, controls: Record<string, any>, patch: ChartState) => void} [reconcile]
 * @property {Record<string, ComputedPart>} [compute]
 * @property {boolean} [coalesce]
 * @property {ChartCanvas[]} [canvases]
 * @property {string[]} [parts]
 * @property {Record<string, string>} [focusParts]
 * @property {(view: ChartView) => Record<string, string>} [notes]
 * @property {(view: ChartView) => string} [note]
 * @property {(view: ChartView) => string} [describe]
 * @property {(view: ChartView, engine: any) => any} [table]
 * @property {(view: ChartView, engine: any) => { header: string[], rows: any[][] }} [csv]
 * @property {(view: ChartView) => any} [values]
 * @property {ChartHandle[]} [handles]
 * @property {ChartMotion} [motion]
 * @property {(chart: Record<string, any>, context: Record<string, any>) => void} [extend]
 * @property {string} [id] a behaviour may override the declaration's keys
 * @property {Record<string, object>} [controls]
 */
/**
 * @typedef {object} ChartDefinition What defineChart returns.
 * @property {string} id
 * @property {Record<string, object>} controls
 * @property {string[]} aliases
 * @property {string[]} parts
 * @property {{ key: string, part: string, axis: string | undefined, stops: boolean }[]} handles
 * @property {ChartMotion | null} motion
 * @property {boolean} readsSize
 * @property {(slot: HTMLElement, engine: any) => Record<string, any>} create
 */

/**
 * Declares a chart from its `declaration` (what the reader can set: its id, title, controls and older
 * URL prefixes; each chart passes chartDeclaration(id) from charts/declarations.js) and `behaviour`
 * (the rest below; a key it shares with the declaration wins, as the model card's own controls do).
 * Together they make `spec`:
 * - id: the slot's data-chart and the URL prefix (`id.key`); aliases: older URL prefixes still read.
 * - title: the chart's title in the page's language (names its data table; the id when absent).
 * - controls: { key → declaration } (see createDeclaredControls); order: the keys in display order
 *   (it may name a button to place it among them).
 * - buttons: [{ name, label, onClick(state, controls) }]: buttons after the controls (a button sets
 *   controls, e.g. controls.seed.set(…), so its change goes through their rules like typing).
 * - reconcile(state, controls, patch): optional; settles one control against another (e.g. a head
 *   beyond the head count), calling controls[key].constrain(value, why); patch holds the keys that
 *   just changed. Runs before the computation.
 * - compute: { name → { reads: [state keys], after: [part names], run(state, engine, data, size) } }
 *   in dependency order; run returns the part's value, kept in data[name] until a key it reads (or
 *   a part it comes after) changes. The key '@size' is the first canvas's { width, height, ratio }
 *   (CSS pixels and devicePixelRatio): a part reading it is recomputed on resize, before the draw.
 *   A part marked `paint: true` is a picture made from other parts without the engine (run gets no
 *   engine): where the chart Worker paints the canvases (painter.js), it is made there, not on the
 *   page. Every other part must be structured-cloneable: the page sends each new value to the Worker.
 * - coalesce: true to take control changes at once but compute at the next animation frame (a
 *   dragged slider: one recompute per frame); chart.flush() does the pending work now.
 * - canvases: [{ label, aspect (a ratio, or aspect(width, view)), minHeight, maxHeight, draw(ctx, width, height, colors, view),
 *   hit?(view, x, y, width, height) → part | null, reads?, shows? }]; view = { state, data, highlighted, layout }
 *   (layout: an object draw() may keep its scales in, for hit()). draw() must depend on nothing
 *   else (no document, no window): in the chart Worker it paints, and on the page it lays the same
 *   frame out on a context that paints nothing (layout-context.js). reads: the state keys and parts
 *   the draw depends on; a canvas that declares them is redrawn after an update only when one of
 *   them changed (a part: was recomputed), or a part it shows (shows: the parts its draw
 *   emphasises, default all) was highlighted or let go. Without reads it is redrawn after every update.
 * - parts: the names highlight() accepts and the chart-part event announces; focusParts: { control
 *   key → part } announced while that control has focus.
 * - notes(view) → { control key → text }: messages beside controls that depend on the computed
 *   data (e.g. the engine's error for a sentence), set after each computation ('' clears).
 * - note(view) → text: a paragraph under the canvases (p.chart-note), set after each computation.
 * - describe(view) → text; table(view, engine) → table (or a function building one, called only
 *   while the Data view is open); csv(view, engine) → { header, rows } (built on demand); values(view) → what the chart's `values` getter returns (tests read it).
 * - handles: [{ key, part, canvas, axis, at(view), from(view, px), … }]: values the reader drags on
 *   the canvas or moves with the keys of a focusable slider over it (see handles.js); motion:
 *   { label, duration, start(view), frame(t, plan, view) } for a Play button (see motion.js). Both
 *   act only through set(), and the reader's own input stops any motion.
 * - extend(chart, context): optional; adds chart-specific members to the returned object. The context
 *   holds the mount's state, data, layout, marks, controls, shell, canvases, engine, update and view,
 *   and afterUpdate(fn): fn(view) then runs after every later update (e.g. to keep a focusable
 *   canvas's aria-valuenow in step with the state).
 * Returns { id, controls, aliases, parts, handles, motion, readsSize, create(slot, engine) → chart }.
 * @param {ChartDeclaration} declaration
 * @param {ChartBehaviour} behaviour
 * @returns {ChartDefinition}
 */
export function defineChart(declaration, behaviour) {
  const spec = { ...declaration, ...behaviour };
  const { id, controls: declarations, aliases = [], parts = [] } = spec;
  const order = spec.order ?? Object.keys(declarations);
  const compute = Object.entries(spec.compute ?? {});
  for (const [name, part] of compute) {
    for (const key of part.reads ?? []) {
      if (key !== '@size' && !(key in declarations))
        throw new Error(`${id}: part "${name}" reads "${key}", which is not a control`);
    }
  }
  const partNames = new Set(compute.map(([name]) => name));
  DEFINED.set(id, { spec, compute });
  for (const [index, c] of (spec.canvases ?? []).entries()) {
    for (const key of c.reads ?? []) {
      if (!(key in declarations) && !partNames.has(key))
        throw new Error(`${id}: canvas ${index} reads "${key}", which is neither a control nor a part`);
    }
  }
  return {
    id,
    controls: declarations,
    aliases,
    parts,
    // What the reader can move on the figure and play, for the suites that drive every chart from its definition.
    // (stops: whether a drag walks declared stops, as on a log axis.)
    handles: (spec.handles ?? []).map(({ key, part, axis, dragStops }) => ({
      key,
      part: part ?? key,
      axis,
      stops: Boolean(dragStops),
    })),
    motion: spec.motion ?? null,
    // Whether a computation reads the plot's size (then a resize may call the engine; nothing else drawn does).
    readsSize: compute.some(([, part]) => part.reads?.includes('@size')),
    create: (slot, engine) => mountChart(spec, order, compute, slot, engine),
  };
}

/**
 * What a computed part reads: its state keys' values, and the plot's size for '@size'.
 * @param {ComputedPart} part
 * @param {ChartState} state
 * @param {ChartSize | null} size
 * @returns {any[]}
 */
export function partInputs(part, state, size) {
  return (part.reads ?? []).flatMap((key) =>
    key === '@size' ? [size?.width, size?.height, size?.ratio] : [state[key]],
  );
}

/**
 * Whether a part must be computed again: never computed, an input changed since `before`, or a part it comes after is in `fresh`.
 * @param {ComputedPart} part
 * @param {any[]} inputs
 * @param {any[] | undefined} before
 * @param {Set<string>} fresh
 * @returns {boolean}
 */
export function isStale(part, inputs, before, fresh) {
  return (
    !before || inputs.some((v, i) => !Object.is(v, before[i])) || (part.after ?? []).some((other) => fresh.has(other))
  );
}

/**
 * A chart's computed parts (`compute`, in dependency order) for its state and size: `data` holds
 * each part's value until a key it reads (or a part it comes after) changes; `versions` how many
 * times each was computed. `paintedElsewhere()`: whether the parts marked `paint` are made by the
 * chart Worker, not here.
 * @param {[string, ComputedPart][]} compute
 * @param {any} engine
 * @param {() => boolean} paintedElsewhere
 */
function chartComputation(compute, engine, paintedElsewhere) {
  /** @type {Record<string, any>} */
  const data = {};
  const seen = {}; // part name → the inputs it was last computed from
  const versions = {}; // part name → how many times it has been computed
  return {
    data,
    /**
     * Recomputes the parts whose inputs changed; returns the names recomputed.
     * @param {ChartState} state @param {ChartSize | null} size
     */
    recompute(state, size) {
      const fresh = new Set();
      for (const [name, part] of compute) {
        const inputs = partInputs(part, state, size);
        if (!isStale(part, inputs, seen[name], fresh) || (part.paint && paintedElsewhere())) continue;
        data[name] = part.run(state, engine, data, size);
        versions[name] = (versions[name] ?? 0) + 1;
        seen[name] = inputs;
        fresh.add(name);
      }
      return fresh;
    },
    /** The parts (but `paint` ones) computed since `sent` (part name → version sent), now recorded as sent. */
    partsSince(sent) {
      const parts = {};
      for (const [name, part] of compute) {
        if (part.paint || sent[name] === versions[name]) continue;
        parts[name] = data[name];
        sent[name] = versions[name];
      }
      return parts;
    },
  };
}

/**
 * `write` run at most once per animation frame: the first request of a frame writes at once, later
 * ones in that frame leave one write for the next frame (or for flushHeld()), made from the state as
 * it is then.
 * @param {() => void} write
 */
function oncePerFrame(write) {
  let held = false; // a request waits for the next frame
  let frame = 0; // requestAnimationFrame id while the current frame has had its write
  const run = () => {
    held = false;
    write();
  };
  const request = () => {
    if (frame) {
      held = true;
      return;
    }
    run();
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (held) request();
    });
  };
  return {
    request,
    /** Writes now what waits for the next frame, if anything does. */
    flushHeld() {
      if (held) run();
    },
    cancel() {
      if (frame) cancelAnimationFrame(frame);
    },
  };
}

/**
 * The chart-part event of chart `id` (from `slot`) for the part under the pointer or focus (null:
 * none), announced only when it changes; `focusParts` (control key → part) are announced while
 * their control has focus. Returns point(part), for the canvases and handles.
 * @param {HTMLElement} slot
 * @param {string} id
 * @param {Record<string, string>} focusParts
 * @param {Record<string, any>} controls
 * @returns {(part: string | null) => void}
 */
function partPointer(slot, id, focusParts, controls) {
  let pointed = null;
  const point = (part) => {
    if (part === pointed) return;
    pointed = part;
    slot.dispatchEvent(new CustomEvent('chart-part', { bubbles: true, detail: { chart: id, part } }));
  };
  for (const [key, part] of Object.entries(focusParts)) {
    const element = controls[key].element;
    element.addEventListener('focusin', () => point(part));
    element.addEventListener('focusout', () => point(null));
  }
  return point;
}

/**
 * The chart's controls and buttons in its toolbar: in `order` (which may name a button), the
 * buttons it does not name after them. A button's click gets the state and the controls.
 * @param {{ controls: HTMLElement }} shell
 * @param {string[]} order
 * @param {ChartButton[]} declared
 * @param {ChartState} state
 * @param {Record<string, any>} controls
 */
function placeControls(shell, order, declared, state, controls) {
  const buttons = new Map(
    declared.map(({ name, label, onClick }) => [
      name,
      buttonControl({ name, label, onClick: () => onClick(state, controls) }).element,
    ]),
  );
  shell.controls.append(...order.map((key) => controls[key]?.element ?? buttons.get(key)));
  shell.controls.append(...[...buttons].filter(([name]) => !order.includes(name)).map(([, element]) => element));
}

/**
 * The chart's canvases in its shell's plot, each drawn from `view()`. The first one's size is told
 * to `resized(width, height)` before each of its draws; `afterDraw(index)` runs after canvas `index` draws; a
 * canvas with `hit` points (`point`) at the part under the pointer. Returns { plots, redraw(changed) }.
 * @param {{ controls: Record<string, object>, parts?: string[], canvases?: any[] }} spec its canvases (ChartCanvas)
 * @param {HTMLElement} host
 * @param {{
 *   view: () => ChartView, painter: any, resized: (width: number, height: number) => void,
 *   afterDraw: (index: number) => void, point: (part: string | null) => void,
 * }} hooks
 */
function chartCanvases(spec, host, { view, painter, resized, afterDraw, point }) {
  const parts = spec.parts ?? [];
  // What each canvas with declared reads was last drawn from: its reads' values and the highlighted part.
  const drawnFrom = [];
  const inputsOf = (c) => {
    const { state, data } = view();
    return (c.reads ?? []).map((key) => (key in spec.controls ? state[key] : data[key]));
  };
  const plots = (spec.canvases ?? []).map((c, index) => {
    const plot = createPlotCanvas(host, {
      ...c,
      painter: painter && { attach: (canvas) => painter.attach(canvas, index) },
      aspect: typeof c.aspect === 'function' ? (width) => c.aspect(width, view()) : c.aspect,
      beforeDraw: index === 0 ? resized : undefined,
      draw: (ctx, width, height, colors) => {
        const v = view();
        if (c.reads) drawnFrom[index] = { inputs: inputsOf(c), highlighted: v.highlighted };
        c.draw(ctx, width, height, colors, v);
        afterDraw(index);
      },
    });
    if (c.hit) {
      plot.canvas.addEventListener('pointermove', (event) => {
        const box = plot.canvas.getBoundingClientRect();
        point(c.hit(view(), event.clientX - box.left, event.clientY - box.top, box.width, box.height) ?? null);
      });
      plot.canvas.addEventListener('pointerleave', () => point(null));
    }
    return plot;
  });
  return {
    plots,
    /** Redraws every canvas, or with `changed`, only those whose declared inputs changed since their last draw. */
    redraw(changed = false) {
      const { highlighted } = view();
      plots.forEach((plot, index) => {
        const c = spec.canvases[index];
        const before = drawnFrom[index];
        if (changed && c.reads && before) {
          const shown = (part) => part !== null && (c.shows ?? parts).includes(part);
          const moved = inputsOf(c).some((v, i) => !Object.is(v, before.inputs[i]));
          if (!moved && (before.highlighted === highlighted || (!shown(before.highlighted) && !shown(highlighted))))
            return;
        }
        plot.redraw();
      });
    },
  };
}

/**
 * A chart's updates, now or at the next animation frame. `update(patch, selective)` brings `patch`
 * in at once (`apply`), dropping any request waiting; `request(patch)` takes it (`take`) and leaves
 * the work to the next frame, merged with any other request of that frame; `flush()` does that
 * work now, then `afterFlush()`.
 * @param {(patch: ChartState, selective: boolean) => void} apply
 * @param {(patch: ChartState) => void} take
 * @param {() => void} afterFlush
 */
function chartUpdates(apply, take, afterFlush) {
  let pending = 0; // requestAnimationFrame id of a coalesced update
  let requested = null; // the keys a coalesced change has set since the last update
  const drop = () => {
    if (pending) cancelAnimationFrame(pending);
    pending = 0;
    requested = null;
  };
  /**
   * Brings the state in and redraws. With `selective` (a change of some keys, the default when the
   * patch names any), only the canvases whose declared inputs changed are redrawn; an update with
   * nothing named redraws them all.
   */
  const update = (patch = {}, selective = Object.keys(patch).length > 0) => {
    drop();
    apply(patch, selective);
  };
  /** Does any requested work, and any page writes held for the next frame, now (benchmarks and tests call it to time or await a frame's work). */
  const flush = () => {
    const patch = requested ?? {};
    drop();
    update(patch, Object.keys(patch).length > 0);
    afterFlush();
  };
  return {
    update,
    flush,
    /** Takes a control's change now and does the work at the next animation frame. */
    request(patch) {
      take(patch);
      requested = { ...requested, ...patch };
      if (!pending) pending = requestAnimationFrame(flush);
    },
    /** Nothing waits for a frame any more (the chart is destroyed). */
    cancel: () => {
      if (pending) cancelAnimationFrame(pending);
    },
  };
}

/**
 * Direct manipulation and motion, attached to a mounted chart (`mount`: its shell, view, controls,
 * canvases, and what sets, flushes, points and highlights): { motion, handles }, each null when the
 * spec declares none. Both change the chart only through set(), like typing; the reader taking a
 * handle stops the motion.
 * @param {ChartBehaviour & ChartDeclaration} spec
 * @param {Record<string, any>} mount
 */
function attachAbilities(spec, { shell, view, set, flush, controls, plots, point, highlight, marks }) {
  const abilities = {
    // A motion already runs once per frame: its changes are drawn in that frame, never coalesced to the next.
    motion: spec.motion
      ? attachMotion(spec.motion, {
          root: shell.root,
          toolbar: shell.controls,
          view,
          set: (patch) => {
            set(patch);
            flush();
          },
        })
      : null,
    handles: null,
  };
  if (spec.handles)
    abilities.handles = attachHandles(spec.handles, {
      declared: spec.controls,
      controls,
      plots,
      host: shell.plot,
      view,
      set,
      point,
      highlight,
      marks,
      onTakeControl: () => abilities.motion?.stop(),
    });
  return abilities;
}

/**
 * Applies `patch` to chart `id` through each control's own rules, as if the reader had typed the
 * values; a key no control has is an error.
 * @param {string} id @param {Record<string, any>} controls @param {ChartState} patch
 */
function setThroughControls(id, controls, patch) {
  for (const [key, value] of Object.entries(patch)) {
    if (!controls[key]) throw new Error(`${id}: there is no control "${key}"`);
    controls[key].set(value);
  }
}

/**
 * Mounts the chart of `spec` (controls in `order`, parts `compute`) in `slot` with `engine`: the
 * object defineChart's comment describes.
 */
function mountChart(spec, order, compute, slot, engine) {
  const { id, aliases = [], parts = [], focusParts = {} } = spec;
  const layout = {}; // what draw() last laid out, for hit() and tests (never engine data)
  const marks = {}; // the reader's transient marks draw() shows (e.g. a keyboard cursor)
  let size = null; // the first canvas's { width, height, ratio }, the '@size' input
  let highlighted = null;
  let canvases = null;
  let ready = false; // the first update has run (until then a resize only records the size)
  let abilities = null; // { handles, motion } once attached
  const afterUpdates = []; // what extend() asked to run after each update
  // The chart Worker paints the canvases where it runs (painter.js; null otherwise). There, the parts
  // marked `paint` (pictures made from other parts) are computed in the Worker, not here.
  const computation = chartComputation(compute, engine, () => Boolean(painter));
  const { data } = computation;
  const view = () => ({ state, data, highlighted, layout, marks, size });
  const painter = chartPainter(id, {
    frameOf: () => ({ state: { ...state }, highlighted, marks: { ...marks }, size }),
    partsSince: computation.partsSince,
  });
  const shell = createChartShell(slot, id, {
    title: spec.title,
    exports: {
      getCanvases: () => Promise.all(canvases.plots.map((c) => c.snapshot())),
      getCsv: () => spec.csv(view(), engine),
    },
  });
  const { state, controls, writeUrl } = createDeclaredControls({
    id,
    aliases,
    declarations: spec.controls,
    shell,
    onChange: (patch) => (spec.coalesce ? updates.request(patch) : updates.update(patch)),
  });
  placeControls(shell, order, spec.buttons ?? [], state, controls);
  const point = partPointer(slot, id, focusParts, controls);
  const recompute = () => computation.recompute(state, size);

  canvases = chartCanvases(spec, shell.plot, {
    view,
    painter,
    resized: (width, height) => {
      const ratio = window.devicePixelRatio || 1;
      if (size && size.width === width && size.height === height && size.ratio === ratio) return;
      size = { width, height, ratio };
      if (ready) recompute(); // the parts that read '@size'
    },
    afterDraw: (index) => abilities?.handles?.place(index),
    point,
  });
  const note = spec.note ? foldingNote(shell.plot) : null;

  const { plots } = canvases;
  const mount = { shell, view, set, flush: () => updates.flush(), controls, plots, point, highlight, marks };
  abilities = attachAbilities(spec, mount);
  const updates = chartUpdates(
    (patch, selective) => {
      Object.assign(state, patch);
      spec.reconcile?.(state, controls, patch);
      writeUrl(state);
      recompute();
      // The page's words first, then the drawing: setting a canvas font lays the page out (Chromium),
      // so a draw after the frame's text writes takes them all into that one layout, and nothing
      // written after it makes the frame lay out again.
      pageWrites.request();
      canvases.redraw(selective);
    },
    (patch) => Object.assign(state, patch),
    () => pageWrites.flushHeld(),
  );
  const { update, flush } = updates;

  // What the page says about the chart (the notes, the description, the data table, the handles'
  // ARIA values, the caption's numbers) is written at most once per animation frame, so all of it
  // stays in step.
  const pageWrites = oncePerFrame(() => {
    const v = view();
    for (const [key, text] of Object.entries(spec.notes?.(v) ?? {})) controls[key].note(text);
    note?.show(spec.note(v));
    if (spec.describe) shell.describe(spec.describe(v));
    if (spec.table) shell.setData(spec.table(v, engine));
    abilities?.handles?.announce();
    for (const fn of afterUpdates) fn(view());
    // The figure's caption reads this state (prose-params.js): tell it after every change.
    slot.dispatchEvent(new CustomEvent('chart-state', { bubbles: true, detail: { chart: id, state: { ...state } } }));
  });

  /** Applies `patch` through each control's own rules, as if the reader had typed the values. */
  function set(patch = {}) {
    setThroughControls(id, controls, patch);
  }

  /** Draws `part` emphasised (null: none); an unknown part is an error naming the known ones. */
  function highlight(part) {
    if (part !== null && !parts.includes(part)) {
      throw new Error(`${id}: unknown part "${part}" (known: ${parts.join(', ') || 'none'})`);
    }
    if (part === highlighted) return;
    highlighted = part;
    canvases.redraw(true);
  }

  ready = true;
  update(); // a failure here is the mount's: index.js shows it in the slot
  const chart = {
    id,
    update,
    flush,
    set,
    controls,
    highlight,
    parts: [...parts],
    destroy() {
      updates.cancel();
      pageWrites.cancel();
      abilities.motion?.destroy();
      abilities.handles?.destroy();
      for (const c of plots) c.destroy();
      painter?.forget();
      shell.destroy();
    },
    get state() {
      return { ...state };
    },
    get values() {
      return spec.values ? spec.values(view()) : { ...data };
    },
    get highlighted() {
      return highlighted;
    },
    /** Whether the chart Worker paints this chart's canvases. */
    paintedOffPage: Boolean(painter),
    /** What each canvas last laid out: its size, plot panels and legends (see canvas.js's drawInProgress). */
    get drawn() {
      return plots.map((c) => c.drawn);
    },
    motion: abilities.motion,
  };
  const context = { state, data, layout, marks, controls, shell, canvases: plots, engine, update, view };
  spec.extend?.(chart, { ...context, afterUpdate: (fn) => afterUpdates.push(fn) });
  return chart;
}

/** Notes longer than this many words show their first sentence, and the rest behind "More about this figure". */
const NOTE_FOLD_WORDS = 60;

/**
 * The paragraph under a chart's canvases (p.chart-note, appended to `parent`): show(text) writes
 * `text`, writing nothing when it is unchanged. A note over NOTE_FOLD_WORDS words shows its first
 * sentence and a button that unfolds the rest (and keeps it unfolded through later changes); the
 * paragraph's text is always the whole note, and the chart's description says it all to a screen reader.
 */
export function foldingNote(parent) {
  const paragraph = document.createElement('p');
  paragraph.className = 'chart-note';
  const lead = document.createElement('span');
  const rest = document.createElement('span');
  rest.className = 'chart-note-rest';
  paragraph.append(lead, rest);
  const more = document.createElement('button');
  more.type = 'button';
  more.className = 'chart-note-more';
  more.hidden = true;
  more.setAttribute('aria-expanded', 'false');
  more.textContent = t('More about this figure');
  more.addEventListener('click', () => {
    const open = more.getAttribute('aria-expanded') !== 'true';
    more.setAttribute('aria-expanded', String(open));
    paragraph.classList.toggle('is-folded', !open);
  });
  paragraph.classList.add('is-folded');
  parent.append(paragraph, more);
  let shown = null;
  return {
    show(text) {
      if (text === shown) return;
      shown = text;
      const long = text.split(/\s+/).filter(Boolean).length > NOTE_FOLD_WORDS;
      // The first sentence: up to its full stop (a Chinese one, or a Latin one before a space).
      const cut = long ? /^[\s\S]+?(?:。|[.!?](?=\s))/.exec(text)?.[0] : undefined;
      lead.textContent = cut ?? text;
      rest.textContent = cut ? text.slice(cut.length) : '';
      // Only on a change: setting hidden to what it is still rewrites the attribute (a DOM mutation).
      if (more.hidden !== !cut) more.hidden = !cut;
    },
  };
}
