// Every sentence true at every value: each prose handle and each figure's number controls are moved
// to their ends, their defaults, the boundaries the text tells apart, a step either side and a few
// seeded values, in English and in Chinese; after each move every sentence the page would show for
// that state (the section's prose and the figure's caption, rendered here from lesson.md with the
// engine's numbers; the figure's note, description, control notes, table header and handle
// aria-valuetext) is read and checked: no placeholder or non-number, every range a–b ordered and
// inside its domain, counts agreeing with their nouns, each registered claim backed by the numbers,
// shown arithmetic true to the shown precision.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import { useLanguage } from '../../web/js/locale/i18n.js';
import {
  computeEngineResults,
  LIVE_PARAMETERS,
  liveText,
  PARAMETER_DEFAULTS,
  PARAMETER_ECHOES,
  parameterText,
  chartParameters,
  claimHolds,
  LIVE_CLAIMS,
  settleParameter,
} from '../../web/js/prose/live-values.js';
import { definedChart } from '../../web/js/chart-kit/define-chart.js';
import { formatValue, withUnit } from '../../web/js/locale/format.js';
import { CHART_DECLARATIONS } from '../../web/js/charts/declarations.js';
import { loadEngine } from './engine-loader.mjs';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const LESSONS = { en: read('web/lesson/lesson.md'), 'zh-Hans': read('web/lesson/lesson.zh-Hans.md') };
const ZH_TABLE = Object.assign(
  {},
  ...readdirSync(new URL('../../web/i18n/zh-Hans/', import.meta.url))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(read(`web/i18n/zh-Hans/${f}`))),
);
const LANGUAGES = ['en', 'zh-Hans'];
const speak = (language) => useLanguage({ language, entries: language === 'en' ? {} : ZH_TABLE });

