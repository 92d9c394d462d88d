// "Read your model's card": a pasted config.json (or a preset) read by the engine's reader, which says
// what position scheme the model uses, how long it was trained, how far its config stretches that and
// by which method; and, per RoPE pair, each wavelength before and after that scaling, with the pairs a
// prompt of the chosen length turns past the angles training showed in red.

import { grouped, sciUnicode, trimmed } from '../format.js';
import { buttonControl, numberControl, selectControl } from '../chart-kit/controls.js';
import { FONT, createPlotCanvas } from '../chart-kit/canvas.js';
import { drawAxes, drawLegend, drawLine, plotFrame } from '../chart-kit/plot.js';
import { linearScale, logScale, logTicks, niceTicks } from '../chart-kit/scales.js';
import { createChartShell } from '../chart-kit/shell.js';
import { declaredDefaults } from '../chart-kit/chart-controls.js';
import { readUrlParams, writeUrlState } from '../chart-kit/url-state.js';

const MAX_PROMPT = 1073741824; // the reader's cap on any length (kMaxConfigPositions)

/** The chart's URL state, its ranges and defaults (URL parameters model-card.preset, .prompt; formerly card.*). */
export const CONTROLS = {
  // The options are the presets in model-presets.js, loaded on demand; an unknown id shows the pasted-config view.
  preset: { kind: 'select', label: 'model (preset)', value: 'llama-3.1-8b' },
  prompt: { kind: 'number', label: 'prompt length (tokens)', value: 32768, min: 1, max: MAX_PROMPT },
};
/** Earlier URL prefixes, still read so old links keep working. */
export const URL_ALIASES = ['card'];
const DEFAULTS = declaredDefaults(CONTROLS);
const DEBOUNCE_MS = 300;
const CUSTOM = 'custom';
const MAX_SHOWN_TEXT = 80; // longest model_type or message fragment echoed into the summary
const MAX_ERROR_TEXT = 400;

let uid = 0;

const clip = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A length or count as the lesson prints it: "131,072". */
const count = (n) => grouped(n);

/** A positive quantity with thousands separators when large, a few decimals when small. */
function quantity(x) {
  if (x >= 1000) return grouped(x);
  return trimmed(x, 2);
}

/** A per-pair number for the data table: 6 significant digits, separators, U+2212, ×10ⁿ when tiny. */
export function formatPairValue(v) {
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && Math.abs(v) < 1e-3) return sciUnicode(v, 5);
  return v.toLocaleString('en-US', { maximumSignificantDigits: 6 }).replace('-', '\u2212');
}

/** Pair indices where flags[i] is set, as ranges: "46–63" or "3, 7–9". */
export function pairRanges(flags) {
  const parts = [];
  for (let i = 0; i < flags.length; i++) {
    if (!flags[i]) continue;
    let j = i;
    while (j + 1 < flags.length && flags[j + 1]) j++;
    parts.push(i === j ? String(i) : `${i}–${j}`);
    i = j;
  }
  return parts.join(', ');
}

function ratio(a, b) {
  return trimmed(a / b, a / b >= 10 ? 0 : 1);
}

const METHODS = {
  linear: () => 'Position interpolation: every pair turns factor times slower, so the stretched positions map back into the trained range.',
  dynamic: (r) =>
    `Dynamic NTK: the base grows only once a prompt passes the trained length${
      r.dynamicBase > 0 ? `; at ${count(r.promptLength)} tokens it is ${quantity(r.dynamicBase)} instead of ${quantity(r.base)}` : ', so at this prompt length nothing changes'
    }.`,
  yarn: (r) => `YaRN: the fast pairs keep their speed, the slow pairs turn factor times slower, a ramp joins them, and cos and sin are multiplied by ${trimmed(r.attentionFactor, 3)}.`,
  longrope: (r) => `LongRoPE: one divisor per pair, from the ${r.longropeLongFactor ? 'long' : 'short'} list at this prompt length, and cos and sin are multiplied by ${trimmed(r.attentionFactor, 3)}.`,
  llama3: () => 'Llama 3’s recipe: the slow pairs turn factor times slower, the fast pairs keep their speed, and a ramp joins them.',
};

