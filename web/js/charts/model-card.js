// "Read your model's card": a pasted config.json (or a preset) read by the engine's reader, which says
// what position scheme the model uses, how long it was trained, how far its config stretches that and
// by which method; and, per RoPE pair, each wavelength before and after that scaling, with the pairs a
// prompt of the chosen length turns past the angles training showed in red. The widget's logic is
// here; its own modules are in model-card/: its words model-card-text.js, its drawing model-card-draw.js,
// its presets model-presets.js, and a GGUF file's header (gguf-header.js) read as a config (gguf-config.js).

import { grouped } from '../locale/format.js';
import {
  clip,
  errorHeading,
  errorSummary,
  formatPairValue,
  modelCardSummary,
  pairRanges,
  shortDescription,
  summaryHeading,
  tokens,
} from './model-card/model-card-text.js';
import { cardAspect, drawCard, partAt, ropePanels } from './model-card/model-card-draw.js';
import { defineChart } from '../chart-kit/define-chart.js';
import { powersOfTwo } from '../chart-kit/scales.js';
import { drawKnobs } from '../chart-kit/handles.js';
import { geometricKeyStep } from '../chart-kit/number-rule.js';
import { MODEL_PRESETS } from './model-card/model-presets.js';
import { readGgufHeader, startsWithGgufMagic } from './model-card/gguf-header.js';
import { configFromGguf } from './model-card/gguf-config.js';
import { CHART_DECLARATIONS, chartDeclaration } from './declarations.js';
import { t } from '../locale/i18n.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
const { controls: CONTROLS } = CHART_DECLARATIONS['model-card'];
const DEBOUNCE_MS = 300;
const CUSTOM = 'custom';
const MAX_ERROR_TEXT = 400;

export { formatPairValue, modelCardSummary, pairRanges };

/**
 * The prompt length as a handle on the wavelength plot's (log) axis: its dashed line, dragged up or
 * down, lengthens or shortens the prompt, and the pairs it turns past training go red as it moves.
 * Arrows move it by a quarter (×1.25), Shift doubles or halves it. Only the RoPE plot has the axis.
 */
const PROMPT_HANDLE = {
  key: 'prompt',
  part: 'prompt',
  label: t('prompt length'),
  axis: 'y',
  scale: ({ layout }) => layout.pairs?.y ?? null,
  across: ({ layout: { pairs } }) => pairs.frame.x + pairs.frame.w - 12,
  near: ({ state, layout: { pairs } }, px, py) =>
    Boolean(pairs) &&
    px >= pairs.frame.x &&
    px <= pairs.frame.x + pairs.frame.w &&
    Math.abs(pairs.y(state.prompt) - py) <= 5,
  // Powers of two while dragging (32,768 is one of them; any other length is a typed value away).
  dragStops: () => powersOfTwo(CONTROLS.prompt.min, CONTROLS.prompt.max),
  keyStep: geometricKeyStep,
  valueText: (v) => t('prompt {prompt} tokens', { prompt: grouped(v) }),
};

/**
 * The widget's controls: the declared preset (its options the presets, and "your pasted config",
 * which a link never holds) and prompt length, and the config box (never in a link: a pasted file).
 */
/**
 * The longest config the box takes, in characters: the reader's own limit, 1 MiB of UTF-8
 * (kMaxConfigBytes, cpp/include/positional/model_config.hpp). Every character is at least one byte,
 * so the box refuses nothing the reader would read, and a 20 MB paste is refused by its length
 * before it is inserted, parsed or handed to the engine.
 */
export const MAX_CONFIG_CHARACTERS = 2 ** 20;

const WIDGET_CONTROLS = {
  preset: {
    ...CONTROLS.preset,
    options: [
      ...MODEL_PRESETS.map((p) => ({ value: p.id, label: p.label })),
      { value: CUSTOM, label: t('Your pasted config') },
    ],
    unlinked: [CUSTOM],
  },
  prompt: CONTROLS.prompt,
  config: {
    kind: 'textarea',
    label: t('config.json (paste your model’s, or edit the preset’s)'),
    value: '',
    rows: 10,
    debounce: DEBOUNCE_MS,
    className: 'model-card-config',
    url: false,
    maxCharacters: MAX_CONFIG_CHARACTERS,
    refusal: (length) =>
      t(
        'config.json must be at most {max} characters (the reader takes 1 MiB), got {length}: the text was not taken.',
        {
          max: grouped(MAX_CONFIG_CHARACTERS),
          length: grouped(length),
        },
      ),
  },
};

const presetOf = (id) => MODEL_PRESETS.find((p) => p.id === id);

/** The CSV's columns (machine-readable: English in every language). */
const PAIR_COLUMNS = [
  'pair i',
  'θᵢ before (rad/token)',
  'θᵢ after',
  'wavelength before (tokens)',
  'wavelength after',
  'beyond training',
];

