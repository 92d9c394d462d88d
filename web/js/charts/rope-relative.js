// Figure 3, live: the RoPE score ⟨R_m q, R_{m+δ} k⟩ against the distance δ for three query
// starts. The curves coincide: the score depends only on distance. q and k are numpy's
// default_rng(seed).standard_normal(d) drawn twice (seed 0 is the lesson's figure).

import { fixed, grouped, listed, powerOfTen, sciUnicode, significant } from '../locale/format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import * as plot from '../chart-kit/plot.js';
import { linearScale, niceTicks, oneTwoFive } from '../chart-kit/scales.js';
import { drawWithKnobs, drawMarker, markerHandle } from '../chart-kit/handles.js';
import { FONT } from '../chart-kit/canvas.js';
import { chartDeclaration } from './declarations.js';
import { t } from '../locale/i18n.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
const MAX_DISTANCE = 59;
const STYLES = [[], [7, 4], [2, 3]];
const DISTANCES = Array.from({ length: MAX_DISTANCE + 1 }, (_, j) => j);

/**
 * The key as a handle on the distance axis: a vertical marker at δ = n − m, its knob near the
 * bottom of the plot, the whole marker grabbable; each query's score at that key is ringed.
 */
const KEY_HANDLE = markerHandle({
  key: 'delta',
  part: 'key',
  label: t('key distance δ (key position n = m + δ)'),
  across: ({ layout: { frame } }) => frame.y + frame.h - 12,
  snap: Math.round,
  step: 1,
  bigStep: 10,
  valueText: (v, { state }) =>
    t('distance {distance}: keys at {keys}', {
      distance: v,
      keys: listed([state.s0, state.s1, state.s2].map((s) => grouped(s + v))),
    }),
});

const RULER = 1; // the canvas with the query positions' number line
const LARGEST_START = 1e6;

/**
 * The number line of query positions: log-like (log₁₀(1 + m)), so 0, 100 and 1,000 sit apart at
 * any width and the whole range 0 to 1,000,000 fits without the scale following the value.
 */
function rulerScale(frame) {
  const top = Math.log10(1 + LARGEST_START);
  const f = (m) => frame.x + (Math.log10(1 + Math.max(0, m)) / top) * frame.w;
  f.invert = (px) => 10 ** (((px - frame.x) / frame.w) * top) - 1;
  return f;
}

/** The three query starts as handles on the ruler, each knob ringed in its curve's colour. */
const QUERY_HANDLES = ['s0', 's1', 's2'].map((key, r) => ({
  key,
  part: 'query',
  label: t('query position {index}', { index: r + 1 }),
  canvas: RULER,
  axis: 'x',
  ring: (colors) => colors.cycle[r],
  scale: ({ layout: { ruler } }) => (ruler ? rulerScale(ruler) : null),
  across: ({ layout: { ruler } }) => ruler.y,
  // Even steps on the log-like line: an arrow moves a tenth further (at least 1), Shift doubles (at least 10).
  keyStep: (v, direction, big) => {
    const [k, least] = big ? [2, 10] : [1.1, 1];
    return direction > 0 ? Math.max(v + least, Math.round(v * k)) : Math.min(v - least, Math.round(v / k));
  },
  // A drag walks 0, 1, 2, 5, 10, 20 … (100 and 1,000, the lesson's starts, among them).
  dragStops: () => oneTwoFive(0, LARGEST_START),
  valueText: (v) => t('query at position {position}', { position: grouped(v) }),
}));

/**
 * Scores over distance for three query positions, with a new-random-q,k button, on the chart
 * skeleton. Its parts: 'query' (the three query positions, one curve each) and 'key' (the key's
 * position, n = m + δ along the distance axis).
 */
