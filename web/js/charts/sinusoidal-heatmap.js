// Figure 2, live: the sinusoidal code table (positions × dimensions) as an RdBu heatmap with a
// colour bar. The table comes from engine.sinusoidalEncoding and is painted through ImageData
// with a precomputed colour lookup table; hover reads out position, dimension and value.

import { rdbu } from './colormap.js';
import { numberControl } from './controls.js';
import { createPlotCanvas, drawAxes, drawColorBar, linearScale, niceTicks, plotFrame } from './plot.js';
import { createChartShell } from './shell.js';
import { readUrlState, writeUrlState } from './url-state.js';

const DEFAULTS = { n: 200, d: 64, base: 10000 };
const LUT_MAX = rdbu.size - 1;

/** The sinusoidal heatmap with n, d and base controls. */
export function createSinusoidalHeatmapChart(slot, engine) {
  const state = readUrlState('heatmap', DEFAULTS);
  let table = null;
  let image = null; // an offscreen canvas holding one pixel per table entry
  let imageData = null;
  let frame = null;
  const shell = createChartShell(slot, 'sinusoidal-heatmap', {
    exports: {
      getCanvases: () => [plot.canvas],
      getCsv: () => {
        const rows = [];
        for (let r = 0; r < table.rows; r++) rows.push([r, ...table.data.subarray(r * table.cols, (r + 1) * table.cols)]);
        return { header: ['position', ...Array.from({ length: table.cols }, (_, c) => `dim${c}`)], rows };
      },
    },
  });
  const controls = {
    n: numberControl({ name: 'n', label: 'positions n', value: state.n, min: 1, max: 4096, slider: true, onChange: (v) => update({ n: v }) }),
    d: numberControl({ name: 'd', label: 'dimensions d', value: state.d, min: 2, max: 512, step: 2, even: true, slider: true, onChange: (v) => update({ d: v }) }),
    base: numberControl({ name: 'base', label: 'base', value: state.base, min: 1.5, max: 1e9, step: 'any', integer: false, above: 1, onChange: (v) => update({ base: v }) }),
  };
  shell.controls.append(controls.n.element, controls.d.element, controls.base.element);
  const readout = document.createElement('p');
  readout.className = 'chart-readout';
  readout.textContent = 'Point at the heatmap to read a value.';

  const plot = createPlotCanvas(shell.plot, {
    label: 'Heatmap of sinusoidal position codes: rows are positions, columns are dimensions, colour is the value from −1 to +1',
    aspect: 0.72,
    maxHeight: 560,
    draw(ctx, width, height, colors) {
      frame = plotFrame(width, height, { left: 56, right: 74 });
      const x = linearScale(0, state.d, frame.x, frame.x + frame.w);
      const y = linearScale(0, state.n, frame.y, frame.y + frame.h);
      const ratio = window.devicePixelRatio || 1;
      if (table && image && (image.width !== Math.min(table.cols, Math.round(frame.w * ratio)) || image.height !== Math.min(table.rows, Math.round(frame.h * ratio)))) paint();
      if (image) {
        ctx.imageSmoothingEnabled = false;
        ctx.drawImage(image, frame.x, frame.y, frame.w, frame.h);
      }
      drawAxes(ctx, frame, colors, {
        x,
        y,
        xTicks: niceTicks(0, state.d - 1, 6).map((v) => v + 0.5),
        yTicks: niceTicks(0, state.n - 1, 6).map((v) => v + 0.5),
        xTickLabel: (v) => String(v - 0.5),
        yTickLabel: (v) => (v - 0.5).toLocaleString('en-US'),
        grid: false,
        xLabel: 'dimension (left: fast hands, right: slow hands)',
        yLabel: 'position',
        title: 'Sinusoidal position codes',
      });
      drawColorBar(ctx, colors, rdbu, -1, 1, { x: frame.x + frame.w + 12, y: frame.y, h: frame.h, label: 'value', ticks: [-1, -0.5, 0, 0.5, 1] });
    },
  });
  shell.plot.append(readout);

  plot.canvas.addEventListener('pointermove', (event) => {
    if (!table || !frame) return;
    const rect = plot.canvas.getBoundingClientRect();
    const px = event.clientX - rect.left;
    const py = event.clientY - rect.top;
    const col = Math.floor(((px - frame.x) / frame.w) * table.cols);
    const row = Math.floor(((py - frame.y) / frame.h) * table.rows);
    if (col < 0 || row < 0 || col >= table.cols || row >= table.rows) return;
    const v = table.data[row * table.cols + col];
    const kind = col % 2 === 0 ? 'sin' : 'cos';
    readout.textContent = `position ${row}, dimension ${col} (${kind} of pair ${col >> 1}): ${v.toFixed(4).replace('-', '\u2212')}`;
  });

  // Paints at most one pixel per device pixel of the plot: a 4,096 × 512 table is sampled
  // (nearest entry) rather than painted whole and then scaled down.
  function paint() {
    const { rows, cols, data } = table;
    const ratio = window.devicePixelRatio || 1;
    const box = frame ?? { w: 600, h: 400 };
    const w = Math.max(1, Math.min(cols, Math.round(box.w * ratio)));
    const h = Math.max(1, Math.min(rows, Math.round(box.h * ratio)));
    if (!image || image.width !== w || image.height !== h) {
      image = document.createElement('canvas');
      image.width = w;
      image.height = h;
      imageData = image.getContext('2d').createImageData(w, h);
    }
    const pixels = new Uint32Array(imageData.data.buffer);
    const lut = rdbu.packed;
    const half = LUT_MAX / 2;
    const colOf = new Int32Array(w);
    for (let x = 0; x < w; x++) colOf[x] = Math.floor(((x + 0.5) * cols) / w);
    for (let y = 0, p = 0; y < h; y++) {
      const rowStart = Math.floor(((y + 0.5) * rows) / h) * cols;
      for (let x = 0; x < w; x++, p++) pixels[p] = lut[((data[rowStart + colOf[x]] + 1) * half + 0.5) | 0];
    }
    image.getContext('2d').putImageData(imageData, 0, 0);
  }

  function update(patch = {}) {
    Object.assign(state, patch);
    writeUrlState('heatmap', state, DEFAULTS);
    table = engine.sinusoidalEncoding(state.n, state.d, state.base);
    paint();
    plot.redraw();
    const slowest = (2 * Math.PI) / state.base ** (-(state.d - 2) / state.d);
    shell.describe(
      `Sinusoidal codes for ${state.n.toLocaleString('en-US')} positions and ${state.d} dimensions with base ${state.base.toLocaleString('en-US')}: ` +
        `the first columns flip colour every few positions (pair 0 repeats every ${(2 * Math.PI).toFixed(1)} positions), ` +
        `the last pair repeats only every ${Math.round(slowest).toLocaleString('en-US')} positions.`,
    );
    const shown = Math.min(table.cols, 8);
    shell.setData({
      caption: `Sinusoidal codes, first ${shown} of ${table.cols} dimensions`,
      columns: ['position', ...Array.from({ length: shown }, (_, c) => `dim ${c}`)],
      rows: Array.from({ length: Math.min(table.rows, 50) }, (_, r) => [r, ...table.data.subarray(r * table.cols, r * table.cols + shown)]),
      limit: 50,
      note: table.rows > 50 ? `Showing positions 0–49 of ${table.rows}; the CSV has the whole table.` : undefined,
    });
  }
  update();
  return { update, controls, destroy: () => { plot.destroy(); shell.destroy(); }, get state() { return { ...state }; }, get values() { return table; } };
}
