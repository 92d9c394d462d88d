// Widget: interleaved RoPE pairs (2i, 2i+1), as in RoFormer and this lesson, against split halves
// (i, i + d/2) with rotate_half, as in Hugging Face's Llama. The same model up to a fixed
// permutation of dimensions, drawn here; with it the scores agree to rounding, without it they do not.

import { fixed, grouped, sciUnicode } from '../format.js';
import { createDeclaredControls } from '../chart-kit/chart-controls.js';
import { FONT, createPlotCanvas } from '../chart-kit/canvas.js';
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
import { drawFitted, fitText } from '../chart-kit/text-fit.js';
import { createChartShell } from '../chart-kit/shell.js';
import { CHART_DECLARATIONS } from './declarations.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
export const { controls: CONTROLS, aliases: URL_ALIASES } = CHART_DECLARATIONS['conventions'];
const MAX_DISTANCE = 59;

/** The two RoPE layouts and the permutation between them. */
export function createConventionsChart(slot, engine) {
  let result = null;
  const shell = createChartShell(slot, 'conventions', {
    exports: {
      getCanvases: () => [diagram.canvas, scores.canvas],
      getCsv: () => ({ header: ['distance', 'interleaved', 'half_permuted', 'half_unpermuted'], rows: rows() }),
    },
  });
  const { state, controls, writeUrl } = createDeclaredControls({
    id: 'conventions',
    declarations: CONTROLS,
    shell,
    onChange: update,
  });
  shell.controls.append(...Object.values(controls).map((c) => c.element));
  const rows = () =>
    Array.from(result.interleavedScores, (v, j) => [j, v, result.halfScores[j], result.unpermutedHalfScores[j]]);

  const diagram = createPlotCanvas(shell.plot, {
    label: 'Diagram: where each dimension of the interleaved layout goes in the split-halves layout',
    aspect: 0.3,
    minHeight: 210,
    maxHeight: 240,
    draw(ctx, width, height, colors) {
      if (!result) return;
      const d = state.d;
      const left = 12;
      const cell = (width - 2 * left) / d;
      const box = Math.min(cell - 2, 26);
      // The two captions shrink or wrap onto a second line on narrow screens, never squeezed.
      const fit = (text) => fitText(ctx, text, width - 2 * left, { sizes: [12, 11], weight: '600', maxLines: 2 });
      const topCaption = fit('interleaved: pair i at dimensions 2i, 2i+1 (RoFormer, this lesson)');
      const bottomCaption = fit('split halves: pair i at i and i + d/2 (rotate_half, Hugging Face Llama)');
      const topY = 8 + topCaption.height + 6;
      const bottomY = height - 8 - bottomCaption.height - 6 - box;
      const pairColor = (i) => colors.cycle[i % colors.cycle.length];
      ctx.fillStyle = colors.fg;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      drawFitted(ctx, topCaption, left, 8);
      drawFitted(ctx, bottomCaption, left, bottomY + box + 6);
      const cx = (j) => left + (j + 0.5) * cell;
      ctx.lineWidth = 1.2;
      result.permutation.forEach((src, j) => {
        ctx.strokeStyle = pairColor(src >> 1);
        ctx.beginPath();
        ctx.moveTo(cx(src), topY + box);
        ctx.bezierCurveTo(cx(src), (topY + bottomY) / 2 + 10, cx(j), (topY + bottomY) / 2 - 10, cx(j), bottomY);
        ctx.stroke();
      });
      ctx.font = `${box >= 18 ? 11 : 9}px ${FONT}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let j = 0; j < d; j++) {
        const topPair = j >> 1;
        const bottomPair = j % (d / 2);
        for (const [y, pair, label] of [
          [topY, topPair, String(j)],
          [bottomY, bottomPair, String(result.permutation[j])],
        ]) {
          ctx.fillStyle = pairColor(pair);
          ctx.fillRect(cx(j) - box / 2, y, box, box);
          if (box >= 12) {
            ctx.fillStyle = '#ffffff';
            ctx.fillText(label, cx(j), y + box / 2);
          }
        }
      }
    },
  });
  const scores = createPlotCanvas(shell.plot, {
    label: 'Line chart: RoPE scores over distance in both layouts; with the permutation the lines coincide',
    aspect: (width) => (width < NARROW_LEGEND ? 0.95 : 0.5),
    draw(ctx, width, height, colors) {
      if (!result) return;
      const legend = [
        { label: 'interleaved', color: colors.blue },
        { label: 'split halves, dimensions permuted', color: colors.red, dash: [5, 4] },
        { label: 'split halves, same q, k unpermuted', color: colors.grey },
      ];
      const frame = plotFrame(width, height, { bottom: 46 + legendSpace(ctx, legend, width) });
      const all = [...result.interleavedScores, ...result.unpermutedHalfScores];
      const lo = Math.min(...all);
      const hi = Math.max(...all);
      const pad = (hi - lo) * 0.08 || 1;
      const x = linearScale(-2, MAX_DISTANCE + 2, frame.x, frame.x + frame.w);
      const y = linearScale(lo - pad, hi + pad, frame.y + frame.h, frame.y);
      drawAxes(ctx, frame, colors, {
        x,
        y,
        xTicks: niceTicks(0, MAX_DISTANCE, 6),
        yTicks: niceTicks(lo - pad, hi + pad, 5),
        xLabel: 'distance between key and query',
        yLabel: 'score q·k',
        title: `Same scores up to a permutation (query at ${grouped(state.start)})`,
      });
      const xs = Array.from(result.interleavedScores, (_, j) => j);
      drawLine(ctx, frame, x, y, xs, result.unpermutedHalfScores, { color: colors.grey, width: 1.5 });
      drawLine(ctx, frame, x, y, xs, result.interleavedScores, { color: colors.blue, width: 3 });
      drawLine(ctx, frame, x, y, xs, result.halfScores, { color: colors.red, width: 1.5, dash: [5, 4] });
      drawLegend(ctx, frame, colors, legend, legendCorner(width, 'tr'));
    },
  });
  const note = document.createElement('p');
  note.className = 'chart-note';
  shell.plot.append(note);

  function update(patch = {}) {
    Object.assign(state, patch);
    writeUrl(state);
    const draws = engine.standardNormal('0', 2 * state.d);
    result = engine.compareRopeConventions(
      draws.subarray(0, state.d),
      draws.subarray(state.d),
      state.start,
      MAX_DISTANCE,
      state.base,
    );
    diagram.redraw();
    scores.redraw();
    const small = (v) => (v === 0 ? '0' : sciUnicode(v, 1));
    note.textContent =
      `Max |score difference| with the permutation: ${small(result.maxScoreDifference)}; without it: ${fixed(result.maxUnpermutedDifference, 3)}. ` +
      `Sinusoidal tables, interleaved with the same permutation vs concatenated: max difference ${small(result.sinusoidalMaxDifference)}.`;
    shell.describe(
      `d ${grouped(state.d)}: the permutation sends interleaved dimensions ${Array.from(result.permutation.slice(0, Math.min(8, state.d))).join(', ')}${state.d > 8 ? ', …' : ''} to split-halves slots 0, 1, 2, …; ` +
        `scores then agree to ${small(result.maxScoreDifference)}, while the unpermuted vectors differ by up to ${fixed(result.maxUnpermutedDifference, 3)}.`,
    );
    shell.setData({
      caption: 'Scores by distance',
      columns: ['distance', 'interleaved', 'split halves (permuted)', 'split halves (unpermuted)'],
      rows: rows(),
      limit: 60,
    });
  }
  update();
  return {
    update,
    controls,
    destroy: () => {
      diagram.destroy();
      scores.destroy();
      shell.destroy();
    },
    get state() {
      return { ...state };
    },
    get values() {
      return result;
    },
  };
}
