// "Since 2024", live: the share of attention a causal softmax gives its first token (the sink) as the
// prompt grows, when the sink's score leads each other key by a fixed amount. A plain softmax lets the
// share fade as keys pile up; SSMax multiplies the scores by s·ln n (s = 1 / ln of the length where the
// factor is 1), which holds or sharpens it; a head with an output gate can keep its scores even, and
// then the sink gets 1/n. Every share and scale is the engine's (sinkShare, ssmaxScale).

import { fixed, grouped, significant, trimmed } from '../locale/format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import * as plot from '../chart-kit/plot.js';
import { linearScale, logScale, logSpacedWholes, logTicks, niceTicks, powersOfTwo } from '../chart-kit/scales.js';
import { drawMarker, drawWithKnobs, markerHandle } from '../chart-kit/handles.js';
import { geometricKeyStep } from '../chart-kit/number-rule.js';
import { chartDeclaration } from './declarations.js';
import { t } from '../locale/i18n.js';

/** The widest prompt the chart draws: the keys control's largest value. */
const KEYS_MAX = chartDeclaration('attention-sinks').controls.keys.max;
/** How many log-spaced prompt lengths each curve samples. */
const SAMPLES = 160;

/** The three heads, in the order they are drawn, listed and tabled; each is a part of the chart. */
const HEADS = [
  { part: 'plain', label: t('plain softmax'), color: (c) => c.grey, dash: [5, 3] },
  { part: 'ssmax', label: t('length-scaled softmax (SSMax)'), color: (c) => c.blue, dash: [] },
  { part: 'gated', label: t('output gate, even scores'), color: (c) => c.cycle[1], dash: [] },
];

/** The sink's share under each head at `keys` keys (SSMax's s from ssmaxSForLength), all from the engine. */
function sharesAt(engine, keys, lead, s) {
  return {
    plain: engine.sinkShare(keys, lead, 1),
    ssmax: engine.sinkShare(keys, lead, engine.ssmaxScale(keys, s)),
    gated: engine.sinkShare(keys, 0, 1),
  };
}

/** The marked prompt length as a handle on the (log) length axis; arrows ×1.25, Shift ×2. */
const KEYS_HANDLE = markerHandle({
  key: 'keys',
  label: t('keys the query sees'),
  valueText: (v) => t('{keys} keys', { keys: grouped(v) }),
  across: ({ layout: { frame } }) => frame.y + frame.h - 12,
  keyStep: geometricKeyStep,
  dragStops: () => powersOfTwo(1, KEYS_MAX),
});

/** The sink chart on the chart skeleton; its parts are the three heads and the marked length. */
export const ATTENTION_SINKS = defineChart(chartDeclaration('attention-sinks'), {
  parts: [...HEADS.map((h) => h.part), 'keys'],
  focusParts: { keys: 'keys' },
  handles: [KEYS_HANDLE],
  compute: {
    scale: { reads: ['trained'], run: (state, engine) => engine.ssmaxSForLength(state.trained) },
    curves: {
      reads: ['lead'],
      after: ['scale'],
      run: (state, engine, { scale }) => {
        const keys = logSpacedWholes(KEYS_MAX, SAMPLES);
        const curves = Object.fromEntries(HEADS.map((h) => [h.part, new Float64Array(keys.length)]));
        keys.forEach((n, i) => {
          const shares = sharesAt(engine, n, state.lead, scale);
          for (const h of HEADS) curves[h.part][i] = shares[h.part];
        });
        return { keys, ...curves };
      },
    },
    marked: {
      reads: ['keys', 'lead'],
      after: ['scale'],
      run: (state, engine, { scale }) => ({
        ...sharesAt(engine, state.keys, state.lead, scale),
        factor: engine.ssmaxScale(state.keys, scale),
      }),
    },
  },
  canvases: [
    {
      label: t('Line chart: the first token’s share of attention against the number of keys, for three heads'),
      aspect: plot.legendAspect(0.95, 0.6),
      draw: drawWithKnobs(drawShares, [KEYS_HANDLE], { shown: ({ data }) => Boolean(data.curves) }),
      hit({ data: { curves }, layout: { frame, x, y } }, px, py) {
        if (!curves || !frame || px < frame.x || px > frame.x + frame.w) return null;
        let j = 0;
        for (let k = 1; k < curves.keys.length; k++) {
          if (Math.abs(x(curves.keys[k]) - px) < Math.abs(x(curves.keys[j]) - px)) j = k;
        }
        let nearest = null;
        let best = 10; // px: how close the pointer must be to a line
        for (const { part } of HEADS) {
          const gap = Math.abs(y(curves[part][j]) - py);
          if (gap < best) [nearest, best] = [part, gap];
        }
        return nearest;
      },
    },
  ],
  describe: ({ state, data: { marked } }) =>
    t(
      'The first token’s score leads each other key by {lead}. With {keys} keys it takes {plain} of the attention in a plain softmax; SSMax multiplies the scores by {factor} there (1 at {trained} keys) and gives it {ssmax}; a head with an output gate that keeps its scores even gives it {gated}. {comparison}',
      {
        lead: significant(state.lead),
        keys: grouped(state.keys),
        trained: grouped(state.trained),
        plain: shareText(marked.plain),
        ssmax: shareText(marked.ssmax),
        gated: shareText(marked.gated),
        factor: trimmed(marked.factor),
        comparison: comparison(marked),
      },
    ),
  table: ({ data: { curves } }) => ({
    caption: t('The first token’s share of attention by the number of keys'),
    columns: [t('keys'), ...HEADS.map((h) => h.label)],
    rows: rows(curves),
  }),
  csv: ({ data: { curves } }) => ({
    header: ['keys', ...HEADS.map((h) => `${h.part} sink share`)],
    rows: rows(curves),
  }),
  values: ({ data: { marked } }) => ({ plain: marked.plain, ssmax: marked.ssmax, gated: marked.gated }),
});

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createAttentionSinksChart = ATTENTION_SINKS.create;

