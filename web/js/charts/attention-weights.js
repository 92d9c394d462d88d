// Widget: the demo attention layer's weight matrix for a typed sentence and for its reverse,
// per position scheme, with the causal mask on or off. Without positions the reversed
// sentence's matrix is the original with rows and columns reversed; any scheme breaks that.

import { blues } from '../chart-kit/colormap.js';
import { fixed, sciUnicode } from '../locale/format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import { drawCellHeatmap } from '../chart-kit/heatmap-cells.js';
import { drawColorBar } from '../chart-kit/plot.js';
import { chartDeclaration, ATTENTION_SCHEMES as SCHEMES } from './declarations.js';
import { t } from '../locale/i18n.js';

const MAX_WORDS = 12;

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */

// The CSV's columns and matrix names stay English (machine-readable); the Data view's are translated.
const COLUMNS = ['matrix', 'query', 'key', 'weight'];
const TABLE_COLUMNS = [t('matrix'), t('query'), t('key'), t('weight')];
const CSV_NAMES = ['sentence', 'reversed'];
const TABLE_NAMES = [t('sentence'), t('reversed')];

/** The typed sentence's words, and why the chart cannot draw them ('' when it can): { words, error }. */
function sentenceWords({ sentence }) {
  const words = sentence.trim().split(/\s+/).filter(Boolean);
  let error = '';
  if (words.length === 0) error = t('Type a sentence of at least one word.');
  else if (words.length > MAX_WORDS)
    error = t('At most {max} words fit this chart; you typed {count}.', { max: MAX_WORDS, count: words.length });
  return { words, error };
}

/**
 * Attention weights of a sentence and its reverse, side by side, on the chart skeleton. Its parts
 * are the two matrices: 'sentence' (the words as typed) and 'reversed'.
 */
export const ATTENTION_WEIGHTS = defineChart(chartDeclaration('attention-weights'), {
  parts: ['sentence', 'reversed'],
  focusParts: { sentence: 'sentence' },
  compute: {
    words: { reads: ['sentence'], run: sentenceWords },
    // Both matrices and the largest gap between the reversed one and the original permuted.
    weights: {
      reads: ['scheme', 'causal'],
      after: ['words'],
      run(state, engine, { words: { words, error } }) {
        if (error) return { forward: null, reversed: null, gap: 0, error };
        try {
          const forward = engine.demoAttention(words.join(' '), state.scheme, state.causal).weights;
          const reversed = engine.demoAttention([...words].reverse().join(' '), state.scheme, state.causal).weights;
          const gap = engine.maxPermutedDifference(forward, reversed, engine.reversalPermutation(words.length));
          return { forward, reversed, gap, error: '' };
        } catch (e) {
          return { forward: null, reversed: null, gap: 0, error: e.message };
        }
      },
    },
  },
  notes: ({ data: { weights } }) => ({ sentence: weights.error }),
  note: ({ data: { weights } }) =>
    weights.forward
      ? t(
          'Largest difference between the reversed sentence’s weights and the original’s with rows and columns reversed: {gap}.',
          { gap: weights.gap === 0 ? '0' : sciUnicode(weights.gap, 2) },
        )
      : '',
  canvases: [
    {
      label: t('Two heatmaps of attention weights: the typed sentence and the same words reversed'),
      aspect: (width) => (width < 520 ? 1.75 : 0.55),
      minHeight: 300,
      maxHeight: 760,
      draw: drawMatrices,
      hit({ layout: { boxes } }, px, py) {
        const inside = (b) => b && px >= b.x && px <= b.x + b.size && py >= b.y && py <= b.y + b.size;
        if (inside(boxes?.[0])) return 'sentence';
        if (inside(boxes?.[1])) return 'reversed';
        return null;
      },
    },
  ],
  describe({ state, data: { words, weights } }) {
    if (!weights.forward) return weights.error;
    const permuted = weights.gap < 1e-12;
    const scheme = SCHEMES.find((s) => s.value === state.scheme).label;
    const params = { sentence: words.words.join(' '), scheme, gap: fixed(weights.gap, 3) };
    if (permuted)
      return state.causal
        ? t(
            'Attention weights for “{sentence}” and its reverse with {scheme} and a causal mask: reversing the words only reverses the rows and columns of the weights; the layer cannot see the order.',
            params,
          )
        : t(
            'Attention weights for “{sentence}” and its reverse with {scheme}: reversing the words only reverses the rows and columns of the weights; the layer cannot see the order.',
            params,
          );
    return state.causal
      ? t(
          'Attention weights for “{sentence}” and its reverse with {scheme} and a causal mask: the reversed sentence gets different weights (largest gap {gap}), so the layer sees the order.',
          params,
        )
      : t(
          'Attention weights for “{sentence}” and its reverse with {scheme}: the reversed sentence gets different weights (largest gap {gap}), so the layer sees the order.',
          params,
        );
  },
  table: ({ data }) =>
    data.weights.forward
      ? {
          caption: t('Attention weights (query → key)'),
          columns: TABLE_COLUMNS,
          rows: rows(data, TABLE_NAMES),
          limit: 60,
        }
      : { caption: t('Attention weights'), columns: TABLE_COLUMNS, rows: [] },
  csv: ({ data }) => ({ header: COLUMNS, rows: rows(data, CSV_NAMES) }),
  values: ({ data: { weights } }) => ({ forward: weights.forward, reversed: weights.reversed, gap: weights.gap }),
  extend(chart, { layout }) {
    /** Where each matrix is drawn, in CSS pixels of the canvas (for tests). */
    chart.boxes = () => layout.boxes && [...layout.boxes];
  },
});

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createAttentionWeightsChart = ATTENTION_WEIGHTS.create;

