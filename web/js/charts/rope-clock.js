// Widget: one RoPE pair as a clock face (d = 2, θ = 1 by default). q and k are hands turned by
// m·θ and n·θ; the arc is the angle between them and the score depends only on n − m.
// Drag a hand, turn the selected hand with the arrow keys (the clock is focusable), or type m
// and n; presets replay the lesson's (3, 7), (103, 107) and (3, 8).

import { decimal, fixed, grouped, significant } from '../locale/format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import { FONT } from '../chart-kit/canvas.js';
import { CHART_DECLARATIONS, chartDeclaration } from './declarations.js';
import { t } from '../locale/i18n.js';
import { isStepKey, numberRule } from '../chart-kit/number-rule.js';
import { addSteppers } from '../chart-kit/handles.js';

// A hand steps one position at a time, ten with Shift or Page Up/Down.
const CLOCK_STEP = numberRule({ step: 1, bigStep: 10 });

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
const fmt = (v, digits = 3) => fixed(v, digits);
const Q_LENGTH = 0.75; // the hands' lengths, as fractions of the clock's radius
const K_LENGTH = 0.9;
const ARC_RADIUS = 0.3;
const HIT = 10; // px: how close the pointer must be to a hand or the arc
const TOUCH_REACH = 22; // px beyond the face's rim where a finger still takes a hand (as a handle's reach)
const PRESETS = [
  [3, 7],
  [103, 107],
  [3, 8],
];

/**
 * The RoPE clock, on the chart skeleton. Its parts: 'query' (the q hand, turned by m·θ), 'key'
 * (the k hand, turned by n·θ) and 'angle' (the arc between them, which alone sets the score).
 */
/**
 * How the clock's angle from q to k relates to the turn between them: k sits (n − m)·θ rad on from
 * q, and the clock shows that angle the short way round, within half a turn either side, so
 * (n − m)·θ = 4 shows as 4 − 2π = −2.283. Returns the turn and the whole turns taken off it
 * written as a term ('− 2π', '+ 2·2π'), or '' when none are.
 */
export function turnBetween(state, angleBetween) {
  const turn = (state.n - state.m) * state.theta;
  const turns = Math.round((turn - angleBetween) / (2 * Math.PI));
  const count = Math.abs(turns);
  const term = turns === 0 ? '' : `${turns > 0 ? '−' : '+'} ${count === 1 ? '' : `${grouped(count)}·`}2π`;
  return { turn, term };
}

/** The clock's description: positions, the angle between the hands (with its wrap), the score. */
export function describeClock(state, clock) {
  const { turn, term } = turnBetween(state, clock.angleBetween);
  const values = {
    m: trim(state.m),
    n: trim(state.n),
    theta: significant(state.theta),
    apart: fmt(Math.abs(clock.angleBetween)),
    turn: fmt(turn),
    angle: fmt(clock.angleBetween),
    term,
    score: fmt(clock.score),
    relative: fmt(clock.relativeScore),
    distance: trim(state.n - state.m),
  };
  return term
    ? t(
        'q at position {m} and k at position {n}, θ {theta}: k is (n − m)·θ = {turn} rad on from q, which the clock shows the short way round as {turn} {term} = {angle} rad; the hands are {apart} rad apart and the score is {score}, the same as ⟨q, R_(n−m) k⟩ = {relative} for distance {distance}.',
        values,
      )
    : t(
        'q at position {m} and k at position {n}, θ {theta}: the hands are {apart} rad apart and the score is {score}, the same as ⟨q, R_(n−m) k⟩ = {relative} for distance {distance}.',
        values,
      );
}

/** How far Play carries both positions. */
const PLAY_POSITIONS = 24;