/** The data table's columns, the CSV's in the page's language. */
const pairHeadings = () => [
  t('pair i'),
  t('θᵢ before (rad/token)'),
  t('θᵢ after'),
  t('wavelength before (tokens)'),
  t('wavelength after'),
  t('beyond training'),
];

/**
 * The model card on the chart skeleton. Its one part, the card, reads the config text and the
 * prompt length (engine.readModelConfig). Its drawn parts: 'trained' (the trained length),
 * 'prompt' (the prompt's length, also announced while the prompt field has focus) and 'beyond'
 * (the pairs or positions past what training showed).
 */
export const MODEL_CARD = defineChart(chartDeclaration('model-card'), {
  // Its title and older URL prefixes come from the declaration; the controls are the widget's own.
  controls: WIDGET_CONTROLS,
  order: ['preset', 'prompt', 'analyse', 'config'],
  parts: ['trained', 'prompt', 'beyond'],
  focusParts: { prompt: 'prompt' },
  handles: [PROMPT_HANDLE],
  buttons: [{ name: 'analyse', label: t('Analyse'), onClick: (state, controls) => controls.config.commit() }],
  /** A chosen preset fills the box; an edited box is "your pasted config"; an empty box at the start takes the preset. */
  reconcile(state, controls, patch) {
    if ('config' in patch) {
      if (state.preset !== CUSTOM && presetOf(state.preset)?.text !== state.config) {
        state.preset = CUSTOM;
        controls.preset.constrain(CUSTOM);
      }
      return;
    }
    if (!('preset' in patch) && state.config !== '') return;
    if (!presetOf(state.preset)) {
      if (state.config !== '') return; // "your pasted config" keeps whatever is in the box
      state.preset = CONTROLS.preset.value; // a link's "custom" with nothing pasted: the default preset
      controls.preset.constrain(state.preset);
    }
    state.config = presetOf(state.preset).text;
    controls.config.constrain(state.config);
  },
  compute: {
    card: {
      reads: ['config', 'prompt'],
      run(state, engine) {
        try {
          return { report: engine.readModelConfig(state.config, state.prompt), error: '' };
        } catch (error) {
          return { report: null, error: clip(String(error?.message ?? error), MAX_ERROR_TEXT) };
        }
      },
    },
  },
  canvases: [
    {
      label: t('Chart of the model’s position scheme'),
      aspect: (width, { data }) => cardAspect(width, data.card?.report ?? null),
      draw: (ctx, width, height, colors, view) => {
        drawCard(ctx, width, height, colors, {
          report: view.data.card?.report ?? null,
          message: t('Nothing to draw until the config reads cleanly.'),
          highlighted: view.highlighted,
          layout: view.layout,
        });
        if (view.layout.pairs) drawKnobs(ctx, colors, view, [PROMPT_HANDLE]);
      },
      hit: ({ data, layout }, px, py) => partAt(data.card?.report ?? null, layout, px, py),
    },
  ],
  // The reader's own message (English, as the engine's errors are) follows the page's sentence.
  notes: ({ data: { card } }) => ({
    config: card.error ? t('This config could not be read: {error}', { error: card.error }) : '',
  }),
  describe: ({ state, data: { card } }) =>
    card.report ? shortDescription(card.report, nameOf(state)) : errorSummary(),
  table({ state, data: { card } }) {
    const r = card.report;
    const columns = [t('quantity'), t('value')];
    if (!r) return { caption: t('No data: the config could not be read'), columns, rows: [] };
    const name = nameOf(state);
    const [yes, no] = [t('yes'), t('no')];
    const kinds = kindPairRows(r);
    if (kinds)
      return {
        caption: t(
          '{name}: each kind of layer’s turning pairs, their frequency and wavelength before and after scaling, for a prompt of {tokens}',
          { name, tokens: tokens(r.promptLength) },
        ),
        columns: [t('layers'), ...pairHeadings()],
        rows: kinds.map(([layers, ...row]) => [layers, ...shownPair(row, yes, no)]),
        limit: 4096,
      };
    return r.scheme === 'rope'
      ? {
          caption: t(
            '{name}: each pair’s frequency and wavelength before and after scaling, for a prompt of {tokens}',
            { name, tokens: tokens(r.promptLength) },
          ),
          columns: pairHeadings(),
          rows: pairRows(r).map((row) => shownPair(row, yes, no)),
          limit: 4096,
        }
      : {
          caption: t('{name}: lengths (tokens)', { name }),
          columns,
          rows: lengthRows(r, [t('trained length'), t('advertised length'), t('prompt length')]).map(([k, v]) => [
            k,
            grouped(v),
          ]),
        };
  },
  csv({ data: { card } }) {
    const r = card.report;
    if (!r) return { header: ['quantity', 'value'], rows: [] };
    const kinds = kindPairRows(r);
    if (kinds) return { header: ['layers', ...PAIR_COLUMNS], rows: kinds };
    if (r.scheme === 'rope') return { header: PAIR_COLUMNS, rows: pairRows(r) };
    return { header: ['quantity', 'value'], rows: lengthRows(r) };
  },
  /** The last successful readModelConfig report (null while the config does not read). */
  values: ({ data }) => data.card?.report ?? null,
  extend(chart, context) {
    addSummary(chart, context);
    addFileInput(chart, context);
    const { layout, data } = context;
    /** Where the plot draws the line of the 'trained' or 'prompt' length (RoPE schemes), in CSS pixels of the canvas (for tests). */
    chart.lineOf = (part) => {
      const { frame, y } = layout.pairs;
      const r = data.card.report;
      return { x: frame.x + frame.w / 2, y: y(part === 'prompt' ? r.promptLength : r.trainedLength) };
    };
  },
});

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createModelCardChart = MODEL_CARD.create;

