// "Read your model's card": a pasted config.json (or a preset) read by the engine's reader, which says
// what position scheme the model uses, how long it was trained, how far its config stretches that and
// by which method; and, per RoPE pair, each wavelength before and after that scaling, with the pairs a
// prompt of the chosen length turns past the angles training showed in red.

import { grouped } from '../format.js';
import {
  clip,
  errorHeading,
  errorSummary,
  formatPairValue,
  modelCardSummary,
  noLengthMessage,
  pairRanges,
  shortDescription,
  summaryHeading,
  tokens,
} from './model-card-text.js';
import { buttonControl, numberControl, selectControl } from '../chart-kit/controls.js';
import { FONT, createPlotCanvas } from '../chart-kit/canvas.js';
import { drawAxes, drawLegend, drawLine, plotFrame } from '../chart-kit/plot.js';
import { linearScale, logScale, logTicks, niceTicks } from '../chart-kit/scales.js';
import { createChartShell } from '../chart-kit/shell.js';
import { declaredDefaults } from '../chart-kit/chart-controls.js';
import { readUrlParams, writeUrlState } from '../chart-kit/url-state.js';
import { CHART_DECLARATIONS, MAX_PROMPT } from './declarations.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
export const { controls: CONTROLS, aliases: URL_ALIASES } = CHART_DECLARATIONS['model-card'];
const DEFAULTS = declaredDefaults(CONTROLS);
const DEBOUNCE_MS = 300;
const CUSTOM = 'custom';
const MAX_ERROR_TEXT = 400;

let uid = 0;

/** A length or count as the lesson prints it: "131,072". */
const count = (n) => grouped(n);

export { formatPairValue, modelCardSummary, pairRanges };

