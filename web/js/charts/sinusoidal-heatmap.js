// Figure 2, live: the sinusoidal code table (positions × dimensions) as an RdBu heatmap with a
// colour bar. Only the rows the plot can show (one per device pixel) come from the engine
// (engine.sinusoidalEncodingRows), painted through ImageData with a colour lookup table; the
// whole table (engine.sinusoidalEncoding) is computed only for the CSV and the Data view.
// Control changes are coalesced to one recompute per animation frame while a slider is dragged;
// the engine is called only by the skeleton's parts (state and plot size → rows), never while drawing.
// Hover reads out position, dimension and the exact value of that cell.

import { decimal, fixed, grouped, significant } from '../locale/format.js';
import { rdbu } from '../chart-kit/colormap.js';
import { defineChart } from '../chart-kit/define-chart.js';
import { holdWithin } from '../chart-kit/chart-controls.js';
import { drawAxes, drawColorBar, drawLine, plotFrame } from '../chart-kit/plot.js';
import { drawWithKnobs } from '../chart-kit/handles.js';
import { scratchCanvas } from '../chart-kit/canvas.js';
import { linearScale, niceTicks } from '../chart-kit/scales.js';
import { chartDeclaration } from './declarations.js';
import { t, tn } from '../locale/i18n.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
const LUT_MAX = rdbu.size - 1;

const FRAME = { left: 56, right: 74 };

/**
 * The row marker: a handle on the position axis. The knob sits on the marked row's centre near
 * the heatmap's right edge; the whole row line grabs too.
 */
const ROW_HANDLE = {
  key: 'position',
  part: 'position',
  label: t('position read (row marker)'),
  axis: 'y',
  scale({ layout: { rows } }) {
    if (!rows) return null;
    const centre = (v) => rows(v + 0.5);
    centre.invert = (py) => rows.invert(py) - 0.5;
    return centre;
  },
  across: ({ layout: { frame } }) => frame.x + frame.w - 14,
  near: ({ state, layout: { frame, rows } }, px, py) =>
    Boolean(rows) && px >= frame.x && px <= frame.x + frame.w && Math.abs(rows(state.position + 0.5) - py) <= 4,
  max: ({ state }) => state.n - 1,
  step: 1,
  bigStep: 10,
  valueText: (v) => t('position {position}', { position: grouped(v) }),
};

