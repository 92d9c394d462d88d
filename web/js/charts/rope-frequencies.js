// Figure 4, live: the rotation angle (mod 2π) of a few RoPE pairs over positions 0..199. Fast
// pairs wrap every few tokens, slow pairs barely turn. Pair picker, d and base controls.

import { decimal, grouped, significant, trueMinus } from '../format.js';
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
import { linearScale } from '../chart-kit/scales.js';
import { createChartShell } from '../chart-kit/shell.js';

const N = 200;
const MAX_PAIRS = 6;

/** The chart's controls, their ranges and defaults (URL parameters rope-frequencies.d, .base, .pairs; formerly freq.*). */
export const CONTROLS = {
  d: { kind: 'number', label: 'd', value: 64, min: 2, max: 512, step: 2, even: true },
  base: { kind: 'number', label: 'base', value: 10000, min: 1.5, max: 1e9, step: 'any', integer: false, above: 1 },
  pairs: { kind: 'text', label: `pairs (up to ${MAX_PAIRS}, comma-separated)`, value: '0,4,12,31', maxLength: 60 },
};
/** Earlier URL prefixes, still read so old links keep working. */
export const URL_ALIASES = ['freq'];

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

/** Pair angles over positions with a pair picker. */
export function createRopeFrequenciesChart(slot, engine) {
  let angles = null;
  let theta = null;
  let pairs = [];
  const positions = Float64Array.from({ length: N }, (_, i) => i);
  const shell = createChartShell(slot, 'rope-frequencies', {
    exports: {
      getCanvases: () => [plot.canvas],
      getCsv: () => ({ header: ['position', ...pairs.map((p) => `pair ${p}`)], rows: rows() }),
    },
  });
  const { state, controls, writeUrl } = createDeclaredControls({
    id: 'rope-frequencies',
    aliases: URL_ALIASES,
    declarations: CONTROLS,
    shell,
    onChange: update,
  });
  shell.controls.append(controls.d.element, controls.base.element, controls.pairs.element);
  const rows = () => Array.from({ length: N }, (_, j) => [j, ...pairs.map((_, r) => angles.data[r * N + j])]);

  const plot = createPlotCanvas(shell.plot, {
    label: 'Line chart: rotation angle modulo 2π of selected RoPE pairs over positions 0 to 199',
    aspect: (width) => (width < NARROW_LEGEND ? 0.95 : 0.6),
    draw(ctx, width, height, colors) {
      const legend = angles
        ? pairs.map((p, r) => ({ label: `pair ${p} (θ=${trueMinus(formatG2(theta[p]))})`, color: colors.cycle[r] }))
        : [];
      const frame = plotFrame(width, height, { bottom: 46 + legendSpace(ctx, legend, width) });
      const x = linearScale(-10, N + 9, frame.x, frame.x + frame.w);
      const y = linearScale(-0.32, 2 * Math.PI + 0.32, frame.y + frame.h, frame.y);
      drawAxes(ctx, frame, colors, {
        x,
        y,
        xTicks: [0, 25, 50, 75, 100, 125, 150, 175, 200],
        yTicks: [0, 1, 2, 3, 4, 5, 6],
        xLabel: 'position',
        yLabel: 'rotation angle (mod 2π)',
        title: 'RoPE: fast hands for local order, slow hands for long range',
      });
      if (!angles) return;
      pairs.forEach((p, r) =>
        drawLine(ctx, frame, x, y, positions, angles.data.subarray(r * N, (r + 1) * N), {
          color: colors.cycle[r],
          width: 1.5,
        }),
      );
      drawLegend(ctx, frame, colors, legend, legendCorner(width, 'tr'));
    },
  });

  function update(patch = {}) {
    Object.assign(state, patch);
    writeUrl(state);
    const parsed = parsePairs(state.pairs, state.d / 2 - 1);
    controls.pairs.note(
      parsed.dropped.length
        ? `Ignored ${parsed.dropped.join(', ')}: pairs are whole numbers from 0 to ${state.d / 2 - 1}, at most ${MAX_PAIRS}.`
        : parsed.pairs.length
          ? ''
          : 'Pick at least one pair.',
    );
    pairs = parsed.pairs;
    theta = engine.ropeFrequencies(state.d, state.base);
    angles = pairs.length ? engine.ropePairAngles(positions, pairs, state.d, state.base, true) : null;
    plot.redraw();
    shell.describe(
      pairs.length
        ? `Angles of pairs ${pairs.join(', ')} for d ${grouped(state.d)}, base ${significant(state.base)}: ` +
            pairs
              .map(
                (p) =>
                  `pair ${p} turns ${trueMinus(formatG2(theta[p]))} rad per position${theta[p] * N > 2 * Math.PI ? `, a full turn every ${decimal((2 * Math.PI) / theta[p], 1, 1)} positions` : ', less than a full turn over 200 positions'}`,
              )
              .join('; ') +
            '.'
        : 'No pair selected.',
    );
    shell.setData({
      caption: 'Angle (rad, mod 2π) by position',
      columns: ['position', ...pairs.map((p) => `pair ${p}`)],
      rows: angles ? rows() : [],
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
      return angles;
    },
  };
}