/** The lesson split at its headings: [{ id, text }], each section's text up to the next heading. */
function sections(markdown) {
  const out = [];
  for (const line of markdown.replace(/^<!--[\s\S]*?-->/, '').split('\n')) {
    const heading = line.match(/^#{1,4} .*\{#([a-z0-9-]+)\}\s*$/);
    if (heading) out.push({ id: heading[1], text: '' });
    else if (out.length) out[out.length - 1].text += `${line}\n`;
  }
  return out;
}

// ---- the values swept -----------------------------------------------------------------------------

/** A small seeded generator (mulberry32): the same values every run. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}
const RANDOM_VALUES = 20;

/** Values in [min, max]: log-uniform where the range spans decades, as a reader's End and Home do. */
function randomValues(min, max, seed, { integer = true, even = false } = {}) {
  const random = seeded(seed);
  const logScale = min > 0 && max / min > 100;
  return Array.from({ length: RANDOM_VALUES }, () => {
    const u = random();
    let v = logScale ? min * (max / min) ** u : min + (max - min) * u;
    // A real value as a reader's keys and drags reach one: a few decimals at most.
    v = integer ? Math.round(v) : Number(v.toFixed(3));
    if (even) v = 2 * Math.round(v / 2);
    return Math.min(max, Math.max(min, v));
  });
}

/**
 * The values one control or handle takes: min, max, default, each boundary the text distinguishes
 * with a step either side, and seeded values. `step` is the control's step ('any': 1 % of the value).
 */
function sweepValues({ min, max, value, step = 1, integer = true, even = false }, boundaries = [], seed = 1) {
  const around = (v) => (step === 'any' ? [v / 1.01, v, v * 1.01] : [v - step, v, v + step]);
  const values = [min, max, value, ...around(min), ...around(max), ...around(value)];
  for (const b of boundaries) values.push(...around(b));
  values.push(...randomValues(min, max, seed, { integer, even }));
  return [...new Set(values.filter((v) => Number.isFinite(v) && v >= min && v <= max))];
}

// ---- the checks on a text -------------------------------------------------------------------------

const NUMBER = String.raw`(−?\d[\d,]*(?:\.\d+)?)`;
const num = (text) => Number(text.replace(/,/g, '').replace('−', '-'));
/** Half a unit of the last digit a number is shown to: "8.27" → 0.005, "82,685" → 0.5. */
const halfUnit = (text) => 0.5 * 10 ** -(text.includes('.') ? text.split('.')[1].length : 0);

/**
 * The invariants every shown text keeps; `domain` gives the pair-index range the text may print
 * ({ pairs }), where known. Returns the faults found, as sentences.
 */
function textFaults(text, { pairs } = {}) {
  const faults = [];
  if (/NaN|Infinity|undefined|null|\{\w+\}|\[object/.test(text)) faults.push('a non-number or empty placeholder');
  if (/(^|[^\d.,])−?\d[\d,]*\.\d*e[+−-]?\d/.test(text)) faults.push('an exponent written as e');
  // One number voice: a whole part of five digits or more is grouped ("65,536", never "65536").
  for (const m of text.matchAll(/(?<![\d.,\w])\d{5,}(?![\d\w])/g)) faults.push(`an ungrouped number "${m[0]}"`);
  // Ranges of pair indices: "pairs a–b", "pairs a to b", "第 a–b 对", "第 a 到 b 对".
  const ranges = [
    ...text.matchAll(new RegExp(String.raw`pairs? ${NUMBER}\s*(?:–|to)\s*${NUMBER}`, 'g')),
    ...text.matchAll(new RegExp(String.raw`第 ?${NUMBER}\s*(?:–|到第?)\s*${NUMBER} ?对`, 'g')),
  ];
  for (const m of ranges) {
    const [a, b] = [num(m[1]), num(m[2])];
    if (a > b) faults.push(`an empty range "${m[0]}"`);
    if (a === b) faults.push(`a range of one "${m[0]}"`);
    if (pairs !== undefined && (a < 0 || b > pairs - 1)) faults.push(`"${m[0]}" outside pairs 0–${pairs - 1}`);
  }
  if (pairs !== undefined) {
    for (const m of text.matchAll(new RegExp(String.raw`pairs from ${NUMBER} on|从第 ?${NUMBER} ?对起`, 'g'))) {
      const from = num(m[1] ?? m[2]);
      if (from > pairs - 1) faults.push(`"${m[0]}" beyond the last pair ${pairs - 1}`);
    }
  }
  // A count of one with a plural noun (English), and a fraction of one over one.
  for (const m of text.matchAll(/(?<![\d.,−])1 (positions|models|pairs|tokens|dimensions|heads|times)\b/g))
    faults.push(`"${m[0]}": one with a plural noun`);
  if (/(?<![\d.,])1\/1(?![\d.,])/.test(text)) faults.push('"1/1": a ratio of one told as a fraction');
  // Chinese counts take a measure word between the number and the noun: "4,096 个位置", "8 个头",
  // never "4,096 位置" (对, 维, 层 and 倍 are measure words themselves).
  for (const m of text.matchAll(/(?<![\d.,])\d[\d,]*(?:\.\d+)? ?(位置|词元|模型|注意力头|头|句子)/g))
    faults.push(`"${m[0]}": a Chinese count without its measure word`);
  // Chinese sentences join without a space: "…评分。每个模型…", never "…评分。 每个模型…".
  for (const m of text.matchAll(/[。！？；：，] +(?![-*] |\d+\. )\S/g))
    faults.push(`"${m[0]}": a space after Chinese punctuation`);
  // Shown arithmetic: "x × y / z = w" and "x / y = z" with every number as shown.
  const plain = text.replace(/\*\*/g, '');
  const shownEqual = (value, shown) => {
    const decimals = shown.includes('.') ? shown.split('.')[1].length : 0;
    return Math.abs(value - num(shown)) <= 0.5 * 10 ** -decimals * (1 + 1e-9);
  };
  // "a × b / c = a / e = f": both a·b/c and a/e agree with f as shown.
  const chain = String.raw`${NUMBER} × ${NUMBER} / ${NUMBER} = ${NUMBER} / ${NUMBER} = ${NUMBER}(?![\d,]|\.\d)`;
  for (const m of plain.matchAll(new RegExp(chain, 'g'))) {
    const [a, b, c, a2, e, f] = m.slice(1);
    if (!shownEqual((num(a) * num(b)) / num(c), f)) faults.push(`"${m[0]}": ${a} × ${b} / ${c} is not ${f}`);
    if (!shownEqual(num(a2) / num(e), f)) faults.push(`"${m[0]}": ${a2} / ${e} is not ${f} as shown`);
  }
  // "x / y = z" standing alone.
  for (const m of plain.matchAll(
    new RegExp(String.raw`(?<![×/=] [\d,.]*|[\d,.])${NUMBER} / ${NUMBER} = ${NUMBER}(?![\d,]|\.\d| /)`, 'g'),
  )) {
    const [x, y, z] = [num(m[1]), num(m[2]), m[3]];
    if (!shownEqual(x / y, z)) faults.push(`"${m[0]}" is not true as shown`);
  }
  // A power: "s^e ≈ f" written as s<sup>e</sup> (here "s^e") to the shown precision of f.
  for (const m of text.matchAll(new RegExp(String.raw`${NUMBER}\^${NUMBER} ≈ ${NUMBER}`, 'g'))) {
    const [s, e, f] = [num(m[1]), num(m[2]), m[3]];
    const decimals = f.includes('.') ? f.split('.')[1].length : 0;
    // Tolerance: the exponent is shown to its own decimals too, so s^e may differ by s^e·ln s·½ ulp(e).
    const eDecimals = m[2].includes('.') ? m[2].split('.')[1].length : 0;
    const slack = s ** e * Math.log(s) * 0.5 * 10 ** -eDecimals + 0.5 * 10 ** -decimals;
    if (Math.abs(s ** e - num(f)) > slack * (1 + 1e-9)) faults.push(`"${m[0]}" is not true as shown`);
  }
  return faults;
}

/**
 * The registry of claims: each { id, says (a pattern per language, matched in the text), holds(ctx) }
 * where ctx holds the values the text was written for. A text that says the claim must have it hold.
 */
const CLAIMS = [
  {
    id: 'interpolated position is an angle the model has seen',
    says: /an angle the model has seen|一个模型见过的角度/,
    holds: ({ results, values }) => results.read('interp.example-result') <= values['extension.trained'],
  },
  {
    id: 'the example position lies in the input',
    says: /position [\d,]+ is treated as|位置 [\d,]+ 被当作/,
    holds: ({ values }) => values['extension.position'] <= values['extension.target'],
  },
  {
    id: 'neighbours are closer than one position',
    says: /Neighbours are now|相邻位置现在相隔/,
    holds: ({ results }) => results.read('interp.ratio') < 1,
  },
  {
    id: 'raw positions leave the trained band',
    says: /leave the trained angle band|离开训练过的角度范围/,
    holds: ({ results }) => results.read('extension.raw-over-band') > 1,
  },
  {
    id: 'd/(d − 2) is just above 1',
    says: /power just above 1|略大于 1 的幂/,
    holds: ({ values }) => values['extension.d'] / (values['extension.d'] - 2) <= 1.1,
  },
  {
    id: 'the base grows by slightly more than the stretch',
    says: /slightly more than the stretch factor|比拉伸倍数略大/,
    holds: ({ values }) => {
      const s = values['extension.target'] / values['extension.trained'];
      return s > 1 && values['extension.d'] / (values['extension.d'] - 2) <= 1.1;
    },
  },
  {
    id: 'the fastest pairs drift first',
    says: /fastest pairs drift first|最快的维度对最先漂移/,
    holds: ({ chart }) => {
      const { pairs, positions, errors } = chart.data;
      const n = positions.length;
      const last = pairs.map((_, r) => errors.rotationError.data[r * n + n - 1]);
      return last.every((v, r) => r === 0 || v <= last[r - 1]);
    },
  },
  {
    id: 'no pair is selected only when the pairs box is empty',
    says: /No pair selected|未选择维度对/,
    holds: ({ chart }) => !String(chart.state.pairs).trim(),
  },
  {
    id: 'the last pair is another pair than pair 0',
    says: /the last pair repeats only every|最后一对要每/,
    holds: ({ chart }) => chart.state.d >= 4,
  },
  {
    id: 'the caption names the starting positions the figure draws',
    says: /starting positions ([\d,]+), ([\d,]+) and ([\d,]+)|起始位置为? ?([\d,]+)、([\d,]+) 和 ([\d,]+)/,
    holds: ({ chart, match }) => {
      const shown = match.slice(1).filter(Boolean).map(num);
      return ['s0', 's1', 's2'].every((key, i) => chart.state[key] === shown[i]);
    },
  },
  {
    id: "the figure's NTK-aware base is the prose's",
    says: /NTK-aware base ([\d,.]+)|NTK 感知基数 ([\d,.]+)/,
    holds: ({ match, results }) => (match[1] ?? match[2]).replace(/\.$/, '') === liveText('ntk.base', results),
  },
  {
    id: 'NTK base shown is base × factor shown',
    says: new RegExp(String.raw`base = ${NUMBER}[,，] ?d = [\d,]+(?: and |，)base′ = ${NUMBER}`),
    holds: ({ match, results }) => {
      // Each number as shown, with half a unit of its last digit: base × factor within the rounding of all three.
      const shown = [match[1], liveText('ntk.factor', results), match[2]];
      const [base, factor, scaled] = shown.map(num);
      const [uBase, uFactor, uScaled] = shown.map(halfUnit);
      return Math.abs(scaled - base * factor) <= (factor * uBase + base * uFactor + uScaled) * (1 + 1e-9);
    },
  },
];

/** The faults of the registered claims in `text`, with `ctx` the values it was written for. */
function claimFaults(text, ctx) {
  const faults = [];
  for (const claim of CLAIMS) {
    const match = claim.says.exec(text);
    if (match && !claim.holds({ ...ctx, match })) faults.push(`claims "${claim.id}" but it does not hold`);
  }
  return faults;
}

// ---- the prose, rendered as the page shows it ------------------------------------------------------

/** A lesson text with its markers replaced by what the page shows for parameter `values`. */
function renderProse(text, values, results) {
  return (
    text
      .replace(/^```[\s\S]*?^```/gm, '')
      // Formulas are typeset symbols, not sentences: the numbers beside them are checked.
      // A symbol alone ($base$, $base'$, $d$) reads as its name.
      .replace(/\$([A-Za-z]+)('?)\$/g, (_, name, prime) => name + (prime ? '′' : ''))
      .replace(/\$\$[\s\S]+?\$\$|\$[^$\n]+?\$/g, '⟨formula⟩')
      .replace(/<sup>/g, '^')
      .replace(/<[^>]+>/g, '')
      .replace(/\{\{when:([a-z0-9.-]+)\}\}([\s\S]*?)\{\{else\}\}([\s\S]*?)\{\{end\}\}/g, (_, claim, yes, no) =>
        claimHolds(claim, results, values) ? yes : no,
      )
      .replace(/\{\{param:([a-z0-9.-]+)\}\}/g, (_, name) =>
        parameterText(name, values[name] ?? LIVE_PARAMETERS[name].view.read(values)),
      )
      .replace(/\{\{echo:([a-z0-9.-]+)\}\}/g, (_, name) =>
        formatValue(PARAMETER_ECHOES[name].value(values), PARAMETER_ECHOES[name].format),
      )
      .replace(/\{\{live:([a-z0-9.-]+)(?:\|([a-z0-9-]+))?\}\}/g, (_, name, format) => {
        try {
          return liveText(name, results, format);
        } catch {
          return '—';
        }
      })
      .replace(/\{\{part:[^|]+\|([^}]+)\}\}/g, '$1')
      .replace(/\{\{(?:ref|link-only):[^|}]+\|?([^}]*)\}\}/g, '$1')
      .replace(/\{\{[^}]+\}\}/g, '⟨lab⟩')
  );
}

