// Widget: the demo attention layer's weight matrix for a typed sentence and for its reverse,
// per position scheme, with the causal mask on or off. Without positions the reversed
// sentence's matrix is the original with rows and columns reversed; any scheme breaks that.

import { blues } from '../chart-kit/colormap.js';
import { fixed, sciUnicode } from '../format.js';
import { createDeclaredControls } from '../chart-kit/chart-controls.js';
import { drawCellHeatmap } from '../chart-kit/heatmap-cells.js';
import { createPlotCanvas } from '../chart-kit/canvas.js';
import { drawColorBar } from '../chart-kit/plot.js';
import { createChartShell } from '../chart-kit/shell.js';
import { CHART_DECLARATIONS, ATTENTION_SCHEMES as SCHEMES } from './declarations.js';

const MAX_WORDS = 12;

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
export const { controls: CONTROLS, aliases: URL_ALIASES } = CHART_DECLARATIONS['attention-weights'];

/** Attention weights of a sentence and its reverse, side by side. */
export function createAttentionWeightsChart(slot, engine) {
  let words = [];
  let forward = null;
  let reversed = null;
  let gap = 0;
  let error = '';
  const shell = createChartShell(slot, 'attention-weights', {
    exports: {
      getCanvases: () => [plot.canvas],
      getCsv: () => ({ header: ['matrix', 'query', 'key', 'weight'], rows: csvRows() }),
    },
  });
  const { state, controls, writeUrl } = createDeclaredControls({
    id: 'attention-weights',
    aliases: URL_ALIASES,
    declarations: CONTROLS,
    shell,
    onChange: update,
  });
  shell.controls.append(controls.sentence.element, controls.scheme.element, controls.causal.element);

  function csvRows() {
    const rows = [];
    for (const [name, m, labels] of [
      ['sentence', forward, words],
      ['reversed', reversed, [...words].reverse()],
    ]) {
      if (!m) continue;
      for (let i = 0; i < m.rows; i++)
        for (let j = 0; j < m.cols; j++) rows.push([name, labels[i], labels[j], m.data[i * m.cols + j]]);
    }
    return rows;
  }

  const plot = createPlotCanvas(shell.plot, {
    label: 'Two heatmaps of attention weights: the typed sentence and the same words reversed',
    aspect: (width) => (width < 520 ? 1.75 : 0.55),
    minHeight: 300,
    maxHeight: 760,
    draw(ctx, width, height, colors) {
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
      const rev = [...words].reverse();
      const boxes = stacked
        ? [
            { x: labelRoom, y: top, size },
            { x: labelRoom, y: top * 2 + size, size },
          ]
        : [
            { x: labelRoom, y: top, size },
            { x: labelRoom * 2 + size + 10, y: top, size },
          ];
      const masked = state.causal ? (i, j) => j > i : null;
      drawCellHeatmap(ctx, colors, forward, boxes[0], {
        table: blues,
        lo: 0,
        hi: 1,
        rowLabels: words,
        colLabels: words,
        masked,
        title: `“${clip(words.join(' '))}”`,
      });
      drawCellHeatmap(ctx, colors, reversed, boxes[1], {
        table: blues,
        lo: 0,
        hi: 1,
        rowLabels: rev,
        colLabels: rev,
        masked,
        title: `reversed: “${clip(rev.join(' '))}”`,
      });
      const bar = stacked ? { x: width - 46, y: top, h: size } : { x: boxes[1].x + size + 12, y: top, h: size };
      drawColorBar(ctx, colors, blues, 0, 1, { ...bar, label: '', ticks: [0, 0.5, 1] });
    },
  });
  const note = document.createElement('p');
  note.className = 'chart-note';
  shell.plot.append(note);

  function update(patch = {}) {
    Object.assign(state, patch);
    writeUrl(state);
    words = state.sentence.trim().split(/\s+/).filter(Boolean);
    forward = reversed = null;
    error = '';
    if (words.length === 0) error = 'Type a sentence of at least one word.';
    else if (words.length > MAX_WORDS) error = `At most ${MAX_WORDS} words fit this chart; you typed ${words.length}.`;
    if (!error) {
      try {
        forward = engine.demoAttention(words.join(' '), state.scheme, state.causal).weights;
        reversed = engine.demoAttention([...words].reverse().join(' '), state.scheme, state.causal).weights;
        gap = engine.maxPermutedDifference(forward, reversed, engine.reversalPermutation(words.length));
      } catch (e) {
        error = e.message;
        forward = reversed = null;
      }
    }
    controls.sentence.note(error);
    plot.redraw();
    if (!forward) {
      note.textContent = '';
      shell.describe(error);
      shell.setData({ caption: 'Attention weights', columns: ['matrix', 'query', 'key', 'weight'], rows: [] });
      return;
    }
    const permuted = gap < 1e-12;
    const scheme = SCHEMES.find((s) => s.value === state.scheme).label;
    note.textContent = `Largest difference between the reversed sentence’s weights and the original’s with rows and columns reversed: ${gap === 0 ? '0' : sciUnicode(gap, 2)}.`;
    shell.describe(
      `Attention weights for “${words.join(' ')}” and its reverse with ${scheme}${state.causal ? ' and a causal mask' : ''}: ` +
        (permuted
          ? 'reversing the words only reverses the rows and columns of the weights; the layer cannot see the order.'
          : `the reversed sentence gets different weights (largest gap ${fixed(gap, 3)}), so the layer sees the order.`),
    );
    shell.setData({
      caption: 'Attention weights (query → key)',
      columns: ['matrix', 'query', 'key', 'weight'],
      rows: csvRows(),
      limit: 60,
    });
  }
  update();
  return {
    update,
    controls,
    destroy: () => {
      plot.destroy();
      shell.destroy();
    },
    get state() {
      return { ...state };
    },
    get values() {
      return { forward, reversed, gap };
    },
  };
}

function clip(text, n = 40) {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}
