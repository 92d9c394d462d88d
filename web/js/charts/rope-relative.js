// Figure 3, live: the RoPE score ⟨R_m q, R_{m+δ} k⟩ against the distance δ for three query
// starts. The curves coincide: the score depends only on distance. q and k are numpy's
// default_rng(seed).standard_normal(d) drawn twice (seed 0 is the lesson's figure).

import { fixed, grouped, sciUnicode, significant } from '../format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import {
  NARROW_LEGEND,
  drawAxes,
  drawLegend,
  drawLine,
  legendCorner,
  legendSpace,
  plotFrame,
} from '../chart-kit/plot.js';
import { linearScale, niceTicks } from '../chart-kit/scales.js';
import { drawKnob } from '../chart-kit/handles.js';
import { CHART_DECLARATIONS } from './declarations.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
export const { controls: CONTROLS, aliases: URL_ALIASES } = CHART_DECLARATIONS['rope-relative'];
const MAX_DISTANCE = 59;
const STYLES = [[], [7, 4], [2, 3]];
const DISTANCES = Array.from({ length: MAX_DISTANCE + 1 }, (_, j) => j);

/**
 * The key as a handle on the distance axis: a vertical marker at δ = n − m, its knob near the
 * bottom of the plot, the whole marker grabbable; each query's score at that key is ringed.
 */
const KEY_HANDLE = {
  key: 'delta',
  part: 'key',
  label: 'key distance δ (key position n = m + δ)',
  axis: 'x',
  scale: ({ layout: { x } }) => x ?? null,
  across: ({ layout: { frame } }) => frame.y + frame.h - 12,
  near: ({ state, layout: { frame, x } }, px, py) =>
    Boolean(frame) && py >= frame.y && py <= frame.y + frame.h && Math.abs(x(state.delta) - px) <= 5,
  snap: Math.round,
  step: 1,
  bigStep: 10,
  valueText: (v, { state }) =>
    `distance ${v}: keys at ${[state.s0, state.s1, state.s2].map((s) => grouped(s + v)).join(', ')}`,
};

/**
 * Scores over distance for three query positions, with a new-random-q,k button, on the chart
 * skeleton. Its parts: 'query' (the three query positions, one curve each) and 'key' (the key's
 * position, n = m + δ along the distance axis).
 */
export const ROPE_RELATIVE = defineChart({
  id: 'rope-relative',
  controls: CONTROLS,
  aliases: URL_ALIASES,
  parts: ['query', 'key'],
  focusParts: { s0: 'query', s1: 'query', s2: 'query', delta: 'key' },
  handles: [KEY_HANDLE],
  buttons: [
    {
      name: 'new-qk',
      label: 'New random q, k',
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
      label: 'Line chart: RoPE attention score against the distance between key and query, for three query positions',
      aspect: (width) => (width < NARROW_LEGEND ? 0.95 : 0.6),
      draw: drawScores,
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
  ],
  describe({ state, data: { starts, scores } }) {
    let spread = 0;
    for (let j = 0; j <= MAX_DISTANCE; j++) {
      const col = starts.map((_, r) => scores.data[r * scores.cols + j]);
      spread = Math.max(spread, Math.max(...col) - Math.min(...col));
    }
    return (
      `Scores for queries at ${starts.map(grouped).join(', ')} with q, k from seed ${state.seed} (d ${grouped(state.d)}, base ${significant(state.base)}): ` +
      `at distance 0 the score is ${fixed(scores.data[0], 3)}; the three curves differ by at most ${spread === 0 ? '0' : sciUnicode(spread, 1)}, so only the distance matters. ` +
      `Keys at distance ${state.delta} (positions ${starts.map((s) => grouped(s + state.delta)).join(', ')}) all score ${fixed(scores.data[state.delta], 3)}.`
    );
  },
  table: ({ data }) => ({
    caption: 'Score by distance and start',
    columns: ['distance', ...data.starts.map((s) => `start ${grouped(s)}`)],
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

function drawScores(ctx, width, height, colors, { state, data: { starts, scores }, highlighted, layout, marks }) {
  if (!scores) return;
  const legend = starts.map((s, r) => ({
    label: `query at position ${grouped(s)}`,
    color: colors.cycle[r],
    dash: STYLES[r],
  }));
  const frame = plotFrame(width, height, { bottom: 46 + legendSpace(ctx, legend, width) });
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
  drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, MAX_DISTANCE, 6),
    yTicks: niceTicks(lo - pad, hi + pad, 6),
    xLabel: 'distance between key and query (n − m)',
    yLabel: 'attention score q·k',
    title: 'With RoPE the score depends only on distance',
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
    drawLine(ctx, frame, x, y, DISTANCES, Array.from(scores.data.subarray(r * scores.cols, (r + 1) * scores.cols)), {
      color: colors.cycle[r],
      dash: STYLES[r],
      ...(highlighted === 'query' ? { width: 3.5 } : {}),
    });
  });
  // The key marker: a vertical line at δ, each query's score there ringed, and the handle's knob.
  const kx = x(state.delta);
  ctx.save();
  ctx.strokeStyle = colors.fg;
  ctx.lineWidth = highlighted === 'key' ? 2.5 : 1.2;
  ctx.setLineDash([3, 3]);
  ctx.beginPath();
  ctx.moveTo(kx, frame.y);
  ctx.lineTo(kx, frame.y + frame.h);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.lineWidth = 2;
  starts.forEach((_, r) => {
    ctx.strokeStyle = colors.cycle[r];
    ctx.beginPath();
    ctx.arc(kx, y(scores.data[r * scores.cols + state.delta]), 4 + 2.5 * r, 0, 2 * Math.PI);
    ctx.stroke();
  });
  ctx.restore();
  drawKnob(ctx, kx, frame.y + frame.h - 12, colors, marks.handle === 'delta');
  drawLegend(ctx, frame, colors, legend, legendCorner(width, 'tr'));
}
