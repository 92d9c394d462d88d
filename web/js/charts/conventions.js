// Widget: interleaved RoPE pairs (2i, 2i+1), as in RoFormer and this lesson, against split halves
// (i, i + d/2) with rotate_half, as in Hugging Face's Llama. The same model up to a fixed
// permutation of dimensions, drawn here; with it the scores agree to rounding, without it they do not.

import { fixed, grouped, sciUnicode } from '../locale/format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import { FONT } from '../chart-kit/canvas.js';
import * as plot from '../chart-kit/plot.js';
import { linearScale, niceTicks } from '../chart-kit/scales.js';
import { drawFitted, fitText } from '../chart-kit/text-fit.js';
import { chartDeclaration } from './declarations.js';
import { t } from '../locale/i18n.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
const MAX_DISTANCE = 59;
const LINE_HIT = 8; // px: how close the pointer must be to a score line

/**
 * The two RoPE layouts and the permutation between them, on the chart skeleton. Its parts:
 * 'permutation' (the diagram's wires, and the split-halves scores computed with them, which
 * coincide with the interleaved ones) and 'unpermuted' (the split-halves scores of the same q, k
 * without the permutation).
 */
export const CONVENTIONS = defineChart(chartDeclaration('conventions'), {
  parts: ['permutation', 'unpermuted'],
  focusParts: { d: 'permutation' },
  compute: {
    // q and k: numpy's default_rng(0) drawn twice; the query position and base do not change them.
    qk: {
      reads: ['d'],
      run(state, engine) {
        const draws = engine.standardNormal('0', 2 * state.d);
        return { q: draws.subarray(0, state.d), k: draws.subarray(state.d) };
      },
    },
    comparison: {
      reads: ['start', 'base'],
      after: ['qk'],
      run: (state, engine, { qk }) => engine.compareRopeConventions(qk.q, qk.k, state.start, MAX_DISTANCE, state.base),
    },
  },
  canvases: [
    {
      label: t('Diagram: where each dimension of the interleaved layout goes in the split-halves layout'),
      aspect: 0.3,
      minHeight: 210,
      maxHeight: 240,
      draw: drawPermutation,
      hit({ layout: { diagram } }, px, py) {
        if (!diagram) return null;
        const between = py > diagram.wiresTop && py < diagram.wiresBottom;
        return between && px >= diagram.left && px <= diagram.right ? 'permutation' : null;
      },
    },
    {
      label: t('Line chart: RoPE scores over distance in both layouts; with the permutation the lines coincide'),
      aspect: plot.legendAspect(0.95, 0.5),
      draw: drawScores,
      hit({ data: { comparison }, layout: { scores } }, px, py) {
        if (!scores) return null;
        const { frame, x, y } = scores;
        const j = Math.round(x.invert(px));
        if (px < frame.x || px > frame.x + frame.w || j < 0 || j > MAX_DISTANCE) return null;
        const permuted = Math.abs(y(comparison.halfScores[j]) - py);
        const unpermuted = Math.abs(y(comparison.unpermutedHalfScores[j]) - py);
        if (Math.min(permuted, unpermuted) > LINE_HIT) return null;
        return permuted <= unpermuted ? 'permutation' : 'unpermuted';
      },
    },
  ],
  note({ data: { comparison: r } }) {
    return t(
      'Max |score difference| with the permutation: {permuted}; without it: {unpermuted}. Sinusoidal tables, interleaved with the same permutation vs concatenated: max difference {sinusoidal}.',
      {
        permuted: small(r.maxScoreDifference),
        unpermuted: fixed(r.maxUnpermutedDifference, 3),
        sinusoidal: small(r.sinusoidalMaxDifference),
      },
    );
  },
  describe({ state, data: { comparison: r } }) {
    // The first dimensions as a list of numbers, "…" when there are more.
    const dimensions = Array.from(r.permutation.slice(0, Math.min(8, state.d))).join(', ') + (state.d > 8 ? ', …' : '');
    return t(
      'd {d}: the permutation sends interleaved dimensions {dimensions} to split-halves slots 0, 1, 2, …; scores then agree to {agree}, while the unpermuted vectors differ by up to {differ}.',
      {
        d: grouped(state.d),
        dimensions,
        agree: small(r.maxScoreDifference),
        differ: fixed(r.maxUnpermutedDifference, 3),
      },
    );
  },
  table: ({ data }) => ({
    caption: t('Scores by distance'),
    columns: [t('distance'), t('interleaved'), t('split halves (permuted)'), t('split halves (unpermuted)')],
    rows: rows(data),
    limit: 60,
  }),
  csv: ({ data }) => ({ header: ['distance', 'interleaved', 'half_permuted', 'half_unpermuted'], rows: rows(data) }),
  values: ({ data }) => data.comparison,
  extend(chart, { layout }) {
    /** Where the scores chart draws the split-halves line of `part` at distance j, in CSS pixels of that canvas (for tests). */
    chart.pointOf = (part, j) => {
      const { x, y } = layout.scores;
      const r = chart.values;
      return { x: x(j), y: y((part === 'unpermuted' ? r.unpermutedHalfScores : r.halfScores)[j]) };
    };
    /** The diagram's band of wires, in CSS pixels of that canvas (for tests). */
    chart.wires = () => {
      const { left, right, wiresTop, wiresBottom } = layout.diagram;
      return { left, right, top: wiresTop, bottom: wiresBottom };
    };
  },
});

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createConventionsChart = CONVENTIONS.create;