/**
 * The plain-words reading of a readModelConfig report, following the lesson's "How to choose" and
 * "What breaks": [{ term, text }] (scheme, lengths, stretch, the prompt, what to do, notes).
 */
export function modelCardSummary(r) {
  const type = r.modelType ? `model_type “${clip(r.modelType, MAX_SHOWN_TEXT)}”` : 'no model_type';
  const n = r.promptLength;
  const L = r.trainedLength;
  const A = r.advertisedLength;
  const items = [];
  const add = (term, text) => items.push({ term, text });

  if (r.scheme === 'learned') {
    add('Scheme', `a learned position table (${type}): one trained vector per position, ${count(A)} of them.`);
    add('Limit', `hard. There is no vector for position ${count(A)} or later, so a longer input fails or is truncated; no scaling setting changes that.`);
    if (n <= A) {
      add('Your prompt', `${count(n)} tokens fit in the table, with ${count(A - n)} positions to spare.`);
      add('What to do', `nothing for this length. Longer documents: chunk them to at most ${count(A)} tokens each.`);
    } else {
      add('Your prompt', `${count(n)} tokens is ${count(n - A)} more than the table has rows (${ratio(n, A)}× its length): the model cannot read it in one piece.`);
      add('What to do', `chunk the input to at most ${count(A)} tokens per piece (retrieve the chunks that matter), or choose a model with a longer window.`);
    }
  } else if (r.scheme === 'sinusoidal') {
    add('Scheme', `fixed sinusoidal codes (${type}): a code exists for every position, so there is no table to run out of.`);
    add('Trained length', `${count(L)} positions.`);
    if (n <= L) {
      add('Your prompt', `${count(n)} tokens is within the trained length.`);
      add('What to do', 'nothing for this length; evaluate at the length you will run.');
    } else {
      add('Your prompt', `${count(n)} tokens goes ${count(n - L)} past the positions the model saw in training: the codes exist, but the model never learned to read them.`);
      add('What to do', `chunk to ${count(L)} tokens, or test at ${count(n)} before relying on it.`);
    }
  } else if (r.scheme === 'alibi') {
    add('Scheme', `ALiBi (${type}): no position vectors; each score is lowered in proportion to the distance between the two tokens.`);
    if (L > 0) {
      add('Trained length', `${count(L)} tokens.`);
      add(
        'Your prompt',
        n <= L
          ? `${count(n)} tokens is within the trained length.`
          : `${count(n)} tokens is ${ratio(n, L)}× the trained length. ALiBi was designed to run past it, but its penalty favours nearby tokens, so distant text counts for little.`,
      );
    } else {
      add('Trained length', 'the config states none.');
      add('Your prompt', `${count(n)} tokens; with no trained length on the card, there is nothing to compare it with.`);
    }
    add('What to do', 'evaluate at the length you will run, with the answer placed at the start, the middle and the end of the prompt.');
  } else {
    const pairs = r.rotaryDim / 2;
    const stretched = A !== L && A > 0;
    add(
      'Scheme',
      `RoPE (${type}): ${count(pairs)} rotary pairs per head (rotary_dim ${count(r.rotaryDim)} of head_dim ${count(r.headDim)}), base rope_theta ${quantity(r.base)}.`,
    );
    add(
      'Lengths',
      stretched
        ? `trained ${count(L)} tokens (original_max_position_embeddings); advertised ${count(A)} (max_position_embeddings), ${ratio(A, L)}× longer.`
        : `trained and advertised ${count(L)} tokens (max_position_embeddings).`,
    );
    if (r.ropeType === 'default') {
      add('Stretch', stretched ? 'the config names no scaling method, yet advertises more than it was trained at: treat the advertised length as untested.' : 'none: no scaling entry, so the model runs at the frequencies it was trained with.');
    } else {
      const factor = trimmed(r.scalingFactor, 3);
      const method = METHODS[r.ropeType](r).replace('factor times', `${factor} times`);
      const mismatch = stretched && Math.abs(r.scalingFactor - A / L) > 1e-9 * (A / L) ? ` Note that the factor (${factor}) is not the ratio of the two lengths (${ratio(A, L)}).` : '';
      add(
        'Stretch',
        `rope_type ${r.ropeType} with factor ${factor}. ${method} An entry with a factor means the model was trained shorter and stretched, so test it at the lengths you will use rather than trusting the stretched number.${mismatch}`,
      );
    }
    const past = A > 0 && n > A ? ` It is also past the advertised ${count(A)}.` : '';
    if (r.beyondCount > 0) {
      add(
        'Your prompt',
        `${count(n)} tokens: ${count(r.beyondCount)} of ${count(pairs)} pairs (${pairRanges(r.beyond)}) need angles beyond what training showed. They are the slow pairs, which never completed a turn in ${count(L)} tokens.${past}`,
      );
      add(
        'What to do',
        r.ropeType === 'default'
          ? `do not raise the serving engine’s context limit on its own: past the trained angles RoPE degrades silently. Keep prompts within ${count(L)} tokens, or set a scaling (linear, dynamic or YaRN) and test before shipping; for long documents, interpolation or YaRN plus a short fine-tune on long text.`
          : `the config’s scaling does not keep these pairs inside the angles of the original ${count(L)}-token training. A long-context fine-tune after the stretch may have shown them to the model, which the config cannot say: evaluate at ${count(n)} tokens, with the answer at the start, the middle and the end, before relying on it.`,
      );
    } else if (n <= L) {
      add('Your prompt', `${count(n)} tokens is within the trained length: every pair’s angles are ones training showed.`);
      add('What to do', 'nothing for this length; evaluate at the length you will run anyway.');
    } else {
      add('Your prompt', `${count(n)} tokens is past the trained ${count(L)}, but with the config’s scaling no pair needs an angle beyond what training showed.${past}`);
      add(
        'What to do',
        A > 0 && n > A
          ? `the advertised length is ${count(A)}: a serving engine refuses longer prompts unless its limit is raised, and raising it alone is what breaks. Test at ${count(n)} before relying on it.`
          : `serve it with this scaling entry exactly as given (a dropped or mistyped entry makes it read positions it never learned), and test at ${count(n)} tokens rather than trusting the advertised ${count(A)}.`,
      );
    }
  }
  if (r.slidingWindow > 0) add('Window', `each token attends to at most the previous ${count(r.slidingWindow)} tokens (sliding_window).`);
  if (r.notes.length) add('Reader’s notes', `${r.notes.map((note) => clip(note, 2 * MAX_SHOWN_TEXT + 80)).join('; ')}.`);
  return items;
}