/** The weights as rows [matrix, query, key, weight]; `names` names the two matrices. */
function rows({ words: { words }, weights: { forward, reversed } }, names) {
  const out = [];
  for (const [name, m, labels] of [
    [names[0], forward, words],
    [names[1], reversed, [...words].reverse()],
  ]) {
    if (!m) continue;
    for (let i = 0; i < m.rows; i++)
      for (let j = 0; j < m.cols; j++) out.push([name, labels[i], labels[j], m.data[i * m.cols + j]]);
  }
  return out;
}

function drawMatrices(ctx, width, height, colors, { state, data: { words, weights }, highlighted, layout }) {
  layout.boxes = null;
  if (!weights) return; // the canvas's first paint comes before the first computation
  const { forward, reversed, error } = weights;
  if (!forward) {
    ctx.fillStyle = colors.muted;
    ctx.textAlign = 'center';
    ctx.fillText(error, width / 2, height / 2, width - 20);
    return;
  }
  const stacked = width < 520;
  const labelRoom = 62;
  const top = 78;
  const size = stacked
    ? Math.min(width - labelRoom - 60, (height - 2 * top) / 2)
    : Math.min((width - 2 * labelRoom - 80) / 2, height - top - 20);
  const shown = words.words;
  const rev = [...shown].reverse();
  const boxes = stacked
    ? [
        { x: labelRoom, y: top, size },
        { x: labelRoom, y: top * 2 + size, size },
      ]
    : [
        { x: labelRoom, y: top, size },
        { x: labelRoom * 2 + size + 10, y: top, size },
      ];
  layout.boxes = boxes;
  const masked = state.causal ? (i, j) => j > i : null;
  drawCellHeatmap(ctx, colors, forward, boxes[0], {
    table: blues,
    lo: 0,
    hi: 1,
    rowLabels: shown,
    colLabels: shown,
    masked,
    title: `“${clip(shown.join(' '))}”`,
  });
  drawCellHeatmap(ctx, colors, reversed, boxes[1], {
    table: blues,
    lo: 0,
    hi: 1,
    rowLabels: rev,
    colLabels: rev,
    masked,
    title: t('reversed: “{sentence}”', { sentence: clip(rev.join(' ')) }),
  });
  const bar = stacked ? { x: width - 46, y: top, h: size } : { x: boxes[1].x + size + 12, y: top, h: size };
  drawColorBar(ctx, colors, blues, 0, 1, { ...bar, label: '', ticks: [0, 0.5, 1] });
  if (highlighted) {
    // The matrix emphasised: outlined in the foreground colour.
    const box = boxes[highlighted === 'sentence' ? 0 : 1];
    ctx.save();
    ctx.strokeStyle = colors.fg;
    ctx.lineWidth = 2.5;
    ctx.strokeRect(box.x - 3, box.y - 3, box.size + 6, box.size + 6);
    ctx.restore();
  }
}

function clip(text, n = 40) {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}
