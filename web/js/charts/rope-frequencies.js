// Figure 4, live: the rotation angle (mod 2π) of a few RoPE pairs over positions 0..199. Fast
// pairs wrap every few tokens, slow pairs barely turn. Pair picker, d and base controls; the pair
// picker's parsing and note (parsePairs, pickedPairs, pairsNote) and the position-read handle
// (positionReadHandle) serve the precision chart too.

import { decimal, grouped, listed, significant, twoSignificant } from '../locale/format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import * as plot from '../chart-kit/plot.js';
import { linearScale } from '../chart-kit/scales.js';
import { drawWithKnobs, drawMarker, markerHandle } from '../chart-kit/handles.js';
import { chartDeclaration, MAX_PAIRS, PAIR_ANGLE_POSITIONS } from './declarations.js';
import { t } from '../locale/i18n.js';

const N = PAIR_ANGLE_POSITIONS;

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */

/** Parses "0, 4, 12" into distinct whole pair indices within 0..last; says what it dropped. */
export function parsePairs(text, last) {
  const out = [];
  const dropped = [];
  for (const token of String(text)
    .split(/[\s,;]+/)
    .filter(Boolean)) {
    const v = Number(token);
    if (!Number.isInteger(v) || v < 0 || v > last) dropped.push(token);
    else if (!out.includes(v) && out.length < MAX_PAIRS) out.push(v);
    else if (!out.includes(v)) dropped.push(token);
  }
  return { pairs: out, dropped };
}

/** The pair indices the pairs field picks, for a chart whose state holds `pairs` (the text) and `d`. */
export function pickedPairs(state) {
  return parsePairs(state.pairs, state.d / 2 - 1).pairs;
}

/** The note beside the pairs field: what parsePairs dropped and why, or a call to pick one when none is left. */
export function pairsNote(state) {
  const last = state.d / 2 - 1;
  const { pairs, dropped } = parsePairs(state.pairs, last);
  if (dropped.length)
    return t('Ignored {dropped}: pairs are whole numbers from 0 to {last}, at most {max}.', {
      dropped: listed(dropped),
      last,
      max: MAX_PAIRS,
    });
  return pairs.length ? '' : t('Pick at least one pair.');
}

const POSITIONS = Float64Array.from({ length: N }, (_, i) => i);

/**
 * The position-read control as a handle: a vertical marker on the position axis, keyed 'position'.
 * `options` place it (across) and may bound and step it; both pair charts use it.
 */
export function positionReadHandle(options) {
  return markerHandle({
    key: 'position',
    label: t('position read'),
    valueText: (v) => t('position {position}', { position: grouped(v) }),
    ...options,
  });
}

/**
 * The position read as a handle on the position axis: a vertical marker with each pair's angle
 * there ringed (the angles are the hands of the clock at that position).
 */
const POSITION_HANDLE = positionReadHandle({
  // At the top of the frame, above 2π, where no line runs (the slow pairs crowd the bottom).
  across: ({ layout: { frame } }) => frame.y + 7,
});

/** The pair-angle chart on the chart skeleton; its parts are the fastest and slowest pair shown. */
export const ROPE_FREQUENCIES = defineChart(chartDeclaration('rope-frequencies'), {
  parts: ['slowest-pair', 'fastest-pair', 'position'],
  focusParts: { position: 'position' },
  handles: [POSITION_HANDLE],
  reconcile(state, controls) {
    controls.pairs.note(pairsNote(state));
  },
  compute: {
    pairs: { reads: ['pairs', 'd'], run: pickedPairs },
    theta: { reads: ['d', 'base'], run: (state, engine) => engine.ropeFrequencies(state.d, state.base) },
    angles: {
      reads: ['d', 'base'],
      after: ['pairs'],
      run: (state, engine, { pairs }) =>
        pairs.length ? engine.ropePairAngles(POSITIONS, pairs, state.d, state.base, true) : null,
    },
  },
  canvases: [
    {
      label: t('Line chart: rotation angle modulo 2π of selected RoPE pairs over positions 0 to 199'),
      aspect: plot.legendAspect(0.95, 0.6),
      draw: drawWithKnobs(drawAngles, [POSITION_HANDLE], { shown: ({ data }) => Boolean(data.angles) }),
      hit({ data: { pairs, angles }, layout }, px, py) {
        if (!angles || !layout.x) return null;
        const j = Math.round(layout.x.invert(px));
        if (j < 0 || j >= N) return null;
        let nearest = -1;
        let best = 10; // px: how close the pointer must be to a line
        pairs.forEach((_, r) => {
          const gap = Math.abs(layout.y(angles.data[r * N + j]) - py);
          if (gap < best) [nearest, best] = [r, gap];
        });
        return nearest < 0 ? null : partOfPair(pairs, pairs[nearest]);
      },
    },
  ],
  describe: ({ state, data: { pairs, theta, angles } }) =>
    pairs.length
      ? t('Angles of pairs {pairs} for d {d}, base {base}: {turns}. At the marked position {position}: {angles}.', {
          pairs: listed(pairs),
          d: grouped(state.d),
          base: significant(state.base),
          turns: clauseListOf(pairs.map((p) => pairTurn(p, theta[p]))),
          position: grouped(state.position),
          angles: listed(
            pairs.map((p, r) =>
              t('pair {pair} at {angle} rad', { pair: p, angle: decimal(angles.data[r * N + state.position], 2, 2) }),
            ),
          ),
        })
      : t('No pair selected.'),
  table: ({ data }) => ({
    caption: t('Angle (rad, mod 2π) by position'),
    columns: [t('position'), ...data.pairs.map((p) => t('pair {pair}', { pair: p }))],
    rows: data.angles ? rows(data) : [],
  }),
  csv: ({ data }) => ({ header: ['position', ...data.pairs.map((p) => `pair ${p}`)], rows: rows(data) }),
  values: ({ data }) => data.angles,
  extend(chart, { layout, data }) {
    /** Where pair `pair`'s line is drawn at `position`, in CSS pixels of the canvas (for tests). */
    chart.pointOf = (pair, position) => {
      const r = data.pairs.indexOf(pair);
      return { x: layout.x(position), y: layout.y(data.angles.data[r * N + position]) };
    };
  },
});

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createRopeFrequenciesChart = ROPE_FREQUENCIES.create;