/** The paragraphs of a rendered section (blank-line separated), each a unit a reader reads. */
const paragraphs = (text) =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);

/** The handles of a lesson section and the parameters they move. */
const handlesIn = (text) => [...new Set([...text.matchAll(/\{\{param:([a-z0-9.-]+)\}\}/g)].map((m) => m[1]))];

/** The boundaries each prose handle's text tells apart (besides its ends and its default). */
const PROSE_BOUNDARIES = {
  'extension.trained': (v) => [v['extension.target'], v['extension.target'] / 2],
  'extension.target': (v) => [v['extension.trained'], 2 * v['extension.trained'], v['extension.position']],
  'extension.position': (v) => [v['extension.target'], v['extension.trained']],
  'extension.base': () => [1.5, 2, 10],
  'extension.scale': () => [1, 2],
  'extension.d': () => [2, 4, 6, 20, 22],
  'rope.query': (v) => [0, v['rope.key']],
  'rope.key': (v) => [0, v['rope.query']],
};

/** The prose states swept: per handle, each value applied as the page applies a reader's move. */
function proseStates(names) {
  const states = [];
  for (const name of names) {
    const p = LIVE_PARAMETERS[name];
    const boundaries = PROSE_BOUNDARIES[name]?.(PARAMETER_DEFAULTS) ?? [];
    const min = typeof p.min === 'number' ? p.min : 0;
    for (const raw of sweepValues({ ...p, min, step: p.step }, boundaries, name.length)) {
      states.push({ moved: `${name} = ${raw}`, values: settleParameter({}, name, raw).values });
    }
  }
  // Combinations the lesson's text distinguishes: target = trained at each end of the trained length.
  for (const trained of [16, 4096, 1048576]) {
    let { values } = settleParameter({}, 'extension.trained', trained);
    values = settleParameter(values, 'extension.target', trained).values;
    states.push({ moved: `extension.trained and extension.target = ${trained}`, values });
  }
  return states;
}