export const ROPE_CLOCK = defineChart(chartDeclaration('rope-clock'), {
  parts: ['query', 'key', 'angle'],
  focusParts: { m: 'query', n: 'key', theta: 'angle' },
  buttons: PRESETS.map(([m, n]) => ({
    name: `preset-${m}-${n}`,
    label: `m = ${m}, n = ${n}`,
    onClick: (state, controls) => {
      controls.m.set(m);
      controls.n.set(n);
    },
  })),
  // Both hands carried on together, 24 positions in 8 s: each turns, the angle between them does not.
  motion: {
    label: t('Play: move both on'),
    duration: 8000,
    start: ({ state }) => ({ m: state.m, n: state.n }),
    frame: (frac, from) => ({
      m: Math.round(from.m + PLAY_POSITIONS * frac),
      n: Math.round(from.n + PLAY_POSITIONS * frac),
    }),
  },
  compute: {
    clock: {
      reads: ['m', 'n', 'theta'],
      run: (state, engine) => engine.ropeClock([1, 0], [1, 0], state.m, state.n, state.theta),
    },
  },
  canvases: [
    {
      label: t(
        'Clock face: the query and key of one RoPE pair as hands turned by their positions, with the angle between them',
      ),
      aspect: 0.62,
      minHeight: 260,
      maxHeight: 440,
      draw: drawClock,
      hit: partAt,
    },
  ],
  // The help names the input the reader has: a finger (a coarse pointer and no fine one) or a keyboard.
  note: () =>
    globalThis.matchMedia?.('(pointer: coarse) and (not (any-pointer: fine))').matches
      ? t(
          'Touch: put a finger on the face and drag a hand around it; − and + beside m and n turn a hand one position. The m and n fields take exact positions.',
        )
      : t(
          'Keyboard: focus the clock, then ← → (or ↑ ↓) turn the selected hand one position, Page Up/Down ten; Enter switches between q and k. The m and n fields take exact positions.',
        ),
  describe: ({ state, data: { clock } }) => describeClock(state, clock),
  table: ({ state, data: { clock } }) => ({
    caption: t('The two hands'),
    columns: [t('hand'), t('position'), t('turned (rad)'), 'x', 'y'],
    rows: [
      ['q', state.m, state.m * state.theta, clock.qRotated[0], clock.qRotated[1]],
      ['k', state.n, state.n * state.theta, clock.kRotated[0], clock.kRotated[1]],
      [t('score'), '', '', clock.score, ''],
    ],
  }),
  csv: ({ state, data: { clock } }) => ({
    header: ['m', 'n', 'theta', 'q_x', 'q_y', 'k_x', 'k_y', 'angle_between', 'score', 'relative_score'],
    rows: [
      [
        state.m,
        state.n,
        state.theta,
        ...clock.qRotated,
        ...clock.kRotated,
        clock.angleBetween,
        clock.score,
        clock.relativeScore,
      ],
    ],
  }),
  values: ({ data }) => data.clock,
  extend: addDragAndKeys,
});

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createRopeClockChart = ROPE_CLOCK.create;

function trim(v) {
  return decimal(v, 2);
}