/** The name the summary gives the model: the preset's label, or "Your config". */
const nameOf = (state) => presetOf(state.preset)?.label ?? t('Your config');

/** One pair's row (pairRows) as the data table shows it: the numbers formatted, beyond in words. */
const shownPair = ([pair, ...row], yes, no) => [
  pair,
  ...row.slice(0, 4).map(formatPairValue),
  row[4] === 'yes' ? yes : no,
];

/** Each pair's row: its index, frequency and wavelength before and after scaling, and whether it turns past training. */
const pairRows = (r) =>
  Array.from(r.wavelengths, (_, i) => [
    i,
    r.baseInvFreq[i],
    r.invFreq[i],
    r.baseWavelengths[i],
    r.wavelengths[i],
    r.beyond[i] ? 'yes' : 'no',
  ]);

/**
 * With several kinds of layer, each turning kind's pairs as the card draws them (its panel), each
 * row led by the kind's layer type; null when the card has one kind. Kinds without positions have
 * no pairs and no rows (the summary names them).
 */
const kindPairRows = (r) =>
  ropePanels(r)?.flatMap(({ kind, report, main }) => {
    const frequencies = main ? r : kind;
    return pairRows({ ...report, baseInvFreq: frequencies.baseInvFreq, invFreq: frequencies.invFreq }).map((row) => [
      kind.layerType,
      ...row,
    ]);
  }) ?? null;

/** The lengths as [name, value] rows; `names` in the CSV's words (English) unless given. */
const lengthRows = (r, names = ['trained length', 'advertised length', 'prompt length']) => [
  [names[0], r.trainedLength],
  [names[1], r.advertisedLength],
  [names[2], r.promptLength],
];

/**
 * The summary above the plot (a heading and the plain-words reading, as text), the canvas's name
 * for the scheme drawn, and the widget's state for tests and screenshots (data-card-state 'ready'
 * or 'error', data-analyses: how many readings so far), kept in step after every update.
 */
function addSummary(chart, { shell, canvases: [plot], afterUpdate, view }) {
  shell.root.classList.add('model-card');
  const summary = document.createElement('div');
  summary.className = 'model-card-summary';
  const heading = document.createElement('p');
  heading.className = 'model-card-heading';
  const list = document.createElement('ul');
  summary.append(heading, list);
  shell.root.insertBefore(summary, shell.plot);
  let shown = null;
  let shownName = '';
  let analyses = 0;
  const sync = ({ state, data: { card } }) => {
    const name = nameOf(state);
    if (card === shown && name === shownName) return;
    if (card !== shown) shell.root.dataset.analyses = String(++analyses);
    shown = card;
    shownName = name;
    shell.root.dataset.cardState = card.report ? 'ready' : 'error';
    const r = card.report;
    if (!r) {
      heading.textContent = errorHeading();
      list.replaceChildren();
      plot.canvas.setAttribute('aria-label', t('Empty chart: the config could not be read'));
      return;
    }
    heading.textContent = summaryHeading(name, r);
    list.replaceChildren(
      ...modelCardSummary(r).map(({ term, text }) => {
        const li = document.createElement('li');
        const strong = document.createElement('strong');
        strong.textContent = t('{term}: ', { term });
        li.append(strong, document.createTextNode(text));
        return li;
      }),
    );
    plot.canvas.setAttribute(
      'aria-label',
      r.scheme === 'rope'
        ? t(
            'Chart, log scale: wavelength 2π/θ of each RoPE pair before and after the config’s scaling, against the trained and prompt lengths; pairs beyond training in red',
          )
        : t(
            'Chart: the positions the model was trained on against the prompt’s positions; positions past the trained length in red',
          ),
    );
  };
  sync(view());
  afterUpdate(sync);
}

