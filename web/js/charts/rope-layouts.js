// Section 6, live: which pairs of one head turn, and how slowly, under three layouts of RoPE at
// the same head width and base. Full RoPE turns every pair, θ_i = base^(−2i/d). Partial RoPE (GPT-NeoX,
// Qwen3-Next) turns the first k pairs, spacing their frequencies over the turning part alone,
// base^(−2i/2k), and leaves the rest still. Proportional RoPE (p-RoPE, Gemma 4) turns the same first
// k pairs exactly as full RoPE would and sets the rest to frequency 0. k = floor(share · d / 2) is
// the engine's count (proportionalRopeFrequencies); every frequency and wavelength is the engine's.

import { grouped, significant } from '../locale/format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import * as plot from '../chart-kit/plot.js';
import { FONT } from '../chart-kit/canvas.js';
import { linearScale, logScale, logTicks, niceTicks } from '../chart-kit/scales.js';
import { chartDeclaration } from './declarations.js';
import { t, tn } from '../locale/i18n.js';

/** The three layouts, in the order they are drawn, listed and tabled; each is a part of the chart. */
const LAYOUTS = [
  { part: 'full', label: t('full RoPE'), color: (c) => c.grey, dash: [5, 3] },
  { part: 'partial', label: t('partial RoPE'), color: (c) => c.cycle[1], dash: [] },
  { part: 'proportional', label: t('proportional RoPE (p-RoPE)'), color: (c) => c.blue, dash: [] },
];

/** Each pair's wavelength 2π/θ_i (Infinity for a pair that never turns), through the engine. */
function wavelengths(engine, theta) {
  const turning = theta.filter((v) => v > 0);
  const waves = turning.length ? engine.pairWavelengths(turning) : [];
  return Array.from(theta, (v, i) => (v > 0 ? waves[i] : Infinity));
}

function compute(state, engine) {
  const pairs = state.d / 2;
  const proportional = engine.proportionalRopeFrequencies(state.d, state.base, state.share / 100);
  const turning = proportional.filter((v) => v > 0).length;
  const full = engine.ropeFrequencies(state.d, state.base);
  const partial = new Float64Array(pairs);
  if (turning > 0) partial.set(engine.ropeFrequencies(2 * turning, state.base));
  const waves = {
    full: wavelengths(engine, full),
    partial: wavelengths(engine, partial),
    proportional: wavelengths(engine, proportional),
  };
  const slowest = Object.fromEntries(
    Object.entries(waves).map(([k, w]) => [k, Math.max(...w.filter(Number.isFinite))]),
  );
  return { pairs, turning, waves, slowest };
}

/** The pairs' layout chart on the chart skeleton; its parts are the three layouts. */
export const ROPE_LAYOUTS = defineChart(chartDeclaration('rope-layouts'), {
  parts: LAYOUTS.map((l) => l.part),
  compute: { layouts: { reads: ['d', 'base', 'share'], run: compute } },
  canvases: [
    {
      label: t('Line chart: the wavelength of each pair of one head under full, partial and proportional RoPE'),
      aspect: plot.legendAspect(1.2, 0.55),
      draw: drawLayouts,
      hit({ data: { layouts }, layout }, px, py) {
        if (!layouts || !layout.x) return null;
        const i = Math.round(layout.x.invert(px));
        if (i < 0 || i >= layouts.pairs) return null;
        let nearest = null;
        let best = 10; // px: how close the pointer must be to a line
        for (const { part } of LAYOUTS) {
          const gap = Math.abs(layout.yOf(layouts.waves[part][i], part) - py);
          if (gap < best) [nearest, best] = [part, gap];
        }
        return nearest;
      },
    },
  ],
  describe: ({ state, data: { layouts } }) =>
    // Every pair turning is a case of its own: partial and proportional RoPE are full RoPE then.
    layouts.turning === layouts.pairs
      ? t(
          'A head of {d} numbers ({pairs} pairs), base {base}, {share}% turning: every pair turns, so partial and proportional RoPE are full RoPE here, the slowest pair once every {full} positions.',
          {
            d: grouped(state.d),
            pairs: grouped(layouts.pairs),
            base: significant(state.base),
            share: grouped(state.share),
            full: grouped(Math.round(layouts.slowest.full)),
          },
        )
      : layouts.turning === 0
        ? t(
            'A head of {d} numbers ({pairs} pairs), base {base}: {share}% of the pairs is less than one pair, so under partial and proportional RoPE no pair turns; full RoPE turns every pair, the slowest once every {full} positions.',
            {
              d: grouped(state.d),
              pairs: grouped(layouts.pairs),
              base: significant(state.base),
              share: grouped(state.share),
              full: grouped(Math.round(layouts.slowest.full)),
            },
          )
        : t(
            'A head of {d} numbers ({pairs} pairs), base {base}, {share}% turning ({turning}): full RoPE turns every pair, the slowest once every {full} positions; partial RoPE turns {turned}, spaced over those alone, the slowest once every {partial}; proportional RoPE turns the same pairs as full RoPE does, the slowest once every {proportional}; under both, the rest ({still}) never turn.',
            {
              d: grouped(state.d),
              pairs: grouped(layouts.pairs),
              base: significant(state.base),
              share: grouped(state.share),
              turning: tn('{count} pair', '{count} pairs', layouts.turning),
              turned: pairSpan(0, layouts.turning - 1),
              still: pairSpan(layouts.turning, layouts.pairs - 1),
              full: grouped(Math.round(layouts.slowest.full)),
              partial: grouped(Math.round(layouts.slowest.partial)),
              proportional: grouped(Math.round(layouts.slowest.proportional)),
            },
          ),
  table: ({ data: { layouts } }) => ({
    caption: t('Wavelength 2π/θᵢ of each pair, in positions (never: the pair does not turn)'),
    columns: [t('pair'), ...LAYOUTS.map((l) => l.label)],
    rows: rows(layouts).map(([i, ...w]) => [i, ...w.map((v) => (Number.isFinite(v) ? v : t('never')))]),
  }),
  csv: ({ data: { layouts } }) => ({
    header: ['pair', ...LAYOUTS.map((l) => `${l.part} wavelength`)],
    rows: rows(layouts).map(([i, ...w]) => [i, ...w.map((v) => (Number.isFinite(v) ? v : 'never'))]),
  }),
  values: ({ data: { layouts } }) => Float64Array.from(layouts.waves.full),
  extend(chart, { layout, data }) {
    /** Where layout `part` draws pair `pair`, in CSS pixels of the canvas (for tests). */
    chart.pointOf = (part, pair) => ({ x: layout.x(pair), y: layout.yOf(data.layouts.waves[part][pair], part) });
  },
});

