// The reference a figure's step is measured against (twin-steps.mjs): the same picture as one of the
// lesson's figures with a handle, built the way a front-end developer would build it with uPlot, the
// fastest mainstream canvas chart library (a heatmap: its rows painted once into a cached image, with
// uPlot's axes). The same canvas sizes, the same numbers from the lesson's engine (engine.mjs), a range
// input in place of the handle, and the same description sentence and aria-valuetext on every step.
// Each element with data-twin="<figure id>" and data-sizes="[[w, h], …]" (CSS pixels of the lesson's
// canvases for that figure, in order) becomes one twin. twin-steps.mjs bundles this module with
// esbuild into the served site for the run; engine.mjs is the site's own.
import uPlot from 'uplot';
import createEngine from '../engine.mjs';
import { rdbu } from '../../../web/js/chart-kit/colormap.js';
import {
  decimal,
  fixed,
  formatG2,
  formatValue,
  grouped,
  listed,
  powerOfTen,
  sciUnicode,
  significant,
  trueMinus,
  twoSignificant,
} from '../../../web/js/locale/format.js';
import { t, tn } from '../../../web/js/locale/i18n.js';

const COLORS = {
  fg: '#1b1b1b',
  muted: '#5f5f5f',
  grey: '#8a8a8a',
  bg: '#ffffff',
  red: '#c62828',
  blue: '#1f5fae',
  black: '#1b1b1b',
  cycle: ['#1f5fae', '#c62828', '#2e7d32', '#6a3d9a', '#b15a00', '#00838f'],
};

/** The parts every twin has: a labelled range input, the plots' boxes, the live description. */
function frame(root, { label, min, max, step, value }, plots) {
  const id = `${root.dataset.twin}-range`;
  const row = document.createElement('p');
  const name = document.createElement('label');
  name.htmlFor = id;
  name.textContent = label;
  const input = document.createElement('input');
  Object.assign(input, { type: 'range', id, min: String(min), max: String(max), step: String(step) });
  input.value = String(value);
  input.className = 'twin-range';
  row.append(name, ' ', input);
  const boxes = Array.from({ length: plots }, () => document.createElement('div'));
  const description = document.createElement('p');
  description.className = 'twin-description';
  description.setAttribute('aria-live', 'polite');
  root.replaceChildren(row, ...boxes);
  root.append(description);
  return { input, boxes, description };
}

