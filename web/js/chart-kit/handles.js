// Direct manipulation for the chart skeleton: a chart declares handles (a state key it can drag on
// its own canvas), and this module gives each one a pointer drag on the canvas and a focusable
// slider over it for the keyboard and screen readers. Every change goes through the chart's own
// set(patch), so clamping, the URL, the number boxes, the description and the live text follow
// exactly as if the value had been typed. The chart draws the knob (drawKnob) where at() says.
// Beside each handle's number box, − and + buttons move it without a drag (WCAG 2.5.7).

import { grouped } from '../locale/format.js';
import { t } from '../locale/i18n.js';
import { isStepKey, numberRule } from './number-rule.js';
import { drawFrameColumn } from './plot.js';

/** How far (CSS px) from a knob a mouse press still grabs it; a finger gets more. */
const REACH = { mouse: 12, touch: 22 };

/**
 * The least pointer travel (CSS px) that moves a handle with drag stops by one stop. Where the
 * stops lie farther apart on the axis the knob follows the pointer; where they crowd (powers of two
 * 5 px apart on a 360 px phone's log axis) the drag moves one stop per this much travel, so a
 * finger's wobble as it lifts (a few px) never doubles the value.
 */
export const STEP_TRAVEL = 16;

/**
 * A drag's ladder: the values it settles on (`values`, ascending: the handle's drag stops within its
 * bounds, the bounds and the value it starts from) and the pointer travel from the press to each
 * (`travel`, CSS px along the direction in which values grow on screen): the gap between two
 * neighbours on the axis, or STEP_TRAVEL where that is less.
 */
export function dragLadder(stops, { min, max }, start, scale) {
  const ends = [min, max].filter(Number.isFinite);
  const values = [...new Set([...ends, start, ...stops.filter((v) => v > min && v < max)])].sort((a, b) => a - b);
  const px = values.map((v) => scale(v));
  const gap = (i, j) => {
    const d = Math.abs(px[i] - px[j]);
    return Number.isFinite(d) ? Math.max(STEP_TRAVEL, d) : STEP_TRAVEL;
  };
  const from = values.indexOf(start);
  const travel = values.map(() => 0);
  for (let i = from + 1; i < values.length; i++) travel[i] = travel[i - 1] + gap(i, i - 1);
  for (let i = from - 1; i >= 0; i--) travel[i] = travel[i + 1] - gap(i + 1, i);
  const up = Math.sign(scale(values[values.length - 1]) - scale(values[0])) || 1;
  return { values, travel, up };
}

/** The ladder's value for a pointer `moved` CSS px along the axis since the press (the nearest stop by travel). */
export function ladderValue({ values, travel, up }, moved) {
  const along = moved * up;
  let best = 0;
  for (let i = 1; i < values.length; i++) if (Math.abs(travel[i] - along) < Math.abs(travel[best] - along)) best = i;
  return values[best];
}

// Writes an attribute only when its value changes: a handle is placed after every draw, and each
// write, even of the same value, is a DOM mutation that observers and the accessibility tree hear of.
function setIfChanged(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/**
 * Draws a handle's knob at (x, y): a ring in the foreground colour, filled in the accent colour
 * while the reader holds or focuses it (`active`); `ring` colours the ring (e.g. as its series). Charts call it at their handle's
 * (scale(value), across) — knobAt() gives that point from the same declaration.
 */
export function drawKnob(ctx, x, y, colors, active = false, ring = colors.fg) {
  ctx.save();
  ctx.beginPath();
  ctx.arc(x, y, 7, 0, 2 * Math.PI);
  ctx.fillStyle = active ? colors.blue : colors.bg;
  ctx.fill();
  ctx.lineWidth = 2.5;
  ctx.strokeStyle = ring;
  ctx.stroke();
  ctx.restore();
}

/**
 * Draws a marked position on a plot: a dashed vertical line at x across `frame` (bold while the
 * marker is `bold`, e.g. its part is highlighted), and a ring around each curve where it crosses:
 * `rings` is [{ y, color, radius }] (radius defaults to 5 CSS px).
 */
export function drawMarker(ctx, frame, x, rings, colors, bold = false) {
  drawFrameColumn(ctx, frame, x, { color: colors.fg, width: bold ? 2.5 : 1.2, dash: [3, 3] });
  ctx.save();
  ctx.setLineDash([]);
  ctx.lineWidth = 2;
  for (const { y, color, radius = 5 } of rings) {
    ctx.strokeStyle = color;
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, 2 * Math.PI);
    ctx.stroke();
  }
  ctx.restore();
}