// ---- the figures, computed as the page computes them ----------------------------------------------

/** A chart's state as its controls and reconcile() leave it, with the messages beside the controls. */
function reconciled(spec, state) {
  const messages = [];
  const controls = Object.fromEntries(
    Object.keys(spec.controls).map((key) => [
      key,
      {
        chosen: () => state[key],
        release: () => state[key],
        constrain: (value, why) => {
          state[key] = value;
          messages.push(why);
        },
        note: (text) => text && messages.push(text),
      },
    ]),
  );
  spec.reconcile?.(state, controls, {});
  return messages;
}

/** Every text a figure shows for `state`: note, description, control notes, table header, handle texts. */
function chartTexts(spec, engine, state) {
  const messages = reconciled(spec, state);
  const data = {};
  const size = { width: 640, height: 360, ratio: 1 };
  for (const [name, part] of Object.entries(spec.compute ?? {})) {
    if (part.paint) continue;
    data[name] = part.run(state, engine, data, size);
  }
  const view = { state, data, highlighted: null, layout: {} };
  const texts = [...messages];
  if (spec.note) texts.push(spec.note(view));
  if (spec.describe) texts.push(spec.describe(view));
  if (spec.notes) texts.push(...Object.values(spec.notes(view)).filter(Boolean));
  if (spec.table) {
    const table = typeof spec.table === 'function' ? spec.table(view, engine) : spec.table;
    const built = typeof table === 'function' ? table() : table;
    if (built) texts.push(built.caption, ...built.columns.map(String));
  }
  for (const handle of spec.handles ?? []) {
    if (!handle.valueText || !(handle.key in state)) continue;
    texts.push(handle.valueText(state[handle.key], view));
  }
  return { texts, data };
}