const rows = ({ pairs, angles }) =>
  Array.from({ length: N }, (_, j) => [j, ...pairs.map((_, r) => angles.data[r * N + j])]);

/** How far pair `pair` turns per position (θ = `theta`), and how often it comes round, for describe(). */
function pairTurn(pair, theta) {
  const params = { pair, theta: twoSignificant(theta), period: decimal((2 * Math.PI) / theta, 1, 1), n: N };
  return theta * N > 2 * Math.PI
    ? t('pair {pair} turns {theta} rad per position, a full turn every {period} positions', params)
    : t('pair {pair} turns {theta} rad per position, less than a full turn over {n} positions', params);
}

/** 'fastest-pair' for the lowest pair index shown (the largest θ), 'slowest-pair' for the highest. */
function partOfPair(pairs, pair) {
  if (pair === Math.min(...pairs)) return 'fastest-pair';
  if (pair === Math.max(...pairs)) return 'slowest-pair';
  return null;
}

function drawAngles(ctx, width, height, colors, { state, data: { pairs, theta, angles }, highlighted, layout }) {
  const legend = angles
    ? pairs.map((p, r) => ({
        label: t('pair {pair} (θ={theta})', { pair: p, theta: twoSignificant(theta[p]) }),
        color: colors.cycle[r],
      }))
    : [];
  const frame = plot.plotFrame(width, height, { bottom: 46 + plot.legendSpace(ctx, legend, width) });
  const x = linearScale(-10, N + 9, frame.x, frame.x + frame.w);
  const y = linearScale(-0.32, 2 * Math.PI + 0.32, frame.y + frame.h, frame.y);
  Object.assign(layout, { frame, x, y });
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: [0, 25, 50, 75, 100, 125, 150, 175, 200],
    yTicks: [0, 1, 2, 3, 4, 5, 6],
    xLabel: t('position'),
    yLabel: t('rotation angle (mod 2π)'),
    title: t('RoPE: fast hands for local order, slow hands for long range'),
  });
  if (!angles) return;
  pairs.forEach((p, r) => {
    const emphasised = highlighted && partOfPair(pairs, p) === highlighted;
    ctx.save();
    if (highlighted && !emphasised) ctx.globalAlpha = 0.3;
    plot.drawLine(ctx, frame, x, y, POSITIONS, angles.data.subarray(r * N, (r + 1) * N), {
      color: colors.cycle[r],
      width: emphasised ? 3.5 : 1.5,
    });
    ctx.restore();
  });
  // The position marker: each pair's angle at the marked position ringed.
  const rings = pairs.map((_, r) => ({ y: y(angles.data[r * N + state.position]), color: colors.cycle[r] }));
  drawMarker(ctx, frame, x(state.position), rings, colors, highlighted === 'position');
  plot.drawLegend(ctx, frame, colors, legend, plot.legendCorner(width, 'tr'));
}

/** `items` (clauses that may hold commas) as a list: "a; b; c" in English; a translation picks its own separator. */
function clauseListOf(items) {
  return items.reduce((list, item) => t('{list}; {item}', { list, item }));
}