/**
 * A share as a percentage that never rounds to a claim it does not hold: one decimal between 0.1% and
 * 99.9%, and below or above them as many digits as it takes to show how far from 0% or 100% it is.
 */
export function shareText(x) {
  const percent = x * 100;
  const digitsFor = (gap) => Math.min(20, Math.max(1, 1 - Math.floor(Math.log10(gap))));
  if (x === 0 || x === 1) return `${fixed(percent, 0)}%`;
  if (percent < 0.1) return `${significant(percent, 2)}%`;
  if (100 - percent < 0.1) return `${fixed(percent, digitsFor(100 - percent))}%`;
  return `${fixed(percent, 1)}%`;
}

const rows = (curves) => Array.from(curves.keys, (n, i) => [n, ...HEADS.map((h) => curves[h.part][i])]);

/** How SSMax's share stands against the plain one at the marked length, as the numbers say. */
function comparison({ plain, ssmax }) {
  if (ssmax > plain) return t('At this length SSMax keeps more of the attention on the sink than a plain softmax.');
  if (ssmax < plain) return t('At this length SSMax keeps less of the attention on the sink than a plain softmax.');
  return t('At this length the two softmaxes agree.');
}

function drawShares(ctx, width, height, colors, { state, data: { curves, marked }, highlighted, layout }) {
  if (!curves) return; // the first paint comes before the first computation
  const legend = HEADS.map((h) => ({ label: h.label, color: h.color(colors), dash: h.dash }));
  const frame = plot.plotFrame(width, height, { left: 56, bottom: 46 + plot.legendSpace(ctx, legend, width) });
  const x = logScale(1, KEYS_MAX, frame.x, frame.x + frame.w);
  const y = linearScale(0, 1, frame.y + frame.h, frame.y);
  Object.assign(layout, { frame, x, y });
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: logTicks(1, KEYS_MAX),
    yTicks: niceTicks(0, 1, 5),
    yTickLabel: (v) => `${Math.round(v * 100)}%`,
    xLabel: t('keys the query sees (prompt length)'),
    yLabel: t('first token’s share of attention'),
    title: t('How much attention the sink keeps as the prompt grows'),
  });
  for (const h of HEADS) {
    const emphasised = highlighted === h.part;
    ctx.save();
    if (highlighted && !emphasised) ctx.globalAlpha = 0.3;
    plot.drawLine(ctx, frame, x, y, curves.keys, curves[h.part], {
      color: h.color(colors),
      width: emphasised ? 3.5 : 2,
      dash: h.dash,
    });
    ctx.restore();
  }
  const rings = HEADS.map((h) => ({ y: y(marked[h.part]), color: h.color(colors) }));
  drawMarker(ctx, frame, x(state.keys), rings, colors, highlighted === 'keys');
  plot.drawLegend(ctx, frame, colors, legend, plot.legendCorner(width, 'tr'));
}