/**
 * A handle on a marked position of a plot: state[key] on the plot's x scale (layout.x, laid out in
 * layout.frame by draw()), its knob at across(view), grabbed anywhere along its vertical line.
 * `rest` adds or overrides the other declaration fields (label, snap, keyStep, valueText …).
 */
export function markerHandle({ key, part = key, ...rest }) {
  return {
    key,
    part,
    axis: 'x',
    scale: ({ layout: { x } }) => x ?? null,
    near: ({ state, layout: { frame, x } }, px, py) =>
      Boolean(frame) && py >= frame.y && py <= frame.y + frame.h && Math.abs(x(state[key]) - px) <= 5,
    ...rest,
  };
}

/** Where `handle` (a declaration) puts its knob for `view`: { x, y } in CSS px, or null. */
export function knobAt(handle, view) {
  const scale = handle.scale(view);
  if (!scale) return null;
  const along = scale(view.state[handle.key]);
  const across = handle.across(view);
  return handle.axis === 'y' ? { x: across, y: along } : { x: along, y: across };
}

/** Draws the knob of every handle in `handles` that lives on canvas `canvas`, at knobAt() (ring: handle.ring(colors)). */
export function drawKnobs(ctx, colors, view, handles, canvas = 0) {
  for (const handle of handles) {
    if ((handle.canvas ?? 0) !== canvas) continue;
    const knob = knobAt(handle, view);
    const ring = handle.ring?.(colors) ?? colors.fg;
    if (knob) drawKnob(ctx, knob.x, knob.y, colors, view.marks?.handle === handle.key, ring);
  }
}

/**
 * A canvas's draw(ctx, width, height, colors, view): the plot by `drawPlot`, then over it the knobs of
 * the `handles` that live on canvas `canvas` (drawKnobs), while `shown(view)` (a plot that can be
 * empty says when its knobs have something to sit on).
 */
export function drawWithKnobs(drawPlot, handles, { canvas = 0, shown = () => true } = {}) {
  return (ctx, width, height, colors, view) => {
    drawPlot(ctx, width, height, colors, view);
    if (shown(view)) drawKnobs(ctx, colors, view, handles, canvas);
  };
}

/**
 * One focusable slider overlay per declared handle, in `host`: [{ spec, control, element, plot }]
 * (`plot`: the canvas it sits on). A handle must name a declared control.
 */
function handleOverlays(declarations, declared, host, plots) {
  return declarations.map((spec) => {
    const control = declared[spec.key];
    if (!control) throw new Error(`handle "${spec.key}": there is no control "${spec.key}"`);
    const element = document.createElement('div');
    element.className = 'chart-handle';
    element.tabIndex = 0;
    element.setAttribute('role', 'slider');
    element.setAttribute('aria-label', spec.label ?? control.label);
    element.setAttribute('aria-orientation', spec.axis === 'y' ? 'vertical' : 'horizontal');
    element.dataset.handle = spec.key;
    host.append(element);
    return { spec, control, element, plot: plots[spec.canvas ?? 0] };
  });
}

/** Brings each handle's ARIA values up to date with the state `v` (with the chart's other page writes). */
function announceHandles(handles, v, bounds) {
  for (const h of handles) {
    const value = v.state[h.spec.key];
    const { min, max } = bounds(h);
    setIfChanged(h.element, 'aria-valuemin', String(min));
    setIfChanged(h.element, 'aria-valuemax', String(max));
    setIfChanged(h.element, 'aria-valuenow', String(value));
    setIfChanged(h.element, 'aria-valuetext', h.spec.valueText?.(value, v) ?? grouped(value));
  }
}

/**
 * The pointer on `handles`: a press near a knob on its canvas grabs it (and the canvas shows where
 * one can be grabbed), a drag on the slider moves it, and focus marks its part. `drag()` is the drag
 * under way, if any; the rest are attachHandles' own steps.
 */