/** The figures the sweep reads (every chart with number controls whose text the lesson shows). */
const CHARTS = [
  'sinusoidal-heatmap',
  'rope-relative',
  'rope-frequencies',
  'context-extension',
  'rope-clock',
  'alibi',
  'conventions',
  'precision',
  'rope-layouts',
];

/** The boundaries each figure's text tells apart, per control (besides its ends and its default). */
const CHART_BOUNDARIES = {
  'sinusoidal-heatmap': { n: [1, 2], d: [2, 4] },
  'rope-relative': { d: [2, 4] },
  'rope-frequencies': { d: [2, 4, 64] },
  'context-extension': { trained: [32768, 1048576], target: [4096], d: [4, 6], base: [1.5, 2] },
  'rope-clock': { m: [0, 7], n: [0, 3] },
  alibi: { heads: [1, 2], d: [2, 4] },
  conventions: { d: [2, 4] },
  precision: { d: [2, 4, 64, 512], base: [1.5, 2] },
  'rope-layouts': { d: [4], share: [99, 100] },
};

/** The states a figure is swept through: each number control moved alone from the figure's defaults. */
function chartStates(id) {
  const { controls } = CHART_DECLARATIONS[id];
  const defaults = Object.fromEntries(Object.entries(controls).map(([k, c]) => [k, c.value]));
  const states = [{ moved: 'defaults', state: { ...defaults } }];
  for (const [key, c] of Object.entries(controls)) {
    if (c.kind !== 'number') continue;
    const step = c.step === 'any' ? 'any' : (c.step ?? 1);
    const integer = c.integer !== false;
    for (const v of sweepValues({ ...c, step, integer }, CHART_BOUNDARIES[id]?.[key] ?? [], key.length + id.length))
      states.push({ moved: `${key} = ${v}`, state: { ...defaults, [key]: v } });
  }
  return states;
}