/** Sets the text of `node` or an attribute only when it changes: an equal write is still a DOM mutation. */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
function setAttribute(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/** Room below the x axis for a legend of `count` items, in CSS pixels (uPlot's bottom padding). */
const legendRoom = (count) => 10 + 16 * count;

/** A legend drawn on the plot's canvas below the x axis (as the lesson draws its own), one item a line. */
function drawLegend(u, items) {
  const { ctx } = u;
  const r = uPlot.pxRatio;
  ctx.save();
  ctx.font = `${12 * r}px sans-serif`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  let y = (u.height - legendRoom(items.length) + 14) * r;
  for (const item of items) {
    const x = u.bbox.left;
    if (item.fill) {
      ctx.fillStyle = item.fill;
      ctx.fillRect(x, y - 4 * r, 18 * r, 8 * r);
    } else {
      ctx.strokeStyle = item.color;
      ctx.lineWidth = 2 * r;
      ctx.setLineDash((item.dash ?? []).map((v) => v * r));
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.lineTo(x + 18 * r, y);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.fillStyle = COLORS.fg;
    ctx.fillText(item.label, x + 24 * r, y);
    y += 16 * r;
  }
  ctx.restore();
}

/** A line across the plot at y value `v` (scale 'y'), dashed, with a label. */
function hLine(u, v, label, { right = false } = {}) {
  const { ctx } = u;
  const r = uPlot.pxRatio;
  const y = u.valToPos(v, 'y', true);
  ctx.save();
  ctx.strokeStyle = COLORS.grey;
  ctx.lineWidth = r;
  ctx.setLineDash([4 * r, 3 * r]);
  ctx.beginPath();
  ctx.moveTo(u.bbox.left, y);
  ctx.lineTo(u.bbox.left + u.bbox.width, y);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = COLORS.muted;
  ctx.font = `${12 * r}px sans-serif`;
  ctx.textAlign = right ? 'right' : 'left';
  ctx.textBaseline = 'bottom';
  ctx.fillText(label, right ? u.bbox.left + u.bbox.width - 4 * r : u.bbox.left + 4 * r, y - 2 * r);
  ctx.restore();
}

const base = (width, height, title, legendItems = 0) => ({
  width,
  height,
  title,
  padding: [8, 24, legendItems ? legendRoom(legendItems) : 0, 0],
  legend: { show: false },
  cursor: { show: false, drag: { x: false, y: false } },
  select: { show: false },
});

// ---------------------------------------------------------------------------------------------
// Context extension: the slowest pair's angle per method, and every pair's wavelength per method;
// the handle is the target length.

const METHODS = [
  { key: 'raw', label: t('raw positions (extended)'), color: COLORS.red, dash: [] },
  { key: 'pi', label: t('position interpolation'), color: COLORS.blue, dash: [] },
  { key: 'ntk', label: t('NTK-aware base'), color: COLORS.black, dash: [6, 4] },
  { key: 'yarn', label: 'YaRN', color: COLORS.cycle[2], dash: [], added: true },
  { key: 'dynamic', label: t('dynamic NTK'), color: COLORS.cycle[4], dash: [2, 3], added: true },
];
const methodSeries = () =>
  METHODS.map((m) => ({
    stroke: m.color,
    dash: m.dash,
    width: m.added ? 4 : 1.6,
    alpha: m.added ? 0.45 : 1,
    points: { show: false },
  }));

function pairRange(first, last) {
  if (first > last) return t('no pair');
  if (first === last) return t('pair {pair}', { pair: grouped(first) });
  return t('pairs {first}–{last}', { first: grouped(first), last: grouped(last) });
}

function yarnPairs({ low, high }, pairs) {
  const last = pairs - 1;
  const keptEnd = Math.min(Math.floor(low), last);
  const interpolatedStart = Math.max(Math.ceil(high), keptEnd + 1, 0);
  return {
    kept: pairRange(0, keptEnd),
    ramped: pairRange(Math.max(keptEnd + 1, 0), Math.min(interpolatedStart - 1, last)),
    interpolated: pairRange(interpolatedStart, last),
  };
}

function extensionPositions(target) {
  const step = target <= 262144 ? 64 : 64 * Math.ceil(target / 262144);
  const count = Math.ceil(target / step);
  return Float64Array.from({ length: count }, (_, i) => i * step);
}

function extensionText(state, positions, curves, wavelengths) {
  const n = positions.length;
  const last = (r) => curves.angles.data[r * n + n - 1];
  const inBand = METHODS.filter((_, r) => last(r) <= curves.trainedMax * (1 + 1e-9)).map((m) => m.label);
  const changed = (r) => wavelengths[r].filter((v, i) => Math.abs(v / wavelengths[0][i] - 1) > 1e-9).length;
  const params = {
    trained: grouped(state.trained),
    target: grouped(state.target),
    d: grouped(state.d),
    base: significant(state.base),
    angle: fixed(last(0), 3),
    max: fixed(curves.trainedMax, 3),
    methods: listed(inBand),
    pi: changed(1),
    ntk: changed(2),
    yarn: changed(3),
    dynamic: changed(4),
    pairs: grouped(state.d / 2),
  };
  return inBand.length
    ? t(
        "Trained at {trained}, stretched to {target} (d {d}, base {base}). At the last position the slowest pair's angle is {angle} rad raw against a trained maximum of {max}; inside the band: {methods}. Pairs changed: interpolation {pi}, NTK {ntk}, YaRN {yarn}, dynamic NTK {dynamic} of {pairs}.",
        params,
      )
    : t(
        "Trained at {trained}, stretched to {target} (d {d}, base {base}). At the last position the slowest pair's angle is {angle} rad raw against a trained maximum of {max}; inside the band: none. Pairs changed: interpolation {pi}, NTK {ntk}, YaRN {yarn}, dynamic NTK {dynamic} of {pairs}.",
        params,
      );
}

function extensionNote(state, curves) {
  if (state.target === state.trained)
    return t(
      'No stretch: the target is the trained length, so every method leaves every pair at its trained speed and the NTK-aware base stays {base}.',
      { base: formatValue(curves.ntkBase, 'base') },
    );
  const { kept, ramped, interpolated } = yarnPairs(curves.yarnRange, state.d / 2);
  return t(
    'Stretch {scale}×. NTK-aware base {base}. YaRN keeps {kept} at the trained speed, interpolates {interpolated}, ramps {ramped} in between, and multiplies attention logits by the temperature factor {factor}² (0.1·ln s + 1 = {factor} on cos and sin).',
    {
      scale: decimal(state.target / state.trained, 2, 2),
      base: formatValue(curves.ntkBase, 'base'),
      kept,
      ramped,
      interpolated,
      factor: fixed(curves.attentionFactor, 3),
    },
  );
}

function contextExtension(root, engine, sizes) {
  const state = { trained: 4096, target: 32768, d: 128, base: 10000 };
  const { input, boxes, description } = frame(
    root,
    { label: t('target length'), min: state.trained, max: 2097152, step: 1024, value: state.target },
    2,
  );
  const note = document.createElement('p');
  note.className = 'twin-note';
  root.append(note);
  let view = null;
  const pairs = state.d / 2;
  const xs = Float64Array.from({ length: pairs }, (_, i) => i);
  const angles = new uPlot(
    {
      ...base(...sizes[0], t('Keeping long contexts inside the trained range'), METHODS.length + 1),
      scales: {
        x: { time: false, range: () => [0, state.target] },
        y: { range: () => [0, view.top] },
      },
      axes: [{ label: t('position') }, { label: t('angle of the slowest RoPE pair (rad)') }],
      series: [{}, ...methodSeries()],
      hooks: {
        drawClear: [
          (u) => {
            const { ctx } = u;
            const y0 = u.valToPos(0, 'y', true);
            const y1 = u.valToPos(view.curves.trainedMax, 'y', true);
            ctx.save();
            ctx.globalAlpha = 0.3;
            ctx.fillStyle = COLORS.grey;
            ctx.fillRect(u.bbox.left, y1, u.bbox.width, y0 - y1);
            ctx.restore();
          },
        ],
        draw: [
          (u) =>
            drawLegend(u, [
              { label: t('angles seen in training'), fill: COLORS.grey },
              ...METHODS.map((m) => ({ label: m.label, color: m.color, dash: m.dash })),
            ]),
        ],
      },
    },
    [[0], ...METHODS.map(() => [null])],
    boxes[0],
  );
  const waves = new uPlot(
    {
      ...base(...sizes[1], t('Which pairs each method slows'), METHODS.length),
      scales: {
        x: { time: false, range: () => [-0.5, pairs - 0.5] },
        y: { distr: 3, log: 10, range: () => [1, view.hi * 2] },
      },
      axes: [{ label: t('pair i (0 turns fastest)') }, { label: t('wavelength 2π/θᵢ (positions)'), size: 70 }],
      series: [{}, ...methodSeries()],
      hooks: {
        draw: [
          (u) => {
            const apart = Math.abs(u.valToPos(state.trained, 'y') - u.valToPos(state.target, 'y')) >= 14;
            hLine(u, state.trained, t('trained length'));
            hLine(u, state.target, t('target length'), { right: !apart });
            drawLegend(
              u,
              METHODS.map((m) => ({ label: m.label, color: m.color, dash: m.dash })),
            );
          },
        ],
      },
    },
    [[0], ...METHODS.map(() => [null])],
    boxes[1],
  );
  function update() {
    const positions = extensionPositions(state.target);
    const curves = engine.extensionCurves(positions, state.trained, state.target, state.d, state.base);
    const inv = engine.extensionInverseFrequencies(state.d, state.base, state.trained, state.target);
    const wavelengths = METHODS.map((_, r) =>
      engine.pairWavelengths(inv.data.subarray(r * inv.cols, (r + 1) * inv.cols)),
    );
    const n = positions.length;
    let hi = state.target;
    for (const row of wavelengths) for (const v of row) hi = Math.max(hi, v);
    view = { curves, hi, top: Math.max(curves.angles.data[n - 1], curves.trainedMax) * 1.05 };
    angles.setData([positions, ...METHODS.map((_, r) => curves.angles.data.subarray(r * n, (r + 1) * n))]);
    waves.setData([xs, ...wavelengths]);
    setText(description, extensionText(state, positions, curves, wavelengths));
    setText(note, extensionNote(state, curves));
    setAttribute(
      input,
      'aria-valuetext',
      t('{length} tokens, {ratio}× the trained length', {
        length: grouped(state.target),
        ratio: fixed(state.target / state.trained, 2),
      }),
    );
  }
  input.addEventListener('input', () => {
    state.target = Number(input.value);
    update();
  });
  update();
}

// ---------------------------------------------------------------------------------------------
// Precision: float32 against float64 rotation errors per pair on log-log axes; the handle is the
// position read, stepped by a quarter (×1.25) as the lesson's arrows step it.

const FLOOR = 1e-10;
const PRECISION_SAMPLES = 240;

/** Log-spaced whole positions from 1 to max, distinct (the lesson's logSpacedWholes). */
function logSpacedWholes(max, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const v = Math.round(Math.exp((Math.log(max) * i) / (count - 1)));
    if (!out.length || v > out[out.length - 1]) out.push(v);
  }
  return out;
}

/** The error axis's ticks: every other decade, 1, 0.01, then powers of ten (10⁻⁴). */
const ERROR_TICKS = [1e-10, 1e-8, 1e-6, 1e-4, 1e-2, 1];
const errorTick = (v) => (v == null ? '' : v >= 0.01 ? String(v) : powerOfTen(Math.round(Math.log10(v))));

/** The lesson's geometric key step: ×1.25 (Shift: ×2), at least one whole position. */
function geometricKeyStep(value, direction, big) {
  const k = big ? 2 : 1.25;
  return direction > 0 ? Math.max(value + 1, Math.round(value * k)) : Math.min(value - 1, Math.round(value / k));
}

function precisionText(state, pairs, positions, errors, marked) {
  const n = positions.length;
  const last = n - 1;
  const error = (v) => (v === 0 ? '0' : sciUnicode(v, 1));
  const item = (p, v) => t('pair {pair} {error}', { pair: p, error: error(v) });
  const ends = pairs.map((p, r) => errors.rotationError.data[r * n + last]);
  const params = {
    max: grouped(state.max),
    d: grouped(state.d),
    base: significant(state.base),
    summary: listed(pairs.map((p, r) => item(p, ends[r]))),
    position: grouped(state.position),
    marked: listed(pairs.map((p, r) => item(p, marked.rotationError.data[r]))),
    worst: grouped(pairs[ends.indexOf(Math.max(...ends))]),
  };
  const fastestFirst = ends.every((v, r) => r === 0 || v <= ends[r - 1]);
  return fastestFirst
    ? t(
        'At position {max} (d {d}, base {base}) the float32 rotation is off by: {summary}. The fastest pairs drift first. At the marked position {position}: {marked}.',
        params,
      )
    : t(
        'At position {max} (d {d}, base {base}) the float32 rotation is off by: {summary}. Here the error does not fall from pair to pair: pair {worst} drifts most. At the marked position {position}: {marked}.',
        params,
      );
}

function precision(root, engine, sizes) {
  const state = { max: 1048576, d: 128, base: 10000, pairs: [1, 16, 32, 63], position: 65536 };
  const { input, boxes, description } = frame(
    root,
    { label: t('position read'), min: 1, max: state.max, step: 1, value: state.position },
    1,
  );
  const positions = Float64Array.from(logSpacedWholes(state.max, PRECISION_SAMPLES));
  const errors = engine.float32AngleErrors(positions, state.pairs, state.d, state.base);
  const n = positions.length;
  const rows = state.pairs.map((_, r) =>
    Array.from(errors.rotationError.data.subarray(r * n, (r + 1) * n), (v) => Math.max(v, FLOOR)),
  );
  const legend = state.pairs.map((p, r) => ({
    label: t('pair {pair} (θ={theta})', { pair: p, theta: trueMinus(formatG2(errors.theta[r])) }),
    color: COLORS.cycle[r],
  }));
  let marked = null;
  const chart = new uPlot(
    {
      ...base(...sizes[0], t('float32 loses the fast pairs at long positions'), 4),
      scales: {
        x: { time: false, distr: 3, log: 10, range: () => [1, state.max] },
        y: { distr: 3, log: 10, range: () => [FLOOR, 2] },
      },
      axes: [
        { label: t('position m') },
        {
          label: t('float32 rotation error'),
          size: 60,
          splits: () => ERROR_TICKS,
          filter: (u, splits) => splits,
          values: (u, splits) => splits.map(errorTick),
        },
      ],
      series: [{}, ...state.pairs.map((_, r) => ({ stroke: COLORS.cycle[r], width: 1.5, points: { show: false } }))],
      hooks: {
        draw: [
          (u) => {
            const { ctx } = u;
            const r = uPlot.pxRatio;
            const x = u.valToPos(state.position, 'x', true);
            ctx.save();
            ctx.strokeStyle = COLORS.fg;
            ctx.lineWidth = 1.5 * r;
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            state.pairs.forEach((_, k) => {
              ctx.strokeStyle = COLORS.cycle[k];
              ctx.beginPath();
              ctx.arc(x, u.valToPos(Math.max(marked.rotationError.data[k], FLOOR), 'y', true), 4 * r, 0, 2 * Math.PI);
              ctx.stroke();
            });
            ctx.restore();
            drawLegend(u, legend);
          },
        ],
      },
    },
    [positions, ...rows],
    boxes[0],
  );
  function update() {
    marked = engine.float32AngleErrors([state.position], state.pairs, state.d, state.base);
    chart.redraw(false, false);
    setText(description, precisionText(state, state.pairs, positions, errors, marked));
    setAttribute(input, 'aria-valuetext', t('position {position}', { position: grouped(state.position) }));
  }
  // The range steps as the lesson's handle does (×1.25 a press), not by its linear step.
  input.addEventListener('keydown', (event) => {
    const direction = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[event.key];
    if (!direction) return;
    event.preventDefault();
    const next = Math.min(state.max, Math.max(1, geometricKeyStep(state.position, direction, event.shiftKey)));
    input.value = String(next);
    input.dispatchEvent(new Event('input'));
  });
  input.addEventListener('input', () => {
    state.position = Number(input.value);
    update();
  });
  update();
}

// ---------------------------------------------------------------------------------------------
// The sinusoidal heatmap: the table's rows painted once into a cached image, drawn under uPlot's
// axes; the marked row's code as a line chart; the handle is the position read.

function heatmapText(state, code) {
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
  return tn(
    'Sinusoidal codes for {count} position and {d} dimensions with base {base}: the first columns flip colour every few positions (pair 0 repeats every {fastest} positions), the last pair repeats only every {slowest} positions. Position {position} reads {first} in dimension 0 and {last} in dimension {lastDim}.',
    'Sinusoidal codes for {count} positions and {d} dimensions with base {base}: the first columns flip colour every few positions (pair 0 repeats every {fastest} positions), the last pair repeats only every {slowest} positions. Position {position} reads {first} in dimension 0 and {last} in dimension {lastDim}.',
    state.n,
    params,
  );
}

/** The rows of the table one device pixel each, painted once into an offscreen canvas (the cached ImageData). */
function heatmapImage(engine, state, w, h) {
  const positions = new Float64Array(h);
  for (let y = 0; y < h; y++) positions[y] = Math.floor(((y + 0.5) * state.n) / h);
  const { cols, data } = engine.sinusoidalEncodingRows(positions, state.d, state.base);
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(w, h);
  const pixels = new Uint32Array(image.data.buffer);
  const half = (rdbu.size - 1) / 2;
  for (let y = 0, p = 0; y < h; y++)
    for (let x = 0; x < w; x++, p++)
      pixels[p] = rdbu.packed[((data[y * cols + Math.floor(((x + 0.5) * cols) / w)] + 1) * half + 0.5) | 0];
  ctx.putImageData(image, 0, 0);
  return canvas;
}

/** The colour bar, painted once. */
function colorBar(h) {
  const canvas = document.createElement('canvas');
  canvas.width = 1;
  canvas.height = h;
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(1, h);
  const pixels = new Uint32Array(image.data.buffer);
  for (let y = 0; y < h; y++) pixels[y] = rdbu.packed[Math.round((1 - y / Math.max(1, h - 1)) * (rdbu.size - 1))];
  ctx.putImageData(image, 0, 0);
  return canvas;
}

function sinusoidalHeatmap(root, engine, sizes) {
  const state = { n: 200, d: 64, base: 10000, position: 40 };
  const { input, boxes, description } = frame(
    root,
    { label: t('position read (row marker)'), min: 0, max: state.n - 1, step: 1, value: state.position },
    2,
  );
  let image = null;
  let bar = null;
  const heat = new uPlot(
    {
      ...base(...sizes[0], t('Sinusoidal position codes')),
      padding: [8, 74, 0, 0],
      scales: {
        x: { time: false, range: () => [0, state.d] },
        y: { dir: -1, range: () => [0, state.n] },
      },
      axes: [
        { label: t('dimension (left: fast hands, right: slow hands)'), grid: { show: false } },
        { label: t('position'), grid: { show: false } },
      ],
      series: [{}, { show: false }],
      hooks: {
        draw: [
          (u) => {
            const { ctx, bbox } = u;
            const r = uPlot.pxRatio;
            // Painted once for the plot's size in device pixels, then only drawn.
            const w = Math.min(state.d, Math.round(bbox.width));
            const h = Math.min(state.n, Math.round(bbox.height));
            if (!image || image.width !== w || image.height !== h) image = heatmapImage(engine, state, w, h);
            if (!bar || bar.height !== Math.round(bbox.height)) bar = colorBar(Math.round(bbox.height));
            ctx.save();
            ctx.imageSmoothingEnabled = false;
            ctx.drawImage(image, bbox.left, bbox.top, bbox.width, bbox.height);
            ctx.drawImage(bar, bbox.left + bbox.width + 12 * r, bbox.top, 14 * r, bbox.height);
            const y = u.valToPos(state.position + 0.5, 'y', true);
            for (const [color, width] of [
              [COLORS.bg, 4],
              [COLORS.fg, 1.5],
            ]) {
              ctx.strokeStyle = color;
              ctx.lineWidth = width * r;
              ctx.beginPath();
              ctx.moveTo(bbox.left, y);
              ctx.lineTo(bbox.left + bbox.width, y);
              ctx.stroke();
            }
            ctx.restore();
          },
        ],
      },
    },
    [
      [0, state.d],
      [null, null],
    ],
    boxes[0],
  );
  const dims = Float64Array.from({ length: state.d / 2 }, (_, i) => 2 * i);
  const code = new uPlot(
    {
      ...base(...sizes[1], ''),
      scales: {
        x: { time: false, range: () => [-0.5, state.d - 0.5] },
        y: { range: () => [-1.15, 1.15] },
      },
      axes: [{ label: t('dimension') }, { label: t('value'), splits: () => [-1, 0, 1] }],
      series: [
        {},
        { stroke: COLORS.fg, width: 1.2, points: { show: true, size: 5, fill: COLORS.blue } },
        { stroke: COLORS.fg, width: 1.2, dash: [5, 3], points: { show: true, size: 5, fill: COLORS.red } },
      ],
      hooks: {
        draw: [
          (u) => {
            const { ctx } = u;
            const r = uPlot.pxRatio;
            ctx.save();
            ctx.fillStyle = COLORS.fg;
            ctx.font = `${12 * r}px sans-serif`;
            ctx.textAlign = 'left';
            ctx.textBaseline = 'top';
            ctx.fillText(
              t('Position {position}: sin (solid) and cos (dashed) of each pair', {
                position: grouped(state.position),
              }),
              u.bbox.left,
              4 * r,
            );
            ctx.restore();
          },
        ],
      },
    },
    [dims, [], []],
    boxes[1],
  );
  function update() {
    const values = engine.sinusoidalEncodingRows([state.position], state.d, state.base).data.slice();
    const sin = new Float64Array(state.d / 2);
    const cos = new Float64Array(state.d / 2);
    for (let i = 0; i < state.d / 2; i++) [sin[i], cos[i]] = [values[2 * i], values[2 * i + 1]];
    // The cos entries sit at the odd dimensions: uPlot's x is shared, so each pair's sin and cos at
    // its even dimension's place, half a column apart in the lesson, are a column apart here.
    code.setData([dims, sin, cos]);
    heat.redraw(false, false);
    setText(description, heatmapText(state, values));
    setAttribute(input, 'aria-valuetext', t('position {position}', { position: grouped(state.position) }));
  }
  input.addEventListener('input', () => {
    state.position = Number(input.value);
    update();
  });
  update();
}

// ---------------------------------------------------------------------------------------------
// RoPE pair angles: each picked pair's angle (mod 2π) over positions 0–199; the handle is the
// position read.

const PAIR_POSITIONS = 200;

function pairTurn(pair, theta) {
  const params = {
    pair,
    theta: twoSignificant(theta),
    period: decimal((2 * Math.PI) / theta, 1, 1),
    n: PAIR_POSITIONS,
  };
  return theta * PAIR_POSITIONS > 2 * Math.PI
    ? t('pair {pair} turns {theta} rad per position, a full turn every {period} positions', params)
    : t('pair {pair} turns {theta} rad per position, less than a full turn over {n} positions', params);
}

function ropeFrequencies(root, engine, sizes) {
  const state = { d: 64, base: 10000, pairs: [0, 4, 12, 31], position: 100 };
  const { input, boxes, description } = frame(
    root,
    { label: t('position read'), min: 0, max: PAIR_POSITIONS - 1, step: 1, value: state.position },
    1,
  );
  const N = PAIR_POSITIONS;
  const positions = Float64Array.from({ length: N }, (_, i) => i);
  const theta = engine.ropeFrequencies(state.d, state.base);
  const angles = engine.ropePairAngles(positions, state.pairs, state.d, state.base, true).data.slice();
  const rows = state.pairs.map((_, r) => angles.subarray(r * N, (r + 1) * N));
  const legend = state.pairs.map((p, r) => ({
    label: t('pair {pair} (θ={theta})', { pair: p, theta: twoSignificant(theta[p]) }),
    color: COLORS.cycle[r],
  }));
  const turns = state.pairs
    .map((p) => pairTurn(p, theta[p]))
    .reduce((list, item) => t('{list}; {item}', { list, item }));
  const chart = new uPlot(
    {
      ...base(...sizes[0], t('RoPE: fast hands for local order, slow hands for long range'), legend.length),
      scales: {
        x: { time: false, range: () => [-10, N + 9] },
        y: { range: () => [-0.32, 2 * Math.PI + 0.32] },
      },
      axes: [
        { label: t('position'), splits: () => [0, 25, 50, 75, 100, 125, 150, 175, 200] },
        { label: t('rotation angle (mod 2π)'), splits: () => [0, 1, 2, 3, 4, 5, 6] },
      ],
      series: [{}, ...state.pairs.map((_, r) => ({ stroke: COLORS.cycle[r], width: 1.5, points: { show: false } }))],
      hooks: {
        draw: [
          (u) => {
            const { ctx } = u;
            const r = uPlot.pxRatio;
            const x = u.valToPos(state.position, 'x', true);
            ctx.save();
            ctx.strokeStyle = COLORS.fg;
            ctx.lineWidth = 1.5 * r;
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            rows.forEach((row, k) => {
              ctx.strokeStyle = COLORS.cycle[k];
              ctx.beginPath();
              ctx.arc(x, u.valToPos(row[state.position], 'y', true), 4 * r, 0, 2 * Math.PI);
              ctx.stroke();
            });
            ctx.restore();
            drawLegend(u, legend);
          },
        ],
      },
    },
    [positions, ...rows],
    boxes[0],
  );
  function update() {
    chart.redraw(false, false);
    setText(
      description,
      t('Angles of pairs {pairs} for d {d}, base {base}: {turns}. At the marked position {position}: {angles}.', {
        pairs: listed(state.pairs),
        d: grouped(state.d),
        base: significant(state.base),
        turns,
        position: grouped(state.position),
        angles: listed(
          state.pairs.map((p, r) =>
            t('pair {pair} at {angle} rad', { pair: p, angle: decimal(rows[r][state.position], 2, 2) }),
          ),
        ),
      }),
    );
    setAttribute(input, 'aria-valuetext', t('position {position}', { position: grouped(state.position) }));
  }
  input.addEventListener('input', () => {
    state.position = Number(input.value);
    update();
  });
  update();
}

const TWINS = {
  'context-extension': contextExtension,
  precision,
  'rope-frequencies': ropeFrequencies,
  'sinusoidal-heatmap': sinusoidalHeatmap,
};

const engine = await createEngine();
for (const root of document.querySelectorAll('[data-twin]')) {
  TWINS[root.dataset.twin](root, engine, JSON.parse(root.dataset.sizes));
  root.dataset.twinReady = '';
}