function listenForPointers(handles, { listen, grabbed, startDrag, endDrag, drag, along, move, activate, release }) {
  for (const plot of new Set(handles.map((h) => h.plot).filter(Boolean))) {
    const canvas = plot.canvas;
    const local = (event) => {
      const box = canvas.getBoundingClientRect();
      return [event.clientX - box.left, event.clientY - box.top];
    };
    listen(canvas, 'pointerdown', (event) => {
      if (event.button !== 0) return;
      const h = grabbed(plot, ...local(event), event.pointerType === 'touch' ? REACH.touch : REACH.mouse);
      if (h) startDrag(h, event);
    });
    listen(canvas, 'pointermove', (event) => {
      if (drag()) return;
      canvas.classList.toggle('is-grabbable', Boolean(grabbed(plot, ...local(event), REACH.mouse)));
    });
    listen(canvas, 'pointerleave', () => canvas.classList.remove('is-grabbable'));
  }
  for (const h of handles) {
    const { element, spec } = h;
    listen(element, 'pointerdown', (event) => {
      if (event.button !== 0) return;
      startDrag(h, event);
    });
    listen(element, 'pointermove', (event) => {
      const dragging = drag();
      if (dragging?.handle !== h || event.pointerId !== dragging.pointerId) return;
      if (dragging.ladder) move(h, ladderValue(dragging.ladder, along(h, event) - dragging.pressed));
      else move(h, (spec.snap ?? ((x) => x))(dragging.scale.invert(along(h, event))));
    });
    listen(element, 'pointerup', endDrag);
    listen(element, 'pointercancel', endDrag);
    listen(element, 'lostpointercapture', endDrag);
    listen(element, 'focus', () => {
      activate(h);
      h.plot.redraw();
    });
    listen(element, 'blur', () => {
      if (drag()?.handle === h) return;
      release(h);
      h.plot.redraw();
    });
  }
}

/**
 * The key steps of handle `h`: arrows, Page keys, Home and End on its slider, and the − and + beside
 * its number box (returned, or undefined where the chart has no box for it), each a step of the
 * handle's own rule.
 */
function listenForSteps(h, { view, bounds, move, onTakeControl, controls, listen }) {
  const { element, spec } = h;
  const rule = numberRule({
    step: spec.step ?? 1,
    bigStep: spec.bigStep ?? 10,
    keyStep: spec.keyStep && ((value, direction, big) => spec.keyStep(value, direction, big, view())),
  });
  listen(element, 'keydown', (event) => {
    if (!isStepKey(event)) return;
    const next = rule.stepped(view().state[spec.key], event.key, { shift: event.shiftKey, bounds: bounds(h) });
    if (next === null) return;
    event.preventDefault();
    onTakeControl?.();
    move(h, next);
  });
  const input = controls?.[spec.key]?.input;
  if (input) {
    // − and + for a pointer that cannot drag: each press is one key step of the same rule (the
    // large one on a log axis, where a plain step of 1,024 tokens is a pixel). Out of the tab
    // order: the handle and the number box already answer the arrow keys.
    return addSteppers(input, spec.label ?? h.control.label, listen, (key) => {
      const next = rule.stepped(view().state[spec.key], key, { shift: Boolean(spec.dragStops), bounds: bounds(h) });
      onTakeControl?.();
      if (next !== null) move(h, next);
    });
  }
  return undefined;
}

/**
 * The overlays' placing: place(index) puts each overlay over its knob (after every draw), those on
 * canvas `index` only when given. A knob is placed from its own canvas's layout: placed after
 * another canvas's draw it would go where the old layout puts the new value, and move again once
 * its canvas draws. `at(h, view)` is the knob's centre in CSS px of its canvas, or null.
 */