/** The lesson's caption of figure `id` in `language`, as markdown. */
function captionOf(language, id) {
  const m = new RegExp(String.raw`^\`\`\`chart ${id}\n([\s\S]*?)\n\`\`\``, 'm').exec(LESSONS[language]);
  return m ? m[1] : '';
}

/** The values each control or handle was moved to, as "name: v1, v2, …" (for the test's diagnostics). */
function sweptValues(states) {
  const byName = new Map();
  for (const { moved } of states) {
    const [name, value] = moved.split(' = ');
    if (value === undefined) continue;
    if (!byName.has(name)) byName.set(name, []);
    const v = Number(value);
    byName.get(name).push(String(Number(Math.abs(v) >= 1 ? v.toFixed(3) : v.toPrecision(3))));
  }
  return [...byName].map(([name, values]) => `${name}: ${values.join(', ')}`).join('; ');
}

// ---- the sweep ------------------------------------------------------------------------------------

let engine;
before(async () => {
  engine = await loadEngine();
});

/** Faults as "state: fault in «text»": the first of each kind, with how many states showed it. */
function report(faults) {
  const kinds = new Map();
  for (const f of faults) {
    const kind = f
      .replace(/^[^:]*: /, '')
      .replace(/ in «[\s\S]*$/, '')
      .replace(/[\d,.−]+/g, '#');
    if (!kinds.has(kind)) kinds.set(kind, { first: f, count: 0 });
    kinds.get(kind).count++;
  }
  // TEXT_SWEEP_ALL=1 lists every fault, not the first of each kind.
  if (process.env.TEXT_SWEEP_ALL) return faults.join('\n');
  return [...kinds.values()].map(({ first, count }) => `${first} (${count} states)`).join('\n');
}