/** Draws a centred, muted message (the empty and error states, and schemes with nothing to plot). */
function drawMessage(ctx, width, height, colors, text) {
  ctx.save();
  ctx.fillStyle = colors.muted;
  ctx.font = `13px ${FONT}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  // Wrapped onto as many lines as the width needs, rather than squeezed onto one.
  const lines = [];
  for (const word of text.split(' ')) {
    const last = lines.length ? `${lines[lines.length - 1]} ${word}` : word;
    if (lines.length && ctx.measureText(last).width <= width - 24) lines[lines.length - 1] = last;
    else lines.push(word);
  }
  const lineHeight = 18;
  lines.forEach((line, k) =>
    ctx.fillText(line, width / 2, height / 2 + (k - (lines.length - 1) / 2) * lineHeight, width - 24),
  );
  ctx.restore();
}

const LEGEND_ROW = 16; // drawLegend's row height

/** Bottom margin for a plot whose legend of `rows` items sits under the x-axis label (narrow canvases). */
const bottomWithLegend = (rows) => 46 + rows * LEGEND_ROW + 14;

/** Draws the legend under the frame's x-axis label instead of over the data. */
function drawLegendBelow(ctx, frame, colors, items) {
  drawLegend(
    ctx,
    { x: frame.x - 6, y: frame.y + frame.h + 40, w: frame.w, h: items.length * LEGEND_ROW + 8 },
    colors,
    items,
    'tl',
  );
}

/** Per pair: wavelength before (grey) and after (blue / red) scaling against the trained and prompt lengths. */
function drawPairs(ctx, width, height, colors, r) {
  const narrow = width < 480;
  const legend = [
    { label: 'before scaling', color: colors.grey, dash: [4, 3] },
    { label: 'after scaling, within training', fill: colors.blue },
    { label: 'after scaling, beyond training', fill: colors.red },
  ];
  const frame = plotFrame(width, height, {
    left: 68,
    right: 14,
    bottom: narrow ? bottomWithLegend(legend.length) : 46,
  });
  const pairs = r.wavelengths.length;
  const L = r.trainedLength;
  const n = r.promptLength;
  let lo = Math.min(L, n);
  let hi = Math.max(L, n);
  for (const arr of [r.wavelengths, r.baseWavelengths]) {
    for (const v of arr) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  lo /= 2;
  hi *= 3;
  const x = linearScale(-0.5, pairs - 0.5, frame.x, frame.x + frame.w);
  const y = logScale(lo, hi, frame.y + frame.h, frame.y);
  const band = frame.w / pairs;
  ctx.save();
  ctx.fillStyle = colors.red;
  ctx.globalAlpha = 0.12;
  for (let i = 0; i < pairs; i++) if (r.beyond[i]) ctx.fillRect(x(i) - band / 2, frame.y, band, frame.h);
  ctx.restore();
  drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, pairs - 1, narrow ? 4 : 8).filter((v) => Number.isInteger(v)),
    yTicks: logTicks(lo, hi),
    xLabel: 'pair i (0 turns fastest)',
    yLabel: 'wavelength 2π/θᵢ (tokens)',
    title: narrow ? 'Wavelength per pair' : 'Each pair’s wavelength before and after the config’s scaling',
  });
  const xs = Array.from({ length: pairs }, (_, i) => i);
  // The trained and prompt lengths as horizontal lines, labelled above (or, when close, below) the line.
  const lines = [
    { value: L, label: `trained ${count(L)}`, color: colors.fg, dash: [6, 4] },
    { value: n, label: `prompt ${count(n)}`, color: colors.muted, dash: [2, 3] },
  ];
  const close = Math.abs(y(L) - y(n)) < 14;
  if (L === n) lines.splice(0, 2, { value: L, label: `trained = prompt ${count(L)}`, color: colors.fg, dash: [6, 4] });
  lines.forEach((line, k) => {
    drawLine(ctx, frame, x, y, [-0.5, pairs - 0.5], [line.value, line.value], {
      color: line.color,
      width: 1.2,
      dash: line.dash,
    });
    ctx.save();
    ctx.fillStyle = line.color;
    ctx.font = `11px ${FONT}`;
    ctx.textAlign = 'left';
    const below = close && k === (y(L) > y(n) ? 0 : 1);
    ctx.textBaseline = below ? 'top' : 'bottom';
    ctx.fillText(line.label, frame.x + 4, y(line.value) + (below ? 3 : -3));
    ctx.restore();
  });
  drawLine(ctx, frame, x, y, xs, r.baseWavelengths, { color: colors.grey, width: 1.5, dash: [4, 3] });
  drawLine(ctx, frame, x, y, xs, r.wavelengths, { color: colors.muted, width: 1 });
  const radius = band >= 6 ? 3 : 2.2;
  for (let i = 0; i < pairs; i++) {
    ctx.beginPath();
    ctx.fillStyle = r.beyond[i] ? colors.red : colors.blue;
    ctx.arc(x(i), y(r.wavelengths[i]), radius, 0, 2 * Math.PI);
    ctx.fill();
  }
  if (narrow) drawLegendBelow(ctx, frame, colors, legend);
  else drawLegend(ctx, frame, colors, legend, 'br');
}

/** Schemes without rotary pairs: the trained positions against the prompt's, past-the-end in red. */
function drawPositions(ctx, width, height, colors, r) {
  const L = r.trainedLength;
  const n = r.promptLength;
  if (!(L > 0)) {
    drawMessage(ctx, width, height, colors, noLengthMessage(r));
    return;
  }
  const legend = [{ label: 'prompt within', fill: colors.blue }];
  if (n > L)
    legend.push({ label: r.scheme === 'learned' ? 'past the table' : 'past the trained length', fill: colors.red });
  const frame = plotFrame(width, height, { left: 70, right: 18, bottom: bottomWithLegend(legend.length) });
  const x = linearScale(0, Math.max(L, n) * 1.06, frame.x, frame.x + frame.w);
  const rowH = Math.min(36, frame.h / 4);
  const rows = [
    { label: r.scheme === 'learned' ? 'table rows' : 'trained', top: frame.y + frame.h * 0.3 - rowH / 2 },
    { label: 'prompt', top: frame.y + frame.h * 0.7 - rowH / 2 },
  ];
  drawAxes(ctx, frame, colors, {
    x,
    y: linearScale(0, 1, frame.y + frame.h, frame.y),
    xTicks: niceTicks(0, Math.max(L, n) * 1.06, width < 480 ? 3 : 6),
    yTicks: [],
    xLabel: 'position (tokens)',
    title:
      width < 480
        ? 'Trained positions vs prompt'
        : r.scheme === 'learned'
          ? 'The table’s rows against your prompt'
          : 'Trained positions against your prompt',
  });
  const px = (v) => Math.max(1.5, x(v) - x(0));
  ctx.save();
  ctx.fillStyle = colors.grey;
  ctx.fillRect(x(0), rows[0].top, px(L), rowH);
  ctx.fillStyle = colors.blue;
  ctx.fillRect(x(0), rows[1].top, px(Math.min(n, L)), rowH);
  if (n > L) {
    ctx.fillStyle = colors.red;
    ctx.fillRect(x(L), rows[1].top, px(n - L), rowH);
  }
  ctx.fillStyle = colors.fg;
  ctx.font = `12px ${FONT}`;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const row of rows) ctx.fillText(row.label, frame.x - 6, row.top + rowH / 2);
  ctx.restore();
  drawLine(ctx, frame, x, linearScale(0, 1, frame.y + frame.h, frame.y), [L, L], [0, 1], {
    color: colors.fg,
    width: 1.2,
    dash: [6, 4],
  });
  ctx.save();
  ctx.fillStyle = colors.fg;
  ctx.font = `11px ${FONT}`;
  ctx.textBaseline = 'top';
  const label = `${r.scheme === 'learned' ? 'table ends at' : 'trained'} ${count(L)}`;
  const right = x(L) + 4 + ctx.measureText(label).width > frame.x + frame.w;
  ctx.textAlign = right ? 'right' : 'left';
  ctx.fillText(label, x(L) + (right ? -4 : 4), frame.y + 4);
  ctx.restore();
  drawLegendBelow(ctx, frame, colors, legend);
}

/** The "Read your model's card" widget in `slot`, analysed by `engine.readModelConfig`. */
export function createModelCardChart(slot, engine) {
  const fromUrl = readUrlParams('model-card', DEFAULTS, URL_ALIASES);
  const state = { preset: fromUrl.preset ?? DEFAULTS.preset, prompt: DEFAULTS.prompt };
  let presets = null;
  let report = null;
  let reportName = '';
  let timer = 0;
  let batching = false;
  let analyses = 0;
  let destroyed = false;

  const shell = createChartShell(slot, 'model-card', {
    exports: {
      getCanvases: () => [plot.canvas],
      getCsv: () => csvTable(),
    },
  });
  shell.root.classList.add('model-card');
  shell.root.dataset.cardState = 'loading';

  const presetControl = selectControl({
    name: 'preset',
    label: 'model (preset)',
    value: CUSTOM,
    options: [{ value: CUSTOM, label: 'Loading presets…' }],
    onChange: (value) => choosePreset(value),
  });
  const { kind: _number, ...promptRules } = CONTROLS.prompt;
  const promptControl = numberControl({
    ...promptRules,
    name: 'prompt',
    value: fromUrl.prompt ?? DEFAULTS.prompt,
    fallback: DEFAULTS.prompt,
    onChange: (value) => {
      state.prompt = value;
      analyse();
    },
  });
  state.prompt = promptControl.get();
  const analyseButton = buttonControl({ name: 'analyse', label: 'Analyse', onClick: () => analyse() });

  // The config text: a labelled textarea, with the reader's error beside it (text only).
  const configField = document.createElement('div');
  configField.className = 'chart-field model-card-config';
  const textarea = document.createElement('textarea');
  textarea.id = `model-card-config-${++uid}`;
  textarea.name = 'config';
  textarea.rows = 10;
  textarea.spellcheck = false;
  textarea.autocomplete = 'off';
  textarea.dataset.control = 'config';
  const configLabel = document.createElement('label');
  configLabel.htmlFor = textarea.id;
  configLabel.textContent = 'config.json (paste your model’s, or edit the preset’s)';
  const error = document.createElement('p');
  error.className = 'model-card-error';
  error.id = `${textarea.id}-error`;
  error.setAttribute('role', 'alert');
  textarea.setAttribute('aria-describedby', error.id);
  configField.append(configLabel, textarea, error);
  textarea.addEventListener('input', () => {
    state.preset = CUSTOM;
    presetControl.input.value = CUSTOM;
    clearTimeout(timer);
    timer = setTimeout(analyse, DEBOUNCE_MS);
  });
  shell.controls.append(presetControl.element, promptControl.element, analyseButton.element, configField);

  const summary = document.createElement('div');
  summary.className = 'model-card-summary';
  const heading = document.createElement('p');
  heading.className = 'model-card-heading';
  const list = document.createElement('ul');
  summary.append(heading, list);
  shell.root.insertBefore(summary, shell.plot);

  const plot = createPlotCanvas(shell.plot, {
    label: 'Chart of the model’s position scheme',
    aspect: (width) => {
      if (report && report.scheme !== 'rope' && !(report.trainedLength > 0)) return width < 480 ? 0.4 : 0.14; // one message
      return report && report.scheme !== 'rope' ? (width < 480 ? 0.8 : 0.36) : width < 480 ? 1.15 : 0.5;
    },
    draw(ctx, width, height, colors) {
      if (!report)
        drawMessage(
          ctx,
          width,
          height,
          colors,
          presets || analyses ? 'Nothing to draw until the config reads cleanly.' : 'Loading…',
        );
      else if (report.scheme === 'rope') drawPairs(ctx, width, height, colors, report);
      else drawPositions(ctx, width, height, colors, report);
    },
  });

  function pairRows() {
    return Array.from(report.wavelengths, (_, i) => [
      i,
      report.baseInvFreq[i],
      report.invFreq[i],
      report.baseWavelengths[i],
      report.wavelengths[i],
      report.beyond[i] ? 'yes' : 'no',
    ]);
  }
  const PAIR_COLUMNS = [
    'pair i',
    'θᵢ before (rad/token)',
    'θᵢ after',
    'wavelength before (tokens)',
    'wavelength after',
    'beyond training',
  ];
  function lengthRows() {
    return [
      ['trained length', report.trainedLength],
      ['advertised length', report.advertisedLength],
      ['prompt length', report.promptLength],
    ];
  }
  function csvTable() {
    if (!report) return { header: ['quantity', 'value'], rows: [] };
    if (report.scheme === 'rope') return { header: PAIR_COLUMNS, rows: pairRows() };
    return { header: ['quantity', 'value'], rows: lengthRows() };
  }

  function showError(err) {
    const message = clip(String(err?.message ?? err), MAX_ERROR_TEXT);
    error.textContent = `This config could not be read: ${message}`;
    textarea.setAttribute('aria-invalid', 'true');
    report = null;
    heading.textContent = errorHeading();
    list.replaceChildren();
    plot.canvas.setAttribute('aria-label', 'Empty chart: the config could not be read');
    plot.redraw();
    shell.describe(errorSummary());
    shell.setData({ caption: 'No data: the config could not be read', columns: ['quantity', 'value'], rows: [] });
    shell.root.dataset.cardState = 'error';
  }

  /** Reads the textarea at the current prompt length and redraws everything. */
  function analyse() {
    clearTimeout(timer);
    timer = 0;
    if (batching || destroyed) return;
    analyses++;
    shell.root.dataset.analyses = String(analyses);
    writeUrlState(
      'model-card',
      { preset: state.preset === CUSTOM ? undefined : state.preset, prompt: state.prompt },
      DEFAULTS,
      URL_ALIASES,
    );
    let r;
    try {
      r = engine.readModelConfig(textarea.value, state.prompt);
    } catch (err) {
      showError(err);
      return;
    }
    report = r;
    const preset = presets?.find((p) => p.id === state.preset);
    reportName = preset ? preset.label : 'Your config';
    error.textContent = '';
    textarea.removeAttribute('aria-invalid');
    heading.textContent = summaryHeading(reportName, r);
    list.replaceChildren(
      ...modelCardSummary(r).map(({ term, text }) => {
        const li = document.createElement('li');
        const strong = document.createElement('strong');
        strong.textContent = `${term}: `;
        li.append(strong, document.createTextNode(text));
        return li;
      }),
    );
    plot.canvas.setAttribute(
      'aria-label',
      r.scheme === 'rope'
        ? 'Chart, log scale: wavelength 2π/θ of each RoPE pair before and after the config’s scaling, against the trained and prompt lengths; pairs beyond training in red'
        : 'Chart: the positions the model was trained on against the prompt’s positions; positions past the trained length in red',
    );
    plot.redraw();
    shell.describe(shortDescription(r, reportName));
    shell.setData(
      r.scheme === 'rope'
        ? {
            caption: `${reportName}: each pair’s frequency and wavelength before and after scaling, for a prompt of ${tokens(r.promptLength)}`,
            columns: PAIR_COLUMNS,
            rows: pairRows().map((row) => [row[0], ...row.slice(1, 5).map(formatPairValue), row[5]]),
            limit: 4096,
          }
        : {
            caption: `${reportName}: lengths (tokens)`,
            columns: ['quantity', 'value'],
            rows: lengthRows().map(([k, v]) => [k, count(v)]),
          },
    );
    shell.root.dataset.cardState = 'ready';
  }

  function choosePreset(id) {
    const preset = presets?.find((p) => p.id === id);
    if (!preset) {
      // "Your pasted config" keeps whatever is in the box.
      state.preset = CUSTOM;
      presetControl.input.value = CUSTOM;
      analyse();
      return;
    }
    state.preset = id;
    presetControl.input.value = id;
    textarea.value = preset.text;
    analyse();
  }

  function fillPresets(list) {
    presets = list;
    const options = [
      ...list.map((p) => ({ value: p.id, label: p.label })),
      { value: CUSTOM, label: 'Your pasted config' },
    ];
    presetControl.input.replaceChildren(
      ...options.map((o) => {
        const option = document.createElement('option');
        option.value = o.value;
        option.textContent = o.label;
        return option;
      }),
    );
  }

  // Presets arrive as JSON modules when the widget mounts; pasting works before (and without) them.
  import('./model-presets.js').then(
    ({ MODEL_PRESETS }) => {
      if (destroyed) return;
      fillPresets(MODEL_PRESETS);
      const wanted =
        state.preset !== CUSTOM && MODEL_PRESETS.some((p) => p.id === state.preset) ? state.preset : DEFAULTS.preset;
      if (textarea.value.trim() === '') choosePreset(wanted);
      else presetControl.input.value = CUSTOM;
    },
    (err) => {
      if (destroyed) return;
      console.warn('The model presets could not be loaded:', err);
      presets = [];
      presetControl.input.replaceChildren(new Option('Presets unavailable: paste a config', CUSTOM));
      state.preset = CUSTOM;
      heading.textContent = 'Paste a config.json to read it.';
      plot.redraw();
    },
  );

  return {
    /** Applies { preset?, prompt?, text? } (text replaces the box, as a paste) and analyses once. */
    update(patch = {}) {
      batching = true;
      try {
        if (patch.prompt !== undefined) promptControl.set(patch.prompt);
        if (patch.text !== undefined) {
          textarea.value = String(patch.text);
          state.preset = CUSTOM;
          presetControl.input.value = CUSTOM;
        } else if (patch.preset !== undefined && presets?.some((p) => p.id === patch.preset)) {
          state.preset = patch.preset;
          presetControl.input.value = patch.preset;
          textarea.value = presets.find((p) => p.id === patch.preset).text;
        } else if (patch.preset !== undefined && !presets) {
          state.preset = String(patch.preset); // applied when the presets arrive
        }
      } finally {
        batching = false;
      }
      analyse();
    },
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      plot.destroy();
      shell.destroy();
    },
    get state() {
      return { ...state };
    },
    /** The last successful readModelConfig report (null after an error). */
    get values() {
      return report;
    },
  };
}
