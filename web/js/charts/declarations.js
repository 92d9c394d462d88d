// Every chart's declaration — id, title, controls with their ranges and defaults, and the older URL
// prefixes still read — in one light module: index.js, docs/contributing.md's parameter table
// (web/site-builder/chart-parameters.mjs) and the URL sweep read it without loading any chart's drawing code.
// Nothing here touches the DOM: the build imports it in Node, where the labels stay English.

import { t } from '../locale/i18n.js';

export const MAX_PAIRS = 6;
export const ATTENTION_SCHEMES = [
  { value: 'none', label: t('no positions') },
  { value: 'sinusoidal', label: t('sinusoidal') },
  { value: 'rope', label: t('RoPE') },
];
export const MAX_PROMPT = 1073741824; // the reader's cap on any length (kMaxConfigPositions)

/** A dimension count d: even, since the sinusoids and RoPE use dimensions in pairs; `overrides` moves the range or adds a slider. */
function dimensions(label, value, overrides = {}) {
  return { kind: 'number', label, value, min: 2, max: 512, step: 2, even: true, ...overrides };
}

/** The length lab's position schemes: the control's key, the engine's name, the label. */
export const LAB_SCHEMES = [
  { key: 'nope', value: 'none', label: t('no positions (NoPE)') },
  { key: 'learned', value: 'learned', label: t('learned table') },
  { key: 'sinusoidal', value: 'sinusoidal', label: t('sinusoidal') },
  { key: 'rope', value: 'rope', label: t('RoPE') },
  { key: 'alibi', value: 'alibi', label: t('ALiBi') },
  { key: 'rnopeSwa', value: 'rnope-swa', label: t('NoPE global + RoPE local (RNoPE-SWA)'), ticked: false },
  { key: 'drope', value: 'drope', label: t('RoPE, then dropped (DroPE)'), ticked: false },
  { key: 'cope', value: 'cope', label: t('contextual positions (CoPE)'), ticked: false },
];

/**
 * The engine's default base (kDefaultBase in cpp/include/positional/limits.hpp, DEFAULT_BASE in
 * JavaScript): this module loads without the engine, so it keeps a copy, which a Node test holds to it.
 */
export const DEFAULT_BASE = 10000;
/** The pair-angle chart's positions: 0 to PAIR_ANGLE_POSITIONS − 1 (its lines and its position read). */
export const PAIR_ANGLE_POSITIONS = 200;

/** The base of the pair frequencies (θ_i = base^(−2i/d)): any real number above 1, the engine's default to start. */
function frequencyBase(label = t('base')) {
  return { kind: 'number', label, value: DEFAULT_BASE, min: 1.5, max: 1e9, step: 'any', integer: false, above: 1 };
}

/** The position a chart reads its values at, from min to max: the control behind its position marker's handle. */
function positionRead(value, min, max) {
  return { kind: 'number', label: t('position read'), value, min, max };
}

/** Where one of the RoPE-relative chart's queries starts: a position from 0 to a million. */
function queryStart(label, value) {
  return { kind: 'number', label, value, min: 0, max: 1e6 };
}

/** How many log-spaced positions the precision chart samples (its curves, and the lesson's peak error). */
export const PRECISION_SAMPLES = 240;

/**
 * Chart id → { title, controls: { key → declaration }, aliases: [older URL prefixes], engineModule? (an
 * engine loader its module needs) }. The URL parameters are `<id>.<key>`; the module is charts/<id>.js.
 */
