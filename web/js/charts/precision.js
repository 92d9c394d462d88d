// Widget: RoPE angles m·θ_i in float32 against float64 as the position grows to a million and
// beyond. The fast pairs' rotations drift first: float32 keeps 24 bits, so an angle of 10⁶ rad
// is only known to ~0.06 rad. Errors per pair and position from engine.float32AngleErrors.

import { grouped, sciUnicode, significant, trueMinus } from '../format.js';
import { createDeclaredControls } from '../chart-kit/chart-controls.js';
import { formatG2 } from '../format.js';
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
import { logScale, logTicks } from '../chart-kit/scales.js';
import { parsePairs } from './rope-frequencies.js';
import { createChartShell } from '../chart-kit/shell.js';
import { CHART_DECLARATIONS } from './declarations.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
export const { controls: CONTROLS, aliases: URL_ALIASES } = CHART_DECLARATIONS['precision'];
const SAMPLES = 240;
const FLOOR = 1e-10; // exact results (error 0) are drawn at this floor of the log axis

/** Log-spaced whole positions from 1 to max (distinct). */
export function precisionPositions(max) {
  const out = new Set();
  for (let i = 0; i < SAMPLES; i++) out.add(Math.round(Math.exp((Math.log(max) * i) / (SAMPLES - 1))));
  return Float64Array.from([...out].sort((a, b) => a - b));
}

/** float32 vs float64 RoPE rotation errors. */
export function createPrecisionChart(slot, engine) {
  let positions = null;
  let pairs = [];
  let errors = null;
  const shell = createChartShell(slot, 'precision', {
    exports: {
      getCanvases: () => [plot.canvas],
      getCsv: () => ({
        header: ['position', ...pairs.flatMap((p) => [`pair${p}_angle_error`, `pair${p}_rotation_error`])],
        rows: rows(),
      }),
    },
  });
  const { state, controls, writeUrl } = createDeclaredControls({
    id: 'precision',
    declarations: CONTROLS,
    shell,
    onChange: update,
  });
  shell.controls.append(...Object.values(controls).map((c) => c.element));
  const n = () => positions.length;
  const rows = () =>
    Array.from(positions, (m, j) => [
      m,
      ...pairs.flatMap((_, r) => [errors.angleError.data[r * n() + j], errors.rotationError.data[r * n() + j]]),
    ]);

  const plot = createPlotCanvas(shell.plot, {
    label: 'Log-log line chart: error of float32 RoPE rotations against float64 by position, per pair',
    aspect: (width) => (width < NARROW_LEGEND ? 0.95 : 0.6),
    draw(ctx, width, height, colors) {
      if (!errors) return;
      const legend = pairs.map((p, r) => ({
        label: `pair ${p} (θ=${trueMinus(formatG2(errors.theta[r]))})`,
        color: colors.cycle[r],
      }));
      const frame = plotFrame(width, height, { bottom: 46 + legendSpace(ctx, legend, width) });
      const x = logScale(1, state.max, frame.x, frame.x + frame.w);
      const y = logScale(FLOOR, 2, frame.y + frame.h, frame.y);
      drawAxes(ctx, frame, colors, {
        x,
        y,
        xTicks: logTicks(1, state.max),
        yTicks: logTicks(FLOOR, 1),
        xLabel: 'position m',
        yLabel: 'float32 rotation error',
        title: 'float32 loses the fast pairs at long positions',
      });
      pairs.forEach((p, r) => {
        const ys = Array.from(errors.rotationError.data.subarray(r * n(), (r + 1) * n()), (v) => Math.max(v, FLOOR));
        drawLine(ctx, frame, x, y, positions, ys, { color: colors.cycle[r], width: 1.5 });
      });
      drawLegend(ctx, frame, colors, legend, legendCorner(width, 'tl'));
    },
  });

  function update(patch = {}) {
    Object.assign(state, patch);
    writeUrl(state);
    const parsed = parsePairs(state.pairs, state.d / 2 - 1);
    controls.pairs.note(
      parsed.dropped.length
        ? `Ignored ${parsed.dropped.join(', ')}: pairs are whole numbers from 0 to ${state.d / 2 - 1}, at most 6.`
        : parsed.pairs.length
          ? ''
          : 'Pick at least one pair.',
    );
    pairs = parsed.pairs;
    positions = precisionPositions(state.max);
    errors = pairs.length ? engine.float32AngleErrors(positions, pairs, state.d, state.base) : null;
    plot.redraw();
    if (!errors) {
      shell.describe('No pair selected.');
      shell.setData({ caption: 'Errors', columns: ['position'], rows: [] });
      return;
    }
    const last = n() - 1;
    const error = (v) => (v === 0 ? '0' : sciUnicode(v, 1));
    const summary = pairs.map((p, r) => `pair ${p} ${error(errors.rotationError.data[r * n() + last])}`).join(', ');
    shell.describe(
      `At position ${grouped(state.max)} (d ${grouped(state.d)}, base ${significant(state.base)}) the float32 rotation is off by: ${summary}. The fastest pairs drift first.`,
    );
    shell.setData({
      caption: 'float32 errors (rad) by position',
      columns: ['position', ...pairs.flatMap((p) => [`pair ${p} angle`, `pair ${p} rotation`])],
      rows: rows(),
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
      return errors;
    },
  };
}
