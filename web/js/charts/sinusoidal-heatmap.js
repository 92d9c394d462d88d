// Figure 2, live: the sinusoidal code table (positions × dimensions) as an RdBu heatmap with a
// colour bar. Only the rows the plot can show (one per device pixel) come from the engine
// (engine.sinusoidalEncodingRows), painted through ImageData with a colour lookup table; the
// whole table (engine.sinusoidalEncoding) is computed only for the CSV and the Data view.
// Control changes are coalesced to one recompute per animation frame while a slider is dragged;
// the engine is called only in compute() (state and plot size → rows), never while drawing.
// Hover reads out position, dimension and the exact value of that cell.

import { decimal, fixed, grouped, significant } from '../format.js';
import { rdbu } from '../chart-kit/colormap.js';
import { createDeclaredControls } from '../chart-kit/chart-controls.js';
import { createPlotCanvas } from '../chart-kit/canvas.js';
import { drawAxes, drawColorBar, plotFrame } from '../chart-kit/plot.js';
import { linearScale, niceTicks } from '../chart-kit/scales.js';
import { createChartShell } from '../chart-kit/shell.js';

/** The chart's controls, their ranges and defaults (the URL parameters sinusoidal-heatmap.n, .d, .base; formerly heatmap.*). */
export const CONTROLS = {
  n: { kind: 'number', label: 'positions n', value: 200, min: 1, max: 4096, slider: true },
  d: { kind: 'number', label: 'dimensions d', value: 64, min: 2, max: 512, step: 2, even: true, slider: true },
  base: { kind: 'number', label: 'base', value: 10000, min: 1.5, max: 1e9, step: 'any', integer: false, above: 1 },
};
export const URL_ALIASES = ['heatmap'];
const LUT_MAX = rdbu.size - 1;