export const CHART_DECLARATIONS = {
  'order-blindness': {
    title: t('Order blindness'),
    controls: {
      a: { kind: 'text', label: t('Sentence A'), value: 'dog bites man', maxLength: 120 },
      b: { kind: 'text', label: t('Sentence B'), value: 'man bites dog', maxLength: 120 },
    },
    aliases: ['order'],
  },
  'sinusoidal-heatmap': {
    title: t('Sinusoidal position codes'),
    controls: {
      n: { kind: 'number', label: t('positions n'), value: 200, min: 1, max: 4096, slider: true },
      d: dimensions(t('dimensions d'), 64, { slider: true }),
      base: frequencyBase(),
      // The row whose code is read out below the heatmap (the row marker's handle).
      position: positionRead(40, 0, 4095),
    },
    aliases: ['heatmap'],
  },
  'rope-relative': {
    title: t('RoPE scores depend on the offset only'),
    controls: {
      s0: queryStart(t('query start 1'), 0),
      s1: queryStart(t('query start 2'), 100),
      s2: queryStart(t('query start 3'), 1000),
      d: dimensions(t('d'), 64),
      base: frequencyBase(),
      seed: { kind: 'number', label: t('random q, k seed'), value: 0, min: 0, max: 1e6 },
      // The key read off the curves (the distance marker's handle): n = m + δ for every query.
      delta: { kind: 'number', label: t('key distance δ'), value: 12, min: 0, max: 59 },
    },
    aliases: ['relative'],
  },
  'rope-frequencies': {
    title: t('RoPE pair angles over positions'),
    controls: {
      d: dimensions(t('d'), 64),
      base: frequencyBase(),
      pairs: {
        kind: 'text',
        label: t('pairs (up to {max}, comma-separated)', { max: MAX_PAIRS }),
        value: '0,4,12,31',
        maxLength: 60,
      },
      // The position whose angles are read off the lines (the position marker's handle).
      position: positionRead(100, 0, PAIR_ANGLE_POSITIONS - 1),
    },
    aliases: ['freq'],
  },
  'context-extension': {
    title: t('Context extension'),
    controls: {
      trained: { kind: 'number', label: t('trained length'), value: 4096, min: 16, max: 1048576 },
      target: { kind: 'number', label: t('target length'), value: 32768, min: 16, max: 2097152 },
      d: dimensions(t('head width d'), 128, { min: 4 }),
      base: frequencyBase(),
    },
    aliases: ['extension'],
  },
  'rope-clock': {
    title: t('The RoPE clock'),
    controls: {
      // Positions in a sequence: from 0.
      m: { kind: 'number', label: t('query position m'), value: 3, min: 0, max: 100000, step: 1 },
      n: { kind: 'number', label: t('key position n'), value: 7, min: 0, max: 100000, step: 1 },
      theta: {
        kind: 'number',
        label: t('θ (rad per position)'),
        value: 1,
        min: 0.0001,
        max: 10,
        step: 'any',
        integer: false,
        above: 0,
      },
    },
    aliases: ['clock'],
  },
  'attention-weights': {
    title: t('Attention weights'),
    controls: {
      sentence: { kind: 'text', label: t('Sentence'), value: 'dog bites man', maxLength: 120 },
      scheme: { kind: 'select', label: t('Positions'), value: 'none', options: ATTENTION_SCHEMES },
      causal: { kind: 'checkbox', label: t('causal mask'), value: false },
    },
    aliases: ['weights'],
  },
  alibi: {
    title: t('ALiBi slopes and bias beside RoPE decay'),
    controls: {
      heads: { kind: 'number', label: t('heads'), value: 8, min: 1, max: 64, slider: true },
      head: { kind: 'number', label: t('head shown'), value: 1, min: 1, max: 64 },
      length: { kind: 'number', label: t('sequence length'), value: 8, min: 2, max: 24 },
      d: dimensions(t('RoPE d'), 128),
      base: frequencyBase(t('RoPE base')),
      distance: { kind: 'number', label: t('max distance'), value: 256, min: 8, max: 4096 },
    },
    aliases: [],
  },
  conventions: {
    title: t('RoPE conventions'),
    controls: {
      d: dimensions(t('d'), 16, { max: 64, slider: true }),
      start: { kind: 'number', label: t('query position'), value: 100, min: 0, max: 1e6 },
      base: frequencyBase(),
    },
    aliases: [],
  },
  precision: {
    title: t('Angle precision'),
    controls: {
      max: { kind: 'number', label: t('largest position'), value: 1048576, min: 1024, max: 16777216 },
      d: dimensions(t('d'), 128),
      base: frequencyBase(),
      pairs: { kind: 'text', label: t('pairs (comma-separated)'), value: '1,16,32,63', maxLength: 60 },
      // The position whose errors are read off the curves (the position marker's handle).
      position: positionRead(65536, 1, 16777216),
    },
    aliases: [],
  },
  'model-card': {
    title: t('Model card'),
    controls: {
      // The options are the presets in model-presets.js, loaded on demand; an unknown id shows the pasted-config view.
      preset: { kind: 'select', label: t('model (preset)'), value: 'llama-3.1-8b' },
      prompt: { kind: 'number', label: t('prompt length (tokens)'), value: 32768, min: 1, max: MAX_PROMPT },
    },
    aliases: ['card'],
    // Its module also needs the engine's model-config reader, a module of its own, fetched with it.
    engineModule: 'loadModelConfigReader',
  },
  // The settings of the lab's runs; the models train when the reader presses Train, in Workers with their
  // own engine (so the page's engine needs no lab module for it). The model's sizes are the engine's
  // defaults, the size of tests/bench/results/length-lab.json's "default" runs.
  'length-lab': {
    title: t('Length lab'),
    controls: {
      task: {
        kind: 'select',
        label: t('task'),
        value: 'lookup',
        options: [
          { value: 'lookup', label: t('lookup, 3 back') },
          { value: 'copy', label: t('copy') },
          { value: 'last-write', label: t('last-write') },
        ],
      },
      length: { kind: 'number', label: t('trained length'), value: 16, min: 8, max: 32, step: 2, even: true },
      steps: { kind: 'number', label: t('training steps'), value: 300, min: 10, max: 2000 },
      seed: { kind: 'number', label: t('seed'), value: 0, min: 0, max: 4294967295 },
      ...Object.fromEntries(
        LAB_SCHEMES.map(({ key, label, ticked = true }) => [key, { kind: 'checkbox', label, value: ticked }]),
      ),
      ssmax: { kind: 'checkbox', label: t('length-scaled softmax (SSMax) in every model'), value: false },
    },
    aliases: [],
  },
  // Section 6: which pairs of one head turn under full, partial and proportional RoPE. The share is a
  // whole percentage, so the turning pairs are floor(share / 100 · d / 2) exactly, as configs count them.
  'rope-layouts': {
    title: t('Which pairs turn'),
    controls: {
      d: dimensions(t('head width d'), 512, { min: 4, max: 1024 }),
      base: { ...frequencyBase(), value: 1000000 },
      share: { kind: 'number', label: t('share of pairs that turn (%)'), value: 25, min: 1, max: 100 },
    },
    aliases: [],
  },
  'attention-sinks': {
    title: t('The sink and the prompt length'),
    controls: {
      lead: {
        kind: 'number',
        label: t('the sink’s score lead'),
        value: 8,
        min: 0,
        max: 30,
        step: 'any',
        integer: false,
      },
      trained: { kind: 'number', label: t('SSMax: length where the scale is 1'), value: 4096, min: 2, max: 1048576 },
      keys: { kind: 'number', label: t('keys the query sees'), value: 131072, min: 1, max: 1048576 },
    },
    aliases: [],
  },
};

/** Chart `id`'s declaration as defineChart takes it: { id, title, controls, aliases, engineModule? }. */
export const chartDeclaration = (id) => ({ id, ...CHART_DECLARATIONS[id] });