/** One line for screen readers: the scheme, the lengths and what the chart shows. */
function shortDescription(r, name) {
  const n = count(r.promptLength);
  if (r.scheme === 'rope') {
    return `${name}: RoPE, rope_type ${r.ropeType}, trained ${count(r.trainedLength)}, advertised ${count(r.advertisedLength)}. ` +
      `At ${n} tokens ${count(r.beyondCount)} of ${count(r.rotaryDim / 2)} pairs need angles beyond training` +
      `${r.beyondCount ? ` (pairs ${pairRanges(r.beyond)})` : ''}. Wavelengths after scaling run from ${quantity(r.wavelengths[0])} to ${quantity(r.wavelengths[r.wavelengths.length - 1])} tokens.`;
  }
  const limit = r.trainedLength > 0 ? `trained at ${count(r.trainedLength)} positions` : 'no trained length stated';
  return `${name}: ${r.scheme === 'learned' ? 'learned position table' : r.scheme}, ${limit}; a prompt of ${n} tokens ${
    r.trainedLength > 0 && r.promptLength > r.trainedLength ? `goes ${count(r.promptLength - r.trainedLength)} past it` : 'fits'
  }.`;
}

/** Draws a centred, muted message (the empty and error states, and schemes with nothing to plot). */
function drawMessage(ctx, width, height, colors, text) {
  ctx.save();
  ctx.fillStyle = colors.muted;
  ctx.font = `13px ${FONT}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, width / 2, height / 2, width - 24);
  ctx.restore();
}

const LEGEND_ROW = 16; // drawLegend's row height

/** Bottom margin for a plot whose legend of `rows` items sits under the x-axis label (narrow canvases). */
const bottomWithLegend = (rows) => 46 + rows * LEGEND_ROW + 14;

/** Draws the legend under the frame's x-axis label instead of over the data. */
function drawLegendBelow(ctx, frame, colors, items) {
  drawLegend(ctx, { x: frame.x - 6, y: frame.y + frame.h + 40, w: frame.w, h: items.length * LEGEND_ROW + 8 }, colors, items, 'tl');
}

/** Per pair: wavelength before (grey) and after (blue / red) scaling against the trained and prompt lengths. */
function drawPairs(ctx, width, height, colors, r) {
  const narrow = width < 480;
  const legend = [
    { label: 'before scaling', color: colors.grey, dash: [4, 3] },
    { label: 'after scaling, within training', fill: colors.blue },
    { label: 'after scaling, beyond training', fill: colors.red },
  ];
  const frame = plotFrame(width, height, { left: 68, right: 14, bottom: narrow ? bottomWithLegend(legend.length) : 46 });
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
    drawLine(ctx, frame, x, y, [-0.5, pairs - 0.5], [line.value, line.value], { color: line.color, width: 1.2, dash: line.dash });
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
    drawMessage(ctx, width, height, colors, 'The config states no trained length: nothing to compare the prompt with.');
    return;
  }
  const legend = [{ label: 'prompt within', fill: colors.blue }];
  if (n > L) legend.push({ label: r.scheme === 'learned' ? 'past the table' : 'past the trained length', fill: colors.red });
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
    title: width < 480 ? 'Trained positions vs prompt' : r.scheme === 'learned' ? 'The table’s rows against your prompt' : 'Trained positions against your prompt',
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
  drawLine(ctx, frame, x, linearScale(0, 1, frame.y + frame.h, frame.y), [L, L], [0, 1], { color: colors.fg, width: 1.2, dash: [6, 4] });
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
    aspect: (width) => (report && report.scheme !== 'rope' ? (width < 480 ? 0.8 : 0.36) : width < 480 ? 1.15 : 0.5),
    draw(ctx, width, height, colors) {
      if (!report) drawMessage(ctx, width, height, colors, presets || analyses ? 'Nothing to draw until the config reads cleanly.' : 'Loading…');
      else if (report.scheme === 'rope') drawPairs(ctx, width, height, colors, report);
      else drawPositions(ctx, width, height, colors, report);
    },
  });

  function pairRows() {
    return Array.from(report.wavelengths, (_, i) => [i, report.baseInvFreq[i], report.invFreq[i], report.baseWavelengths[i], report.wavelengths[i], report.beyond[i] ? 'yes' : 'no']);
  }
  const PAIR_COLUMNS = ['pair i', 'θᵢ before (rad/token)', 'θᵢ after', 'wavelength before (tokens)', 'wavelength after', 'beyond training'];
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
    heading.textContent = 'Nothing to report until the config reads cleanly; the message beside the text box says what to fix.';
    list.replaceChildren();
    plot.canvas.setAttribute('aria-label', 'Empty chart: the config could not be read');
    plot.redraw();
    shell.describe(`The config could not be read: ${message}`);
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
    writeUrlState('model-card', { preset: state.preset === CUSTOM ? undefined : state.preset, prompt: state.prompt }, DEFAULTS, URL_ALIASES);
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
    heading.textContent = `${reportName}, for a prompt of ${count(r.promptLength)} tokens:`;
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
            caption: `${reportName}: each pair’s frequency and wavelength before and after scaling, at ${count(r.promptLength)} tokens`,
            columns: PAIR_COLUMNS,
            rows: pairRows().map((row) => [row[0], ...row.slice(1, 5).map(formatPairValue), row[5]]),
            limit: 4096,
          }
        : { caption: `${reportName}: lengths (tokens)`, columns: ['quantity', 'value'], rows: lengthRows().map(([k, v]) => [k, count(v)]) },
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
    const options = [...list.map((p) => ({ value: p.id, label: p.label })), { value: CUSTOM, label: 'Your pasted config' }];
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
      const wanted = state.preset !== CUSTOM && MODEL_PRESETS.some((p) => p.id === state.preset) ? state.preset : DEFAULTS.preset;
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