/** The sinusoidal heatmap with n, d and base controls. */
export function createSinusoidalHeatmapChart(slot, engine) {
  let sample = null; // { key, positions, rows, cols, data }: the displayed rows of the table
  let image = null; // an offscreen canvas holding one pixel per displayed entry
  let imageData = null;
  let frame = null;
  let pending = 0; // requestAnimationFrame id of a coalesced update
  let hovered = null; // { key, position, values }: the hovered row, computed exactly
  const fullTable = () => engine.sinusoidalEncoding(state.n, state.d, state.base);
  const shell = createChartShell(slot, 'sinusoidal-heatmap', {
    exports: {
      getCanvases: () => [plot.canvas],
      getCsv: () => {
        const table = fullTable(); // on demand: the CSV has every entry in full precision
        const rows = [];
        for (let r = 0; r < table.rows; r++)
          rows.push([r, ...table.data.subarray(r * table.cols, (r + 1) * table.cols)]);
        return { header: ['position', ...Array.from({ length: table.cols }, (_, c) => `dim${c}`)], rows };
      },
    },
  });
  const { state, controls, writeUrl } = createDeclaredControls({
    id: 'sinusoidal-heatmap',
    aliases: URL_ALIASES,
    declarations: CONTROLS,
    shell,
    onChange: request,
  });
  shell.controls.append(controls.n.element, controls.d.element, controls.base.element);
  const readout = document.createElement('p');
  readout.className = 'chart-readout';
  readout.textContent = 'Point at the heatmap, or focus it and use the arrow keys, to read a value.';
  readout.setAttribute('aria-live', 'polite');
  let cursor = null; // { row, col }: the cell the keyboard reads, outlined while the heatmap has focus

  const plot = createPlotCanvas(shell.plot, {
    label:
      'Heatmap of sinusoidal position codes: rows are positions, columns are dimensions, colour is the value from −1 to +1',
    aspect: 0.72,
    maxHeight: 560,
    draw(ctx, width, height, colors) {
      frame = plotFrame(width, height, { left: 56, right: 74 });
      const x = linearScale(0, state.d, frame.x, frame.x + frame.w);
      const y = linearScale(0, state.n, frame.y, frame.y + frame.h);
      // A new plot size needs other rows: compute them at the next frame, drawing what is there now.
      if (sample?.key !== sampleKey()) requestAnimationFrame(() => sample?.key !== sampleKey() && compute());
      if (image) {
        ctx.imageSmoothingEnabled = false;
        ctx.drawImage(image, frame.x, frame.y, frame.w, frame.h);
      }
      drawAxes(ctx, frame, colors, {
        x,
        y,
        xTicks: niceTicks(0, state.d - 1, 6).map((v) => v + 0.5),
        yTicks: niceTicks(0, state.n - 1, 6).map((v) => v + 0.5),
        xTickLabel: (v) => grouped(v - 0.5),
        yTickLabel: (v) => grouped(v - 0.5),
        grid: false,
        xLabel: 'dimension (left: fast hands, right: slow hands)',
        yLabel: 'position',
        title: 'Sinusoidal position codes',
      });
      drawColorBar(ctx, colors, rdbu, -1, 1, {
        x: frame.x + frame.w + 12,
        y: frame.y,
        h: frame.h,
        label: 'value',
        ticks: [-1, -0.5, 0, 0.5, 1],
      });
      if (cursor && document.activeElement === plot?.canvas) {
        const cx = Math.min(x(cursor.col), frame.x + frame.w - 3);
        const cy = Math.min(y(cursor.row), frame.y + frame.h - 3);
        ctx.save();
        ctx.lineWidth = 2;
        ctx.strokeStyle = colors.fg;
        ctx.strokeRect(
          cx - 1,
          cy - 1,
          Math.max(3, x(cursor.col + 1) - x(cursor.col)) + 2,
          Math.max(3, y(cursor.row + 1) - y(cursor.row)) + 2,
        );
        ctx.restore();
      }
    },
  });
  plot.canvas.tabIndex = 0;
  plot.canvas.setAttribute(
    'aria-label',
    `${plot.canvas.getAttribute('aria-label')}. Focus it and use the arrow keys (Page Up and Down: 10 positions; Home and End: first and last dimension) to read a cell.`,
  );
  shell.plot.append(readout);

  plot.canvas.addEventListener('pointermove', (event) => {
    if (!frame) return;
    const rect = plot.canvas.getBoundingClientRect();
    const px = event.clientX - rect.left;
    const py = event.clientY - rect.top;
    const col = Math.floor(((px - frame.x) / frame.w) * state.d);
    const row = Math.floor(((py - frame.y) / frame.h) * state.n);
    if (col < 0 || row < 0 || col >= state.d || row >= state.n) return;
    readCell(row, col);
  });

  /** Shows (and announces) the value of one cell. */
  function readCell(row, col) {
    const value = cellValue(row, col);
    const kind = col % 2 === 0 ? 'sin' : 'cos';
    readout.textContent = `position ${grouped(row)}, dimension ${col} (${kind} of pair ${col >> 1}): ${fixed(value, 4)}`;
  }

  // The keyboard's way to the same readout: arrows move one cell, Page Up/Down ten positions.
  const MOVES = {
    ArrowUp: [-1, 0],
    ArrowDown: [1, 0],
    ArrowLeft: [0, -1],
    ArrowRight: [0, 1],
    PageUp: [-10, 0],
    PageDown: [10, 0],
  };
  plot.canvas.addEventListener('keydown', (event) => {
    const move = MOVES[event.key];
    if (!move && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const at = cursor ?? { row: 0, col: 0 };
    let row = at.row + (move?.[0] ?? 0);
    let col = at.col + (move?.[1] ?? 0);
    if (event.key === 'Home') col = 0;
    if (event.key === 'End') col = state.d - 1;
    row = Math.max(0, Math.min(state.n - 1, row));
    col = Math.max(0, Math.min(state.d - 1, col));
    cursor = { row, col };
    readCell(row, col);
    plot.redraw();
  });
  plot.canvas.addEventListener('focus', () => {
    cursor ??= { row: 0, col: 0 };
    cursor = { row: Math.min(cursor.row, state.n - 1), col: Math.min(cursor.col, state.d - 1) };
    readCell(cursor.row, cursor.col);
    plot.redraw();
  });
  plot.canvas.addEventListener('blur', () => plot.redraw());

  /** The table's entry at (position, dimension), computed for that one row (not read off the sampled picture). */
  function cellValue(position, dimension) {
    const key = `${state.d}|${state.base}|${position}`;
    if (hovered?.key !== key)
      hovered = { key, values: engine.sinusoidalEncodingRows([position], state.d, state.base).data };
    return hovered.values[dimension];
  }

  // The picture's size in device pixels: at most one pixel per table entry each way.
  function imageSize() {
    const ratio = window.devicePixelRatio || 1;
    const box = frame ?? { w: 600, h: 400 };
    return {
      w: Math.max(1, Math.min(state.d, Math.round(box.w * ratio))),
      h: Math.max(1, Math.min(state.n, Math.round(box.h * ratio))),
    };
  }

  /** What the displayed rows depend on: the state and the picture's size. */
  function sampleKey() {
    const { w, h } = imageSize();
    return `${state.n}|${state.d}|${state.base}|${w}|${h}`;
  }

  // The computation: state and plot size → the displayed rows, painted into the offscreen image,
  // then drawn. Image row y shows position ⌊(y + ½)·n / h⌋, the nearest entry to the pixel's
  // centre, so a 4,096 × 512 table asks the engine for only as many rows as the plot has device pixels.
  function compute() {
    const { w, h } = imageSize();
    const key = sampleKey();
    if (sample?.key !== key) {
      const positions = new Float64Array(h);
      for (let y = 0; y < h; y++) positions[y] = Math.floor(((y + 0.5) * state.n) / h);
      const rows = engine.sinusoidalEncodingRows(positions, state.d, state.base);
      sample = { key, positions, rows: rows.rows, cols: rows.cols, data: rows.data };
      paint(w, h);
    }
    plot.redraw();
  }

  function paint(w, h) {
    const { cols, data } = sample;
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
      const rowStart = y * cols;
      for (let x = 0; x < w; x++, p++) pixels[p] = lut[((data[rowStart + colOf[x]] + 1) * half + 0.5) | 0];
    }
    image.getContext('2d').putImageData(imageData, 0, 0);
  }

  /** Takes a control's change now and does the work at the next animation frame (several changes in one frame: one recompute). */
  function request(patch) {
    Object.assign(state, patch);
    if (!pending) pending = requestAnimationFrame(flush);
  }

  /** Does any requested work now (the benchmark and tests call it to time or await a frame's work). */
  function flush() {
    if (pending) cancelAnimationFrame(pending);
    pending = 0;
    update();
  }

  function update(patch = {}) {
    if (pending) cancelAnimationFrame(pending);
    pending = 0;
    Object.assign(state, patch);
    writeUrl(state);
    compute();
    const slowest = (2 * Math.PI) / state.base ** (-(state.d - 2) / state.d);
    shell.describe(
      `Sinusoidal codes for ${grouped(state.n)} positions and ${grouped(state.d)} dimensions with base ${significant(state.base)}: ` +
        `the first columns flip colour every few positions (pair 0 repeats every ${decimal(2 * Math.PI, 1, 1)} positions), ` +
        `the last pair repeats only every ${grouped(slowest)} positions.`,
    );
    const shown = Math.min(state.d, 8);
    const listed = Math.min(state.n, 50);
    // Built only when the Data view is open: the full table's first rows (sinusoidalEncoding
    // computes each row the same way whatever n is, so these are rows 0–49 of the n-row table).
    shell.setData(() => {
      const table = engine.sinusoidalEncoding(listed, state.d, state.base);
      return {
        caption: `Sinusoidal codes, first ${shown} of ${state.d} dimensions`,
        columns: ['position', ...Array.from({ length: shown }, (_, c) => `dim ${c}`)],
        rows: Array.from({ length: listed }, (_, r) => [
          r,
          ...table.data.subarray(r * table.cols, r * table.cols + shown),
        ]),
        limit: 50,
        note: state.n > 50 ? `Showing positions 0–49 of ${grouped(state.n)}; the CSV has the whole table.` : undefined,
      };
    });
  }
  update();
  return {
    update,
    flush,
    controls,
    cellValue,
    destroy: () => {
      if (pending) cancelAnimationFrame(pending);
      plot.destroy();
      shell.destroy();
    },
    get state() {
      return { ...state };
    },
    /** The displayed rows: { positions, rows, cols, data } (the whole table is fullTable(), on demand). */
    get values() {
      return sample;
    },
    fullTable,
  };
}
