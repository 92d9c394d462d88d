// Figure 3, live: the RoPE score ⟨R_m q, R_{m+δ} k⟩ against the distance δ for three query
// starts. The curves coincide: the score depends only on distance. q and k are numpy's
// default_rng(seed).standard_normal(d) drawn twice (seed 0 is the lesson's figure).

import { fixed, grouped, sciUnicode, significant } from '../format.js';
import { createDeclaredControls } from '../chart-kit/chart-controls.js';
import { buttonControl } from '../chart-kit/controls.js';
import { createPlotCanvas } from '../chart-kit/canvas.js';
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
import { createChartShell } from '../chart-kit/shell.js';
import { CHART_DECLARATIONS } from './declarations.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
export const { controls: CONTROLS, aliases: URL_ALIASES } = CHART_DECLARATIONS['rope-relative'];
const MAX_DISTANCE = 59;
const STYLES = [[], [7, 4], [2, 3]];

/** Scores over distance for three starting positions, with a new-random-q,k button. */
export function createRopeRelativeChart(slot, engine) {
  let scores = null;
  let starts = [];
  const shell = createChartShell(slot, 'rope-relative', {
    exports: {
      getCanvases: () => [plot.canvas],
      getCsv: () => ({ header: ['distance', ...starts.map((s) => `start ${s}`)], rows: csvRows() }),
    },
  });
  const { state, controls, writeUrl } = createDeclaredControls({
    id: 'rope-relative',
    aliases: URL_ALIASES,
    declarations: CONTROLS,
    shell,
    onChange: update,
  });
  const reroll = buttonControl({
    name: 'new-qk',
    label: 'New random q, k',
    onClick: () => controls.seed.set(state.seed < 1e6 ? state.seed + 1 : 0),
  });
  shell.controls.append(...Object.values(controls).map((c) => c.element), reroll.element);

  function csvRows() {
    const rows = [];
    for (let j = 0; j <= MAX_DISTANCE; j++) rows.push([j, ...starts.map((_, r) => scores.data[r * scores.cols + j])]);
    return rows;
  }

  const plot = createPlotCanvas(shell.plot, {
    label: 'Line chart: RoPE attention score against the distance between key and query, for three query positions',
    aspect: (width) => (width < NARROW_LEGEND ? 0.95 : 0.6),
    draw(ctx, width, height, colors) {
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
      drawAxes(ctx, frame, colors, {
        x,
        y,
        xTicks: niceTicks(0, MAX_DISTANCE, 6),
        yTicks: niceTicks(lo - pad, hi + pad, 6),
        xLabel: 'distance between key and query (n − m)',
        yLabel: 'attention score q·k',
        title: 'With RoPE the score depends only on distance',
      });
      const xs = Array.from({ length: MAX_DISTANCE + 1 }, (_, j) => j);
      starts.forEach((s, r) => {
        drawLine(ctx, frame, x, y, xs, Array.from(scores.data.subarray(r * scores.cols, (r + 1) * scores.cols)), {
          color: colors.cycle[r],
          dash: STYLES[r],
        });
      });
      drawLegend(ctx, frame, colors, legend, legendCorner(width, 'tr'));
    },
  });

  function update(patch = {}) {
    Object.assign(state, patch);
    writeUrl(state);
    const draws = engine.standardNormal(String(state.seed), 2 * state.d);
    const q = draws.subarray(0, state.d);
    const k = draws.subarray(state.d, 2 * state.d);
    starts = [state.s0, state.s1, state.s2];
    scores = engine.ropeScoresOverDistance(q, k, starts, MAX_DISTANCE, state.base);
    plot.redraw();
    let spread = 0;
    for (let j = 0; j <= MAX_DISTANCE; j++) {
      const col = starts.map((_, r) => scores.data[r * scores.cols + j]);
      spread = Math.max(spread, Math.max(...col) - Math.min(...col));
    }
    shell.describe(
      `Scores for queries at ${starts.map(grouped).join(', ')} with q, k from seed ${state.seed} (d ${grouped(state.d)}, base ${significant(state.base)}): ` +
        `at distance 0 the score is ${fixed(scores.data[0], 3)}; the three curves differ by at most ${spread === 0 ? '0' : sciUnicode(spread, 1)}, so only the distance matters.`,
    );
    shell.setData({
      caption: 'Score by distance and start',
      columns: ['distance', ...starts.map((s) => `start ${grouped(s)}`)],
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
      return scores;
    },
  };
}