export const ROPE_RELATIVE = defineChart(chartDeclaration('rope-relative'), {
  parts: ['query', 'key'],
  focusParts: { s0: 'query', s1: 'query', s2: 'query', delta: 'key' },
  handles: [KEY_HANDLE, ...QUERY_HANDLES],
  // The first query carried from where it is out to a million: its curve never leaves the others.
  motion: {
    label: t('Play: carry query 1 to a million'),
    duration: 5000,
    start: ({ state }) => ({ from: Math.log10(1 + state.s0), to: Math.log10(1 + LARGEST_START) }),
    frame: (frac, { from, to }) => ({ s0: Math.round(10 ** (from + (to - from) * frac) - 1) }),
  },
  buttons: [
    {
      name: 'new-qk',
      label: t('New random q, k'),
      onClick: (state, controls) => controls.seed.set(state.seed < 1e6 ? state.seed + 1 : 0),
    },
  ],
  compute: {
    // q and k: one draw of 2d standard normals; the query positions do not change them.
    qk: {
      reads: ['seed', 'd'],
      run(state, engine) {
        const draws = engine.standardNormal(String(state.seed), 2 * state.d);
        return { q: draws.subarray(0, state.d), k: draws.subarray(state.d, 2 * state.d) };
      },
    },
    starts: { reads: ['s0', 's1', 's2'], run: (state) => [state.s0, state.s1, state.s2] },
    scores: {
      reads: ['base'],
      after: ['qk', 'starts'],
      run: (state, engine, { qk, starts }) =>
        engine.ropeScoresOverDistance(qk.q, qk.k, starts, MAX_DISTANCE, state.base),
    },
  },
  canvases: [
    {
      label: t(
        'Line chart: RoPE attention score against the distance between key and query, for three query positions',
      ),
      aspect: plot.legendAspect(0.95, 0.6),
      reads: ['delta', 'starts', 'scores'],
      draw: drawWithKnobs(drawScores, [KEY_HANDLE]),
      hit({ data: { scores }, layout: { frame, x, y } }, px, py) {
        if (!frame) return null;
        const inX = px >= frame.x && px <= frame.x + frame.w;
        const bottom = frame.y + frame.h;
        if (inX && py > bottom && py <= bottom + 46) return 'key'; // the distance axis and its label
        const j = Math.round(x.invert(px));
        if (!inX || j < 0 || j > MAX_DISTANCE) return null;
        for (let r = 0; r < scores.rows; r++) {
          if (Math.abs(y(scores.data[r * scores.cols + j]) - py) < 10) return 'query';
        }
        return null;
      },
    },
    {
      label: t(
        'Number line of the three query positions, from 0 to 1,000,000 (logarithmic): drag one and its curve stays on the others',
      ),
      aspect: 0.12,
      minHeight: 74,
      maxHeight: 84,
      // The ruler only moves with the query positions (its knobs): a key step leaves it as it is.
      reads: ['s0', 's1', 's2'],
      shows: ['query'],
      draw: drawWithKnobs(drawRuler, QUERY_HANDLES, { canvas: RULER }),
    },
  ],
  describe({ state, data: { starts, scores } }) {
    let spread = 0;
    for (let j = 0; j <= MAX_DISTANCE; j++) {
      const col = starts.map((_, r) => scores.data[r * scores.cols + j]);
      spread = Math.max(spread, Math.max(...col) - Math.min(...col));
    }
    return t(
      'Scores for queries at {starts} with q, k from seed {seed} (d {d}, base {base}): at distance 0 the score is {score0}; the three curves differ by at most {spread}, so only the distance matters. Keys at distance {delta} (positions {keys}) all score {score}.',
      {
        starts: listed(starts.map(grouped)),
        seed: grouped(state.seed),
        d: grouped(state.d),
        base: significant(state.base),
        score0: fixed(scores.data[0], 3),
        spread: spread === 0 ? '0' : sciUnicode(spread, 1),
        delta: state.delta,
        keys: listed(starts.map((s) => grouped(s + state.delta))),
        score: fixed(scores.data[state.delta], 3),
      },
    );
  },
  table: ({ data }) => ({
    caption: t('Score by distance and start'),
    columns: [t('distance'), ...data.starts.map((s) => t('start {start}', { start: grouped(s) }))],
    rows: rows(data),
    limit: 60,
  }),
  csv: ({ data }) => ({ header: ['distance', ...data.starts.map((s) => `start ${s}`)], rows: rows(data) }),
  values: ({ data }) => data.scores,
});

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createRopeRelativeChart = ROPE_RELATIVE.create;