/** The longest file read as a config.json: the reader's own limit, 1 MiB (kMaxConfigBytes). */
const MAX_CONFIG_FILE_BYTES = 2 ** 20;
/** How much of a GGUF file's general.name the page shows. */
const MAX_NAME_TEXT = 200;

/**
 * A file chooser beside the config box, and the box as a drop zone: a config.json goes into the box
 * as it is; a GGUF file (known by its first four bytes, whatever its name) has only its header read
 * (gguf-header.js), and the box takes the config.json that header amounts to (gguf-config.js), with
 * what the file cannot tell listed under the chooser. Every text from the file is shown as text. A
 * file that cannot be read leaves the card as it was and says why under the chooser.
 * chart.openFile(file) does what choosing `file` does (a Promise; for tests).
 */
function addFileInput(chart, { shell, controls, afterUpdate }) {
  const field = document.createElement('div');
  field.className = 'chart-field model-card-file';
  const input = document.createElement('input');
  input.type = 'file';
  input.id = `${shell.root.id || 'model-card'}-file`;
  input.accept = '.json,.gguf,application/json';
  input.dataset.control = 'config-file';
  const label = document.createElement('label');
  label.htmlFor = input.id;
  label.textContent = t('Open a config.json or a .gguf file (only its header is read)');
  const message = document.createElement('p');
  message.className = 'chart-textarea-error model-card-file-error';
  message.id = `${input.id}-message`;
  message.setAttribute('role', 'alert');
  input.setAttribute('aria-describedby', message.id);
  const gguf = document.createElement('div');
  gguf.className = 'model-card-gguf';
  gguf.hidden = true;
  const source = document.createElement('p');
  const heading = document.createElement('p');
  heading.className = 'model-card-gguf-heading';
  heading.textContent = t('What a GGUF file cannot tell:');
  const notes = document.createElement('ul');
  gguf.append(source, heading, notes);
  field.append(label, input, message, gguf);
  controls.config.element.after(field);

  let ggufText = null; // the config the last GGUF file gave, while the box still holds it
  let latest = 0;
  const showGguf = (shown) => {
    gguf.hidden = !shown;
    if (!shown) ggufText = null;
  };
  const openFile = async (file) => {
    const ticket = ++latest;
    message.textContent = '';
    try {
      const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
      if (startsWithGgufMagic(head)) {
        const header = await readGgufHeader(file);
        const mapped = configFromGguf(header);
        if (ticket !== latest) return;
        const text = JSON.stringify(mapped.config, null, 2);
        const name = clip(mapped.name, MAX_NAME_TEXT);
        const params = { name, architecture: mapped.architecture, version: header.version };
        source.textContent = name
          ? t(
              'Read from the GGUF file’s header: {name}, architecture {architecture}, GGUF version {version}. The box holds the config.json it amounts to.',
              params,
            )
          : t(
              'Read from the GGUF file’s header: architecture {architecture}, GGUF version {version}. The box holds the config.json it amounts to.',
              params,
            );
        notes.replaceChildren(
          ...mapped.notes.map((note) => {
            const li = document.createElement('li');
            li.textContent = note;
            return li;
          }),
        );
        ggufText = text;
        gguf.hidden = false;
        controls.config.set(text);
        return;
      }
      if (file.size > MAX_CONFIG_FILE_BYTES) {
        throw new Error(
          t(
            'a config.json must be at most 1 MiB ({max} bytes), this file is {size} bytes, and it does not start as a GGUF file does',
            {
              max: grouped(MAX_CONFIG_FILE_BYTES),
              size: grouped(file.size),
            },
          ),
        );
      }
      const text = await file.text();
      if (ticket !== latest) return;
      showGguf(false);
      controls.config.set(text);
    } catch (error) {
      if (ticket !== latest) return;
      message.textContent = t('This file could not be read: {error}', {
        error: clip(String(error?.message ?? error), MAX_ERROR_TEXT),
      });
    }
  };
  input.addEventListener('change', () => {
    if (input.files?.[0]) openFile(input.files[0]);
  });
  // A file dropped on the config box is opened as if chosen (text dropped there goes in as typed).
  const box = controls.config.element;
  const hasFile = (event) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
  box.addEventListener('dragover', (event) => {
    if (hasFile(event)) event.preventDefault();
  });
  box.addEventListener('drop', (event) => {
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    event.preventDefault();
    openFile(file);
  });
  // Once the box holds something else (a preset, an edit), the GGUF notes no longer describe it.
  afterUpdate(({ state }) => {
    if (ggufText !== null && state.config !== ggufText) showGguf(false);
  });
  chart.openFile = openFile;
}