/** The sinusoidal heatmap with n, d and base controls, on the chart skeleton. */
export const SINUSOIDAL_HEATMAP = defineChart(chartDeclaration('sinusoidal-heatmap'), {
  coalesce: true,
  parts: ['position'],
  focusParts: { position: 'position' },
  handles: [ROW_HANDLE],
  // The marker swept down the rows: the code below changes fast on the left, slowly on the right.
  motion: {
    label: t('Sweep the positions'),
    duration: 6000,
    start: ({ state }) => ({ last: state.n - 1 }),
    frame: (frac, { last }) => ({ position: Math.round(frac * last) }),
  },
  reconcile(state, controls) {
    holdWithin(state, controls, 'position', { max: state.n - 1 }, () =>
      tn(
        'There is only {count} position; reading position {position}.',
        'There are only {count} positions; reading position {position}.',
        state.n,
        {
          count: grouped(state.n),
          position: grouped(state.n - 1),
        },
      ),
    );
  },
  compute: {
    // State and plot size → the displayed rows. Image row y shows position ⌊(y + ½)·n / h⌋, the
    // nearest entry to the pixel's centre, so a 4,096 × 512 table asks the engine for only as many
    // rows as the plot has device pixels.
    sample: {
      reads: ['n', 'd', 'base', '@size'],
      run(state, engine, _data, size) {
        const { w, h } = imageSize(state, size);
        const positions = new Float64Array(h);
        for (let y = 0; y < h; y++) positions[y] = Math.floor(((y + 0.5) * state.n) / h);
        const rows = engine.sinusoidalEncodingRows(positions, state.d, state.base);
        return {
          key: `${state.n}|${state.d}|${state.base}|${w}|${h}`,
          positions,
          rows: rows.rows,
          cols: rows.cols,
          data: rows.data,
          w,
          h,
        };
      },
    },
    // The rows painted into an offscreen image, one pixel per displayed entry (no engine call); where
    // the chart Worker paints the canvas, painted there.
    image: { after: ['sample'], paint: true, run: (_state, _engine, { sample, image }) => paint(sample, image) },
    // The marked position's whole code, exactly (one row from the engine).
    code: {
      reads: ['position', 'd', 'base'],
      run: (state, engine) => engine.sinusoidalEncodingRows([state.position], state.d, state.base).data.slice(),
    },
  },
  canvases: [
    {
      label: t(
        'Heatmap of sinusoidal position codes: rows are positions, columns are dimensions, colour is the value from −1 to +1',
      ),
      aspect: 0.72,
      maxHeight: 560,
      // 'image' is repainted in place when its size holds: 'sample' is new on every recompute.
      reads: ['n', 'd', 'position', 'sample', 'image'],
      draw: drawWithKnobs(drawHeatmap, [ROW_HANDLE]),
    },
    {
      label: t('Line chart: the code of the marked position, its value in every dimension'),
      aspect: 0.3,
      minHeight: 170,
      maxHeight: 230,
      // The marked position's code: a change of n (or of the plot's size) leaves it as it is.
      reads: ['d', 'position', 'code'],
      draw: drawCode,
    },
  ],
  describe({ state, data: { code } }) {
    const slowest = (2 * Math.PI) / state.base ** (-(state.d - 2) / state.d);
    const params = {
      count: grouped(state.n),
      d: grouped(state.d),
      base: significant(state.base),
      fastest: decimal(2 * Math.PI, 1, 1),
      slowest: grouped(slowest),
      position: grouped(state.position),
      first: fixed(code[0], 3),
      last: fixed(code[state.d - 1], 3),
      lastDim: grouped(state.d - 1),
    };
    // Two dimensions are one pair: there is no "last pair" to set against pair 0.
    return state.d === 2
      ? tn(
          'Sinusoidal codes for {count} position and 2 dimensions with base {base}: one pair, which repeats every {fastest} positions. Position {position} reads {first} in dimension 0 and {last} in dimension 1.',
          'Sinusoidal codes for {count} positions and 2 dimensions with base {base}: one pair, which repeats every {fastest} positions. Position {position} reads {first} in dimension 0 and {last} in dimension 1.',
          state.n,
          params,
        )
      : tn(
          'Sinusoidal codes for {count} position and {d} dimensions with base {base}: the first columns flip colour every few positions (pair 0 repeats every {fastest} positions), the last pair repeats only every {slowest} positions. Position {position} reads {first} in dimension 0 and {last} in dimension {lastDim}.',
          'Sinusoidal codes for {count} positions and {d} dimensions with base {base}: the first columns flip colour every few positions (pair 0 repeats every {fastest} positions), the last pair repeats only every {slowest} positions. Position {position} reads {first} in dimension 0 and {last} in dimension {lastDim}.',
          state.n,
          params,
        );
  },

  // Built only when the Data view is open: the full table's first rows (sinusoidalEncoding
  // computes each row the same way whatever n is, so these are rows 0–49 of the n-row table).
  table: ({ state }, engine) => {
    const { n, d, base } = state;
    return () => {
      const shown = Math.min(d, 8);
      const listed = Math.min(n, 50);
      const table = engine.sinusoidalEncoding(listed, d, base);
      return {
        caption: t('Sinusoidal codes, first {shown} of {d} dimensions', { shown, d }),
        columns: [t('position'), ...Array.from({ length: shown }, (_, c) => t('dim {c}', { c }))],
        rows: Array.from({ length: listed }, (_, r) => [
          r,
          ...table.data.subarray(r * table.cols, r * table.cols + shown),
        ]),
        limit: 50,
        note: n > 50 ? t('Showing positions 0–49 of {n}; the CSV has the whole table.', { n: grouped(n) }) : undefined,
      };
    };
  },
  csv: ({ state }, engine) => {
    const table = engine.sinusoidalEncoding(state.n, state.d, state.base); // on demand: every entry in full precision
    const rows = [];
    for (let r = 0; r < table.rows; r++) rows.push([r, ...table.data.subarray(r * table.cols, (r + 1) * table.cols)]);
    return { header: ['position', ...Array.from({ length: table.cols }, (_, c) => `dim${c}`)], rows };
  },
  values: ({ data }) => data.sample,
  extend: addReadout,
});