/** The part under (px, py): a hand (anywhere along it), or the arc between them. */
function partAt({ data: { clock }, layout: { face } }, px, py) {
  if (!face || !clock) return null;
  const dx = px - face.cx;
  const dy = face.cy - py;
  const radius = Math.hypot(dx, dy);
  // Distance from the pointer to the segment from the centre along `angle` for `length` px.
  const toHand = (angle, length) => {
    const along = Math.max(0, Math.min(length, dx * Math.cos(angle) + dy * Math.sin(angle)));
    return Math.hypot(dx - along * Math.cos(angle), dy - along * Math.sin(angle));
  };
  const q = toHand(clock.qAngle, face.r * Q_LENGTH);
  const k = toHand(clock.kAngle, face.r * K_LENGTH);
  if (radius > HIT && Math.min(q, k) <= HIT) return q <= k ? 'query' : 'key';
  if (Math.abs(radius - face.r * ARC_RADIUS) <= HIT / 2) {
    // Within the arc's sweep: from q's angle by angleBetween (either sign).
    const a = Math.atan2(dy, dx);
    const from = clock.qAngle;
    const sweep = clock.angleBetween;
    const turned = ((((a - from) * Math.sign(sweep || 1)) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    if (turned <= Math.abs(sweep)) return 'angle';
  }
  return null;
}

function hand(ctx, cx, cy, length, angle, color, width, label) {
  const x = cx + Math.cos(angle) * length;
  const y = cy - Math.sin(angle) * length;
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.lineCap = 'round';
  ctx.beginPath();
  ctx.moveTo(cx, cy);
  ctx.lineTo(x, y);
  ctx.stroke();
  if (label) {
    ctx.fillStyle = color;
    ctx.font = `600 12px ${FONT}`;
    ctx.textAlign = Math.cos(angle) >= 0 ? 'left' : 'right';
    ctx.textBaseline = 'middle';
    ctx.fillText(label, x + Math.cos(angle) * 8, y - Math.sin(angle) * 8 - (Math.abs(Math.sin(angle)) < 0.2 ? 8 : 0));
  }
}

function drawClock(ctx, width, height, colors, { state, data: { clock }, highlighted, layout, marks }) {
  if (!clock) return;
  const r = Math.min(height / 2 - 26, width / 2 - 70, 190);
  const cx = width > 560 ? r + 90 : width / 2;
  const cy = height / 2 + 6;
  layout.face = { cx, cy, r };
  ctx.strokeStyle = colors.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, 2 * Math.PI);
  ctx.stroke();
  ctx.fillStyle = colors.muted;
  ctx.font = `11px ${FONT}`;
  for (let k = 0; k < 12; k++) {
    const a = (k * Math.PI) / 6;
    ctx.beginPath();
    ctx.moveTo(cx + Math.cos(a) * r * 0.93, cy - Math.sin(a) * r * 0.93);
    ctx.lineTo(cx + Math.cos(a) * r, cy - Math.sin(a) * r);
    ctx.strokeStyle = colors.muted;
    ctx.stroke();
  }
  // The unrotated q = k = (1, 0) as a faint hand.
  hand(ctx, cx, cy, r * 0.95, 0, colors.grey, 1.5, '');
  // The angle between the hands, from q to k (bold in the text colour when highlighted).
  const qa = clock.qAngle;
  ctx.strokeStyle = highlighted === 'angle' ? colors.fg : colors.muted;
  ctx.lineWidth = highlighted === 'angle' ? 4 : 1.5;
  ctx.beginPath();
  ctx.arc(cx, cy, r * ARC_RADIUS, -qa, -(qa + clock.angleBetween), clock.angleBetween > 0);
  ctx.stroke();
  const handWidth = (part) => (highlighted === part ? 6 : 3.5);
  hand(ctx, cx, cy, r * K_LENGTH, clock.kAngle, colors.blue, handWidth('key'), t('k at n = {n}', { n: trim(state.n) }));
  hand(
    ctx,
    cx,
    cy,
    r * Q_LENGTH,
    clock.qAngle,
    colors.red,
    handWidth('query'),
    t('q at m = {m}', { m: trim(state.m) }),
  );
  if (marks.focused) {
    // The hand the arrow keys turn: a ring at its tip.
    const selected = marks.selected ?? 'm';
    const length = selected === 'm' ? r * Q_LENGTH : r * K_LENGTH;
    const angle = selected === 'm' ? clock.qAngle : clock.kAngle;
    ctx.strokeStyle = selected === 'm' ? colors.red : colors.blue;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(cx + Math.cos(angle) * length, cy - Math.sin(angle) * length, 9, 0, 2 * Math.PI);
    ctx.stroke();
  }
  ctx.fillStyle = colors.fg;
  ctx.beginPath();
  ctx.arc(cx, cy, 4, 0, 2 * Math.PI);
  ctx.fill();
  // Readout beside the clock (below it on narrow screens).
  const between = turnBetween(state, clock.angleBetween);
  const lines = [
    t('q turned by m·θ = {angle} rad → ({x}, {y})', {
      angle: fmt(state.m * state.theta, 2),
      x: fmt(clock.qRotated[0]),
      y: fmt(clock.qRotated[1]),
    }),
    t('k turned by n·θ = {angle} rad → ({x}, {y})', {
      angle: fmt(state.n * state.theta, 2),
      x: fmt(clock.kRotated[0]),
      y: fmt(clock.kRotated[1]),
    }),
    between.term
      ? t('angle from q to k: {turn} {term} = {angle} rad', {
          turn: fmt(between.turn),
          term: between.term,
          angle: fmt(clock.angleBetween),
        })
      : t('angle from q to k: {angle} rad', { angle: fmt(clock.angleBetween) }),
    t('score ⟨R_m q, R_n k⟩ = {score}', { score: fmt(clock.score) }),
    t('⟨q, R_(n−m) k⟩ = {relative} (distance {distance})', {
      relative: fmt(clock.relativeScore),
      distance: trim(state.n - state.m),
    }),
  ];
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  const tx = cx + r + 28;
  // Beside the clock in 13 px, or 12 or 11 px when that is what fits; on narrow screens the
  // live description under the chart carries the numbers instead.
  const size = [13, 12, 11].find((px) => {
    ctx.font = `${px}px ${FONT}`;
    return Math.max(...lines.map((line) => ctx.measureText(line).width)) <= width - tx - 8;
  });
  if (!size) return;
  ctx.font = `${size}px ${FONT}`;
  let ty = cy - 50;
  for (const line of lines) {
    ctx.fillStyle = colors.fg;
    ctx.fillText(line, tx, ty);
    ty += size + 7;
  }
}

/**
 * The clock's own handling of the reader: dragging a hand (the nearer hand follows the pointer; its
 * position changes by the turned angle / θ), and the clock as a focusable slider for the selected
 * hand (arrows turn it by one position, Page Up/Down by ten, Enter or Space switches hands, q/m and
 * k/n pick one). Every change goes through the m and n controls, as if typed.
 */
function addDragAndKeys(chart, { state, data, layout, marks, controls, canvases: [plot], afterUpdate }) {
  const canvas = plot.canvas;
  marks.selected = 'm';
  marks.focused = false;
  let dragging = null;
  const pointerAngle = (event) => {
    const rect = canvas.getBoundingClientRect();
    return Math.atan2(-(event.clientY - rect.top - layout.face.cy), event.clientX - rect.left - layout.face.cx);
  };
  // A finger on the face turns a hand; elsewhere on the canvas it scrolls the page. The browser fixes
  // a touch's panning when it starts (the canvas allows pan and zoom, see charts.css), so the face
  // claims its touches by cancelling touchstart: the pointer events then run on without a pointercancel.
  const onFace = (x, y) => {
    const rect = canvas.getBoundingClientRect();
    return Math.hypot(x - rect.left - layout.face.cx, y - rect.top - layout.face.cy) <= layout.face.r + TOUCH_REACH;
  };
  canvas.addEventListener(
    'touchstart',
    (event) => {
      const [touch] = event.touches;
      if (event.touches.length === 1 && layout.face && data.clock && onFace(touch.clientX, touch.clientY))
        event.preventDefault();
    },
    { passive: false },
  );
  canvas.addEventListener('pointerdown', (event) => {
    if (!layout.face || !data.clock) return;
    if (event.pointerType === 'touch' && !onFace(event.clientX, event.clientY)) return;
    const a = pointerAngle(event);
    const distance = (b) => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));
    const which = distance(data.clock.qAngle) <= distance(data.clock.kAngle) ? 'm' : 'n';
    // The turn accumulates as a real number; the hand lands on whole positions, the clock's only ones.
    dragging = { which, last: a, position: state[which] };
    select(dragging.which);
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!dragging) return;
    const a = pointerAngle(event);
    const turned = Math.atan2(Math.sin(a - dragging.last), Math.cos(a - dragging.last));
    dragging.last = a;
    dragging.position += turned / state.theta;
    const next = Math.round(dragging.position);
    if (next !== state[dragging.which]) controls[dragging.which].set(next);
  });
  const stop = () => {
    dragging = null;
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);

  // − and + beside m and n: each hand turned a position without a drag (WCAG 2.5.7).
  for (const which of ['m', 'n'])
    addSteppers(
      controls[which].input,
      CHART_DECLARATIONS['rope-clock'].controls[which].label,
      (element, type, fn) => element.addEventListener(type, fn),
      (key) => {
        select(which);
        controls[which].set(CLOCK_STEP.stepped(state[which], key));
      },
    );

  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'slider');
  canvas.setAttribute('aria-orientation', 'horizontal');
  canvas.setAttribute('aria-valuemin', String(controls.m.input.min));
  canvas.setAttribute('aria-valuemax', String(controls.m.input.max));
  canvas.setAttribute(
    'aria-label',
    t('RoPE clock. Arrow keys turn the selected hand by one position, Enter switches between the q and k hands'),
  );
  function select(which) {
    marks.selected = which;
    syncSlider();
  }
  function syncSlider() {
    canvas.setAttribute('aria-valuenow', String(state[marks.selected]));
    const position = trim(state[marks.selected]);
    canvas.setAttribute(
      'aria-valuetext',
      marks.selected === 'm'
        ? t('query hand q at position {position}', { position })
        : t('key hand k at position {position}', { position }),
    );
  }
  canvas.addEventListener('keydown', (event) => {
    // The hands have no ends to jump to: Home and End step nothing here.
    const next = isStepKey(event)
      ? CLOCK_STEP.stepped(state[marks.selected], event.key, { shift: event.shiftKey })
      : null;
    if (next !== null) {
      controls[marks.selected].set(Math.round(next));
    } else if (event.key === 'Enter' || event.key === ' ') {
      select(marks.selected === 'm' ? 'n' : 'm');
      plot.redraw();
    } else if (['q', 'm', 'k', 'n'].includes(event.key)) {
      select(event.key === 'q' || event.key === 'm' ? 'm' : 'n');
      plot.redraw();
    } else {
      return;
    }
    event.preventDefault();
  });
  canvas.addEventListener('focus', () => {
    marks.focused = true;
    plot.redraw();
  });
  canvas.addEventListener('blur', () => {
    marks.focused = false;
    plot.redraw();
  });
  syncSlider();
  afterUpdate(syncSlider);
  /** A point near the tip of `part`'s hand ('query' or 'key'), in CSS pixels of the canvas (for tests). */
  chart.tipOf = (part) => {
    const { cx, cy, r } = layout.face;
    const [angle, length] = part === 'key' ? [data.clock.kAngle, K_LENGTH] : [data.clock.qAngle, Q_LENGTH];
    return { x: cx + Math.cos(angle) * r * length * 0.8, y: cy - Math.sin(angle) * r * length * 0.8 };
  };
  /** The clock face's centre and radius, in CSS pixels of the canvas (for tests). */
  chart.face = () => ({ ...layout.face });
}