function knobPlacer(handles, plots, view, at) {
  // Where each canvas sits in the host, read again only when the plot's size changes: a drag or a
  // motion redraws every frame, and reading layout after the frame's writes would force a second one.
  let offsetsOf = null;
  const offsets = new Map();
  return (index) => {
    const v = view();
    const only = index === undefined ? null : plots[index];
    if (offsetsOf !== v.size) {
      offsetsOf = v.size;
      for (const plot of plots) offsets.set(plot, { left: plot.canvas.offsetLeft, top: plot.canvas.offsetTop });
    }
    for (const h of handles) {
      if (only && h.plot !== only) continue;
      const knob = h.plot && at(h, v);
      if (h.element.hidden !== !knob) h.element.hidden = !knob;
      if (!knob) continue;
      const { left, top } = offsets.get(h.plot);
      // Written only when the knob has moved (an equal write is still a mutation of the style
      // attribute), compared with what was last written: the style may read a length back otherwise.
      const [x, y] = [`${left + knob.x}px`, `${top + knob.y}px`];
      if (h.left !== x) h.element.style.left = h.left = x;
      if (h.top !== y) h.element.style.top = h.top = y;
    }
  };
}

/**
 * Attaches `declarations` (spec.handles) to a mounted chart. Each declaration:
 * - key: the state key (a number control) the handle moves; part: the part it announces and
 *   highlights; label: its accessible name (default: the control's label).
 * - canvas: the index of the canvas it lives on (default 0); axis: 'x' or 'y' (the drag direction).
 * - scale(view) → the chart's scale along the axis (value → CSS px of that canvas, with .invert),
 *   from draw()'s layout, or null while there is none; across(view) → the knob's other coordinate.
 *   The knob sits at scale(value) on the axis; a drag reads values through the scale as it was
 *   when the drag began (so a chart whose axis follows the value does not run away under it).
 * - near(view, px, py) → boolean: optional; a press there grabs the handle too (e.g. its whole line).
 * - snap(value) → value: optional; where a dragged value settles (default: the nearest whole number).
 * - dragStops(view) → ascending values: optional, for a log axis; a drag then settles only on
 *   these (and the bounds and its starting value), one per STEP_TRAVEL px of travel at least
 *   (dragLadder), and − / + take the large step (as Shift+arrow does) instead of the plain one.
 * - min(view), max(view): optional bounds (default: the control's declared min and max).
 * - step, bigStep: arrow and Shift+arrow / Page keys (default 1 and 10); or
 *   keyStep(value, direction, big, view) → the next value (e.g. doubling on a log axis).
 * - valueText(value, view): what a screen reader hears (default the grouped number).
 * context: { declared (the control declarations), controls (the mounted controls: − and + go beside
 * each handle's number box), plots (the chart's canvases), host (the element the overlays go in),
 * view, set, point, highlight, marks, onTakeControl }. Returns { place(index) (after canvas index's draw), announce() (the
 * ARIA values, after a change of state), destroy(), elements }.
 */