describe('the checks themselves', () => {
  test('each text invariant flags the fault it looks for, and passes the right form', () => {
    const flags = (text) => textFaults(text).length > 0;
    for (const bad of [
      '读 4,096 位置',
      '训练 1 模型',
      '8 头',
      '1 positions',
      'NaN',
      '65536 tokens',
      '1/1',
      '评分。 每个',
    ])
      assert.ok(flags(bad), `not flagged: ${bad}`);
    for (const good of ['读 4,096 个位置', '8 个头', '共 32 层', '64 对', '1 position', '65,536 tokens', '评分。每个'])
      assert.ok(!flags(good), `flagged: ${good}: ${textFaults(good)}`);
  });
});

describe('the lesson’s own values', () => {
  test('make every claim hold (the built page shows each claim’s first sentence)', () => {
    const results = computeEngineResults(engine, {});
    for (const name of Object.keys(LIVE_CLAIMS))
      assert.ok(claimHolds(name, results, {}), `${name} does not hold at the lesson's values`);
  });
});

for (const language of LANGUAGES) {
  describe(`every sentence true at every value (${language})`, () => {
    test('the prose sections with handles, each handle swept', (t) => {
      speak(language);
      const faults = [];
      for (const { id, text } of sections(LESSONS[language])) {
        const names = handlesIn(text);
        if (!names.length) continue;
        const states = proseStates(names);
        t.diagnostic(`§${id}: ${states.length} states; ${sweptValues(states)}`);
        for (const { moved, values } of states) {
          const all = { ...PARAMETER_DEFAULTS, ...values };
          const results = computeEngineResults(engine, values);
          // A handle shows the value it holds: its text read back is the value (a view, the stretch
          // target / trained, is shown to the digits that tell it from 1).
          for (const name of names) {
            if (LIVE_PARAMETERS[name].view) continue;
            const text = parameterText(name, all[name]);
            if (Math.abs(num(text) - all[name]) > 1e-9 * Math.abs(all[name]))
              faults.push(`§${id}, ${moved}: handle ${name} holds ${all[name]} but shows "${text}"`);
          }
          // Each handle's aria-valuetext, as the page writes it (value and unit).
          const valueTexts = names.map((name) => {
            const { unit, view } = LIVE_PARAMETERS[name];
            return withUnit(parameterText(name, view ? view.read(all) : all[name]), unit);
          });
          for (const text of valueTexts)
            for (const f of textFaults(text)) faults.push(`§${id}, ${moved}: ${f} in aria-valuetext «${text}»`);
          for (const paragraph of paragraphs(renderProse(text, all, results))) {
            const found = [...textFaults(paragraph), ...claimFaults(paragraph, { results, values: all })];
            for (const f of found) faults.push(`§${id}, ${moved}: ${f} in «${paragraph.slice(0, 200)}»`);
          }
        }
      }
      speak('en');
      assert.equal(faults.length, 0, report(faults));
    });

    for (const id of CHARTS) {
      test(`figure ${id}: note, description, notes, table and handles at every control's values`, async (t) => {
        await import(`../../web/js/charts/${id}.js`);
        const { spec } = definedChart(id);
        speak(language);
        const faults = [];
        const states = chartStates(id);
        t.diagnostic(`${id}: ${states.length} states; ${sweptValues(states)}`);
        for (const { moved, state } of states) {
          let shown;
          try {
            shown = chartTexts(spec, engine, state);
          } catch (error) {
            faults.push(`${moved}: ${error.message}`);
            continue;
          }
          const pairs = typeof state.d === 'number' ? state.d / 2 : undefined;
          const values = { ...PARAMETER_DEFAULTS, ...chartParameters(id, state) };
          const results = computeEngineResults(engine, chartParameters(id, state));
          const caption = renderProse(captionOf(language, id), values, results).replace(/\s+/g, ' ');
          const ctx = { chart: { state, data: shown.data }, results, values };
          for (const text of [caption, ...shown.texts]) {
            const found = [...textFaults(text, { pairs }), ...claimFaults(text, ctx)];
            for (const f of found) faults.push(`${moved}: ${f} in «${text.slice(0, 200)}»`);
          }
        }
        speak('en');
        assert.equal(faults.length, 0, report(faults));
      });
    }
  });
}