const rows = ({ starts, scores }) =>
  DISTANCES.map((j) => [j, ...starts.map((_, r) => scores.data[r * scores.cols + j])]);

function drawScores(ctx, width, height, colors, { state, data: { starts, scores }, highlighted, layout }) {
  if (!scores) return;
  const legend = starts.map((s, r) => ({
    label: t('query at position {position}', { position: grouped(s) }),
    color: colors.cycle[r],
    dash: STYLES[r],
  }));
  const frame = plot.plotFrame(width, height, { bottom: 46 + plot.legendSpace(ctx, legend, width) });
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of scores.data) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const pad = (hi - lo) * 0.06 || 1;
  const x = linearScale(-3, MAX_DISTANCE + 3, frame.x, frame.x + frame.w);
  const y = linearScale(lo - pad, hi + pad, frame.y + frame.h, frame.y);
  Object.assign(layout, { frame, x, y });
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, MAX_DISTANCE, 6),
    yTicks: niceTicks(lo - pad, hi + pad, 6),
    xLabel: t('distance between key and query (n − m)'),
    yLabel: t('attention score q·k'),
    title: t('With RoPE the score depends only on distance'),
  });
  if (highlighted === 'key') {
    // The key's position n = m + δ runs along the distance axis: that axis drawn bold.
    ctx.save();
    ctx.strokeStyle = colors.fg;
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.moveTo(frame.x, frame.y + frame.h);
    ctx.lineTo(frame.x + frame.w, frame.y + frame.h);
    ctx.stroke();
    ctx.restore();
  }
  starts.forEach((s, r) => {
    plot.drawLine(
      ctx,
      frame,
      x,
      y,
      DISTANCES,
      Array.from(scores.data.subarray(r * scores.cols, (r + 1) * scores.cols)),
      {
        color: colors.cycle[r],
        dash: STYLES[r],
        ...(highlighted === 'query' ? { width: 3.5 } : {}),
      },
    );
  });
  // The key marker: a vertical line at δ, each query's score there ringed (the rings nest: the curves coincide).
  const rings = starts.map((_, r) => ({
    y: y(scores.data[r * scores.cols + state.delta]),
    color: colors.cycle[r],
    radius: 4 + 2.5 * r,
  }));
  drawMarker(ctx, frame, x(state.delta), rings, colors, highlighted === 'key');
  plot.drawLegend(ctx, frame, colors, legend, plot.legendCorner(width, 'tr'));
}

/** The query positions' number line: ticks at 0, 1, 10, … 1,000,000; the knobs are the handles. */
function drawRuler(ctx, width, height, colors, { highlighted, layout }) {
  const frame = { x: 24, w: width - 48, y: 22 };
  layout.ruler = frame;
  const x = rulerScale(frame);
  ctx.save();
  ctx.strokeStyle = colors.muted;
  ctx.lineWidth = highlighted === 'query' ? 2.5 : 1;
  ctx.beginPath();
  ctx.moveTo(frame.x, frame.y);
  ctx.lineTo(frame.x + frame.w, frame.y);
  ctx.stroke();
  ctx.font = `11px ${FONT}`;
  ctx.fillStyle = colors.muted;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  ctx.lineWidth = 1;
  for (let e = -1; e <= 6; e++) {
    const m = e < 0 ? 0 : 10 ** e;
    const px = x(m);
    ctx.beginPath();
    ctx.moveTo(px, frame.y - 4);
    ctx.lineTo(px, frame.y + 4);
    ctx.stroke();
    if (width >= 420 || e % 2 === 1 || e === 6) ctx.fillText(e < 0 ? '0' : powerOfTen(e), px, frame.y + 11); // one notation: powers of ten
  }
  ctx.fillStyle = colors.fg;
  ctx.textBaseline = 'bottom';
  ctx.fillText(
    width >= 420 ? t('query positions m: drag one, its curve stays on the others') : t('query positions m (drag one)'),
    width / 2,
    height - 2,
  );
  ctx.restore();
}