/** Mounts the heatmap in `slot` (the factory index.js calls). */
export const createSinusoidalHeatmapChart = SINUSOIDAL_HEATMAP.create;

/** The plot frame for a canvas of width × height (CSS pixels). */
const frameOf = (size) => plotFrame(size?.width ?? 600, size?.height ?? 432, FRAME);

/** The picture's size in device pixels: at most one pixel per table entry each way. */
function imageSize(state, size) {
  const ratio = size?.ratio ?? 1;
  const box = frameOf(size);
  return {
    w: Math.max(1, Math.min(state.d, Math.round(box.w * ratio))),
    h: Math.max(1, Math.min(state.n, Math.round(box.h * ratio))),
  };
}

function paint(sample, image) {
  const { cols, data, w, h } = sample;
  if (!image || image.canvas.width !== w || image.canvas.height !== h) {
    const canvas = scratchCanvas(w, h);
    image = { canvas, pixels: canvas.getContext('2d').createImageData(w, h) };
  }
  const pixels = new Uint32Array(image.pixels.data.buffer);
  const lut = rdbu.packed;
  const half = LUT_MAX / 2;
  const colOf = new Int32Array(w);
  for (let x = 0; x < w; x++) colOf[x] = Math.floor(((x + 0.5) * cols) / w);
  for (let y = 0, p = 0; y < h; y++) {
    const rowStart = y * cols;
    for (let x = 0; x < w; x++, p++) pixels[p] = lut[((data[rowStart + colOf[x]] + 1) * half + 0.5) | 0];
  }
  image.canvas.getContext('2d').putImageData(image.pixels, 0, 0);
  return image;
}

function drawHeatmap(ctx, width, height, colors, { state, data: { image }, layout, marks, highlighted }) {
  const frame = plotFrame(width, height, FRAME);
  layout.frame = frame;
  const x = linearScale(0, state.d, frame.x, frame.x + frame.w);
  const y = linearScale(0, state.n, frame.y, frame.y + frame.h);
  layout.rows = y;
  if (image) {
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(image.canvas, frame.x, frame.y, frame.w, frame.h);
  }
  drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, state.d - 1, 6).map((v) => v + 0.5),
    yTicks: niceTicks(0, state.n - 1, 6).map((v) => v + 0.5),
    xTickLabel: (v) => grouped(v - 0.5),
    yTickLabel: (v) => grouped(v - 0.5),
    grid: false,
    xLabel: t('dimension (left: fast hands, right: slow hands)'),
    yLabel: t('position'),
    title: t('Sinusoidal position codes'),
  });
  drawColorBar(ctx, colors, rdbu, -1, 1, {
    x: frame.x + frame.w + 12,
    y: frame.y,
    h: frame.h,
    label: t('value'),
    ticks: [-1, -0.5, 0, 0.5, 1],
  });
  // The row marker: the marked position's row, a line with a halo so it shows on red and blue.
  const my = y(state.position + 0.5);
  ctx.save();
  for (const [color, lineWidth] of [
    [colors.bg, highlighted === 'position' ? 6 : 4],
    [colors.fg, highlighted === 'position' ? 3 : 1.5],
  ]) {
    ctx.strokeStyle = color;
    ctx.lineWidth = lineWidth;
    ctx.beginPath();
    ctx.moveTo(frame.x, my);
    ctx.lineTo(frame.x + frame.w, my);
    ctx.stroke();
  }
  ctx.restore();
  const { cursor } = marks;
  if (cursor && marks.focused) {
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
}

/** The marked position's code: its value in every dimension, sin and cos of each pair in turn. */
function drawCode(ctx, width, height, colors, { state, data: { code }, highlighted }) {
  if (!code) return;
  const frame = plotFrame(width, height, { ...FRAME, top: 30, bottom: 40 });
  const x = linearScale(-0.5, state.d - 0.5, frame.x, frame.x + frame.w);
  const y = linearScale(-1.15, 1.15, frame.y + frame.h, frame.y);
  drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, state.d - 1, 6),
    yTicks: [-1, 0, 1],
    xLabel: t('dimension'),
    yLabel: t('value'),
    title: t('Position {position}: sin (solid) and cos (dashed) of each pair', { position: grouped(state.position) }),
  });
  // The sin entries (even dimensions) and the cos entries (odd) as two curves over the dimensions.
  for (const [first, dash] of [
    [0, []],
    [1, [5, 3]],
  ]) {
    const dims = [];
    const values = [];
    for (let c = first; c < state.d; c += 2) {
      dims.push(c);
      values.push(code[c]);
    }
    drawLine(ctx, frame, x, y, dims, values, { color: colors.fg, dash, width: highlighted === 'position' ? 2.5 : 1.2 });
  }
  const r = Math.max(1.2, Math.min(3, frame.w / state.d / 3));
  ctx.save();
  code.forEach((v, c) => {
    ctx.fillStyle = v >= 0 ? colors.blue : colors.red; // as in the heatmap: RdBu, −1 red … +1 blue
    ctx.beginPath();
    ctx.arc(x(c), y(v), r, 0, 2 * Math.PI);
    ctx.fill();
  });
  ctx.restore();
}