export function attachHandles(declarations, context) {
  const { declared, controls, plots, host, view, set, point, highlight, marks, onTakeControl } = context;
  let dragging = null; // { handle, pointerId, scale and canvas box (both as the drag began) }
  const handles = handleOverlays(declarations, declared, host, plots);

  const bounds = (h) => ({
    min: h.spec.min?.(view()) ?? h.control.min ?? 0,
    max: h.spec.max?.(view()) ?? h.control.max ?? Infinity,
  });
  const clampTo = (h, v) => {
    const { min, max } = bounds(h);
    const whole = h.control.integer === false ? v : Math.round(v);
    return Math.min(max, Math.max(min, whole));
  };
  /** The knob's centre in CSS px of its canvas, or null while the chart has not laid it out. */
  const at = (h, v = view()) => {
    const knob = knobAt(h.spec, v);
    return knob && Number.isFinite(knob.x) && Number.isFinite(knob.y) ? knob : null;
  };
  const move = (h, value) => {
    const next = clampTo(h, value);
    if (next !== view().state[h.spec.key]) set({ [h.spec.key]: next });
  };
  const activate = (h) => {
    onTakeControl?.();
    marks.handle = h.spec.key;
    point(h.spec.part ?? null);
    if (h.spec.part) highlight(h.spec.part);
  };
  const release = (h) => {
    if (marks.handle !== h.spec.key) return;
    marks.handle = null;
    point(null);
    highlight(null);
  };

  const place = knobPlacer(handles, plots, view, at);

  const announce = () => announceHandles(handles, view(), bounds);

  /** The handle a press at (px, py) on `plot`'s canvas grabs, if any. */
  function grabbed(plot, px, py, reach) {
    const v = view();
    let best = null;
    let bestGap = reach;
    for (const h of handles) {
      if (h.plot !== plot || h.element.hidden) continue;
      const knob = at(h, v);
      if (!knob) continue;
      const gap = Math.hypot(knob.x - px, knob.y - py);
      if (gap <= bestGap) [best, bestGap] = [h, gap];
    }
    return best ?? handles.find((h) => h.plot === plot && !h.element.hidden && h.spec.near?.(v, px, py)) ?? null;
  }

  // The pointer's place along the axis, in CSS px of the canvas as it lay when the drag began: a
  // chart whose text above the plot changes height with the value (the model card's summary) moves
  // the canvas under a still pointer, which read against the moving canvas would run away.
  const along = (h, event) => {
    const { box } = dragging;
    return h.spec.axis === 'y' ? event.clientY - box.top : event.clientX - box.left;
  };
  function startDrag(h, event) {
    event.preventDefault();
    h.element.focus({ preventScroll: true });
    // Captured by the overlay, so the rest of the drag reaches it wherever the pointer goes.
    h.element.setPointerCapture?.(event.pointerId);
    const v = view();
    const scale = h.spec.scale(v);
    dragging = {
      handle: h,
      pointerId: event.pointerId,
      scale,
      box: h.plot.canvas.getBoundingClientRect(),
    };
    if (h.spec.dragStops) {
      dragging.ladder = dragLadder(h.spec.dragStops(v), bounds(h), v.state[h.spec.key], scale);
      dragging.pressed = along(h, event);
    }
    h.element.classList.add('is-dragging');
    h.plot.canvas.classList.add('is-dragging');
    activate(h);
    h.plot.redraw();
  }
  function endDrag(event) {
    if (!dragging || event.pointerId !== dragging.pointerId) return;
    const { handle: h } = dragging;
    dragging = null;
    h.element.releasePointerCapture?.(event.pointerId);
    h.element.classList.remove('is-dragging');
    h.plot.canvas.classList.remove('is-dragging');
    if (document.activeElement !== h.element) release(h);
    h.plot.redraw();
  }

  const listeners = [];
  const listen = (target, type, fn, options) => {
    target.addEventListener(type, fn, options);
    listeners.push(() => target.removeEventListener(type, fn, options));
  };
  listenForPointers(handles, {
    listen,
    grabbed,
    startDrag,
    endDrag,
    drag: () => dragging,
    along,
    move,
    activate,
    release,
  });
  for (const h of handles) {
    h.steppers = listenForSteps(h, { view, bounds, move, onTakeControl, controls, listen });
  }
  return {
    place,
    announce,
    elements: handles.map((h) => h.element),
    destroy() {
      for (const off of listeners) off();
      for (const h of handles) {
        h.element.remove();
        h.steppers?.remove();
      }
    },
  };
}

/**
 * − and + beside a number box, for a pointer that cannot drag (WCAG 2.5.7): `step(key)` is called
 * with 'ArrowDown' or 'ArrowUp', as if that key were pressed. Out of the tab order: what they sit
 * beside already answers the arrow keys. `listen(element, type, fn)` registers the listeners (so
 * their owner can remove them). Returns the buttons' span.
 */
export function addSteppers(input, label, listen, step) {
  const steppers = document.createElement('span');
  steppers.className = 'chart-steppers';
  for (const [key, text, name] of [
    ['ArrowDown', '\u2212', t('Decrease {label}', { label })],
    ['ArrowUp', '+', t('Increase {label}', { label })],
  ]) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'chart-step';
    button.tabIndex = -1;
    button.textContent = text;
    button.setAttribute('aria-label', name);
    button.dataset.step = `${input.dataset.control}:${key === 'ArrowUp' ? 'up' : 'down'}`;
    listen(button, 'click', () => step(key));
    steppers.append(button);
  }
  input.after(steppers);
  input.parentElement.classList.add('has-steppers');
  return steppers;
}