/** Pairs `first` to `last` (first ≤ last) as a phrase: "pairs 0 to 63", or "pair 0" for one. */
function pairSpan(first, last) {
  if (first === last) return t('pair {pair}', { pair: grouped(first) });
  return t('pairs {first} to {last}', { first: grouped(first), last: grouped(last) });
}

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createRopeLayoutsChart = ROPE_LAYOUTS.create;

const rows = (layouts) =>
  Array.from({ length: layouts.pairs }, (_, i) => [i, ...LAYOUTS.map((l) => layouts.waves[l.part][i])]);

/** The "never turns" band above the plot: a row for each layout that can leave pairs still. */
const BAND_ROW = 8;
const STILL_ROWS = ['partial', 'proportional'];

function drawLayouts(ctx, width, height, colors, { data: { layouts }, highlighted, layout }) {
  if (!layouts) return; // the first paint comes before the first computation
  const legend = LAYOUTS.map((l) => ({ label: l.label, color: l.color(colors), dash: l.dash }));
  const frame = plot.plotFrame(width, height, { left: 68, bottom: 46 + plot.legendSpace(ctx, legend, width) });
  const { pairs, waves } = layouts;
  const finite = LAYOUTS.flatMap((l) => waves[l.part].filter(Number.isFinite));
  const lo = Math.min(...finite) / 1.5;
  const hi = Math.max(...finite) * 1.5;
  // The top of the plot is a band for the pairs that never turn, each layout on its own row, as if
  // their wavelength were off the top of the axis; the wavelengths are drawn below it.
  const band = STILL_ROWS.length * BAND_ROW + 8;
  const x = linearScale(-0.5, pairs - 0.5, frame.x, frame.x + frame.w);
  const y = logScale(lo, hi, frame.y + frame.h, frame.y + band);
  const bandY = (part) => frame.y + 6 + STILL_ROWS.indexOf(part) * BAND_ROW;
  const yOf = (wave, part) => (Number.isFinite(wave) ? y(wave) : bandY(part));
  Object.assign(layout, { frame, x, y, yOf });
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, pairs - 1, width < plot.NARROW_LEGEND ? 4 : 8).filter(Number.isInteger),
    yTicks: logTicks(lo, hi),
    xLabel: t('pair i (0 turns fastest)'),
    yLabel: t('wavelength 2π/θᵢ (positions)'),
    title: t('Which pairs of one head turn, and how slowly'),
  });
  ctx.save();
  ctx.strokeStyle = colors.grid;
  ctx.beginPath();
  ctx.moveTo(frame.x, frame.y + band - 0.5);
  ctx.lineTo(frame.x + frame.w, frame.y + band - 0.5);
  ctx.stroke();
  ctx.restore();
  for (const l of LAYOUTS) {
    const emphasised = highlighted === l.part;
    ctx.save();
    if (highlighted && !emphasised) ctx.globalAlpha = 0.3;
    const w = waves[l.part];
    const turning = w.findIndex((v) => !Number.isFinite(v));
    const end = turning < 0 ? pairs : turning;
    const xs = Float64Array.from({ length: end }, (_, i) => i);
    if (end > 0)
      plot.drawLine(ctx, frame, x, y, xs, Float64Array.from(w.slice(0, end)), {
        color: l.color(colors),
        width: emphasised ? 3.5 : 2,
        dash: l.dash,
      });
    if (end < pairs) {
      // The still pairs: a bar along the band's row from the first still pair to the last.
      ctx.strokeStyle = l.color(colors);
      ctx.lineWidth = emphasised ? 5 : 3;
      ctx.beginPath();
      ctx.moveTo(x(end) - 0.5, bandY(l.part));
      ctx.lineTo(x(pairs - 1) + 0.5, bandY(l.part));
      ctx.stroke();
    }
    ctx.restore();
  }
  // The band's name, inside it at the left, on a backing where a bar passes under it.
  ctx.save();
  ctx.font = `11px ${FONT}`;
  ctx.textBaseline = 'middle';
  const name = t('never turns');
  const mid = (bandY('partial') + bandY('proportional')) / 2;
  ctx.globalAlpha = 0.85;
  ctx.fillStyle = colors.bg;
  ctx.fillRect(frame.x + 1, frame.y + 1, ctx.measureText(name).width + 8, band - 3);
  ctx.globalAlpha = 1;
  ctx.fillStyle = colors.muted;
  ctx.fillText(name, frame.x + 5, mid);
  ctx.restore();
  plot.drawLegend(ctx, frame, colors, legend, plot.legendCorner(width, 'tl'));
}