// The keyboard's way to the readout: arrows move one cell, Page Up/Down ten positions.
const MOVES = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
  PageUp: [-10, 0],
  PageDown: [10, 0],
};

/** The hover and keyboard readout of one cell's exact value, and the chart's cellValue/fullTable. */
function addReadout(chart, { state, layout, marks, shell, canvases: [plot], engine }) {
  let hovered = null; // { key, values }: the hovered row, computed exactly
  const readout = document.createElement('p');
  readout.className = 'chart-readout';
  readout.textContent = t('Point at the heatmap, or focus it and use the arrow keys, to read a value.');
  readout.setAttribute('aria-live', 'polite');
  plot.canvas.tabIndex = 0;
  plot.canvas.setAttribute(
    'aria-label',
    t(
      '{label}. Focus it and use the arrow keys (Page Up and Down: 10 positions; Home and End: first and last dimension) to read a cell.',
      { label: plot.canvas.getAttribute('aria-label') },
    ),
  );
  shell.plot.append(readout);

  /** The table's entry at (position, dimension), computed for that one row (not read off the sampled picture). */
  function cellValue(position, dimension) {
    const key = `${state.d}|${state.base}|${position}`;
    if (hovered?.key !== key)
      hovered = { key, values: engine.sinusoidalEncodingRows([position], state.d, state.base).data };
    return hovered.values[dimension];
  }

  /** Shows (and announces) the value of one cell. */
  function readCell(row, col) {
    const value = cellValue(row, col);
    const kind = col % 2 === 0 ? 'sin' : 'cos';
    readout.textContent = t('position {position}, dimension {dimension} ({kind} of pair {pair}): {value}', {
      position: grouped(row),
      dimension: col,
      kind,
      pair: col >> 1,
      value: fixed(value, 4),
    });
  }

  plot.canvas.addEventListener('pointermove', (event) => {
    const { frame } = layout;
    if (!frame) return;
    const rect = plot.canvas.getBoundingClientRect();
    const col = Math.floor(((event.clientX - rect.left - frame.x) / frame.w) * state.d);
    const row = Math.floor(((event.clientY - rect.top - frame.y) / frame.h) * state.n);
    if (col < 0 || row < 0 || col >= state.d || row >= state.n) return;
    readCell(row, col);
  });
  plot.canvas.addEventListener('keydown', (event) => {
    const move = MOVES[event.key];
    if (!move && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const at = marks.cursor ?? { row: 0, col: 0 };
    let row = at.row + (move?.[0] ?? 0);
    let col = at.col + (move?.[1] ?? 0);
    if (event.key === 'Home') col = 0;
    if (event.key === 'End') col = state.d - 1;
    row = Math.max(0, Math.min(state.n - 1, row));
    col = Math.max(0, Math.min(state.d - 1, col));
    marks.cursor = { row, col };
    readCell(row, col);
    plot.redraw();
  });
  plot.canvas.addEventListener('focus', () => {
    marks.focused = true;
    const at = marks.cursor ?? { row: 0, col: 0 };
    marks.cursor = { row: Math.min(at.row, state.n - 1), col: Math.min(at.col, state.d - 1) };
    readCell(marks.cursor.row, marks.cursor.col);
    plot.redraw();
  });
  plot.canvas.addEventListener('blur', () => {
    marks.focused = false;
    plot.redraw();
  });
  chart.cellValue = cellValue;
  /** The whole table, on demand. */
  chart.fullTable = () => engine.sinusoidalEncoding(state.n, state.d, state.base);
}