const small = (v) => (v === 0 ? '0' : sciUnicode(v, 1));

const rows = ({ comparison: r }) =>
  Array.from(r.interleavedScores, (v, j) => [j, v, r.halfScores[j], r.unpermutedHalfScores[j]]);

/** Both layouts as rows of boxes, pair-coloured, with a wire from each dimension to its slot. */
function drawPermutation(ctx, width, height, colors, { data: { comparison: r }, highlighted, layout }) {
  if (!r) return;
  const d = r.permutation.length;
  const left = 12;
  const cell = (width - 2 * left) / d;
  const box = Math.min(cell - 2, 26);
  // The two captions shrink or wrap onto a second line on narrow screens (in Chinese at 320 px a
  // third), never squeezed or cut.
  const fit = (text) => fitText(ctx, text, width - 2 * left, { sizes: [12, 11], weight: '600', maxLines: 3 });
  const topCaption = fit(t('interleaved: pair i at dimensions 2i, 2i+1 (RoFormer, this lesson)'));
  const bottomCaption = fit(t('split halves: pair i at i and i + d/2 (rotate_half, Hugging Face Llama)'));
  const topY = 8 + topCaption.height + 6;
  const bottomY = height - 8 - bottomCaption.height - 6 - box;
  layout.diagram = { left, right: width - left, wiresTop: topY + box, wiresBottom: bottomY };
  const pairColor = (i) => colors.cycle[i % colors.cycle.length];
  ctx.fillStyle = colors.fg;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  drawFitted(ctx, topCaption, left, 8);
  drawFitted(ctx, bottomCaption, left, bottomY + box + 6);
  const cx = (j) => left + (j + 0.5) * cell;
  ctx.save();
  // The permutation: wires drawn bold; the unpermuted scores use none of them, so they fade.
  ctx.lineWidth = highlighted === 'permutation' ? 2.6 : 1.2;
  if (highlighted === 'unpermuted') ctx.globalAlpha = 0.25;
  r.permutation.forEach((src, j) => {
    ctx.strokeStyle = pairColor(src >> 1);
    ctx.beginPath();
    ctx.moveTo(cx(src), topY + box);
    ctx.bezierCurveTo(cx(src), (topY + bottomY) / 2 + 10, cx(j), (topY + bottomY) / 2 - 10, cx(j), bottomY);
    ctx.stroke();
  });
  ctx.restore();
  ctx.font = `${box >= 18 ? 11 : 9}px ${FONT}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let j = 0; j < d; j++) {
    const topPair = j >> 1;
    const bottomPair = j % (d / 2);
    for (const [y, pair, label] of [
      [topY, topPair, String(j)],
      [bottomY, bottomPair, String(r.permutation[j])],
    ]) {
      ctx.fillStyle = pairColor(pair);
      ctx.fillRect(cx(j) - box / 2, y, box, box);
      if (box >= 12) {
        ctx.fillStyle = '#ffffff';
        ctx.fillText(label, cx(j), y + box / 2);
      }
    }
  }
}

/** The scores over distance: interleaved, split halves with the permutation, and without it. */
function drawScores(ctx, width, height, colors, { state, data: { comparison: r }, highlighted, layout }) {
  if (!r) return;
  const legend = [
    { label: t('interleaved'), color: colors.blue },
    { label: t('split halves, dimensions permuted'), color: colors.red, dash: [5, 4] },
    { label: t('split halves, same q, k unpermuted'), color: colors.grey },
  ];
  const frame = plot.plotFrame(width, height, { bottom: 46 + plot.legendSpace(ctx, legend, width) });
  const all = [...r.interleavedScores, ...r.unpermutedHalfScores];
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const pad = (hi - lo) * 0.08 || 1;
  const x = linearScale(-2, MAX_DISTANCE + 2, frame.x, frame.x + frame.w);
  const y = linearScale(lo - pad, hi + pad, frame.y + frame.h, frame.y);
  layout.scores = { frame, x, y };
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, MAX_DISTANCE, 6),
    yTicks: niceTicks(lo - pad, hi + pad, 5),
    xLabel: t('distance between key and query'),
    yLabel: t('score q·k'),
    title: t('Same scores up to a permutation (query at {position})', { position: grouped(state.start) }),
  });
  const xs = Array.from(r.interleavedScores, (_, j) => j);
  const bold = (part, width) => (highlighted === part ? width + 2 : width);
  plot.drawLine(ctx, frame, x, y, xs, r.unpermutedHalfScores, { color: colors.grey, width: bold('unpermuted', 1.5) });
  plot.drawLine(ctx, frame, x, y, xs, r.interleavedScores, { color: colors.blue, width: 3 });
  plot.drawLine(ctx, frame, x, y, xs, r.halfScores, {
    color: colors.red,
    width: bold('permutation', 1.5),
    dash: [5, 4],
  });
  plot.drawLegend(ctx, frame, colors, legend, plot.legendCorner(width, 'tr'));
}
