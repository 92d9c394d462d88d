// The length lab's measured accuracies as the lesson quotes them: the {{lab:…}} numbers and the
// {{lab-table:…}} tables, expanded at build time from the committed results file, so no number of the
// lab is ever typed into the lesson.
import { readFileSync } from 'node:fs';

/**
 * The results file the lesson quotes: read in place from its committed path (the build takes no
 * copy), written by hand with the command it records in its own "command" field.
 */
export const LAB_RESULTS_FILE = new URL('../../tests/bench/results/length-lab.json', import.meta.url);

/** The rows of a lab table, in the lesson's order: the five schemes, RoPE's three stretches after it, ALiBi last. */
export const LAB_VARIANTS = ['none', 'learned', 'sinusoidal', 'rope', 'rope+pi', 'rope+ntk', 'rope+yarn', 'alibi'];

/** The columns of a lab table: multiples of the trained length. */
export const LAB_TABLE_FACTORS = [1, 2, 4, 8];

/** The model a variant is an evaluation of: the variant without RoPE's stretch ("rope+ssmax+pi" → "rope+ssmax"). */
export function labModelOf(variant) {
  return variant.replace(/\+(pi|ntk|yarn)$/, '');
}

/** What a {{lab:…|FORMAT}} number prints: the median, or the spread over the seeds. */
export const LAB_FORMATS = ['median', 'iqr', 'range'];

const MARKER = /\{\{(lab|lab-table|lab-setup|lab-sink):([^}|]*)(?:\|([^}]*))?\}\}/g;

/** The results file as parsed JSON (the committed one unless `file` says otherwise). */
export function loadLabResults(file = LAB_RESULTS_FILE) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The keys of `object` for an error message. */
const known = (object) => Object.keys(object ?? {}).join(', ');

/**
 * The statistics of one cell, `SIZE/TASK/VARIANT/FACTOR` ("default/lookup/rope+pi/2"): { median,
 * q1, q3, min, max, seeds } of the accuracy at FACTOR× the trained length, a share from 0 to 1.
 * RoPE's stretched variants (rope+pi, rope+ntk, rope+yarn) are evaluations of the RoPE model; a model
 * with length-scaled softmax is its scheme's name with "+ssmax" ("rope+ssmax", "rope+ssmax+yarn").
 * Throws, naming the marker and what is known in its place, on any unknown part.
 */
export function labCell(results, key) {
  const marker = `{{lab:${key}}}`;
  const fail = (what) => {
    throw new Error(`lesson: ${marker}: ${what} (in ${LAB_RESULTS_FILE.pathname.replace(/.*\/tests\//, 'tests/')})`);
  };
  const parts = key.split('/');
  if (parts.length !== 4)
    fail('a lab number reads {{lab:SIZE/TASK/VARIANT/FACTOR}}, e.g. {{lab:default/lookup/rope/4}}');
  const [size, task, variant, factorText] = parts;
  const sized = results.sizes?.[size];
  if (!sized) fail(`unknown size "${size}" (the file has: ${known(results.sizes)})`);
  const byTask = sized.runs?.[task];
  if (!byTask) fail(`unknown task "${task}" (the file has: ${known(sized.runs)})`);
  const scheme = labModelOf(variant);
  const accuracy = byTask[scheme]?.accuracy?.[variant];
  if (!accuracy)
    fail(
      `unknown variant "${variant}" (the file has: ${Object.values(byTask)
        .flatMap((run) => Object.keys(run.accuracy ?? {}))
        .join(', ')})`,
    );
  const factor = Number(factorText);
  const lengths = byTask[scheme].eval_lengths;
  const index = lengths.indexOf(factor * sized.config.train_length);
  if (!/^[1-9][0-9]*$/.test(factorText) || index < 0 || !accuracy[index])
    fail(`unknown factor "${factorText}" (the file has 1 to ${lengths.length}, the multiples of the trained length)`);
  return accuracy[index];
}

/** A share as the lesson prints it: a whole percentage, "64%" (the same in every language so far). */
export function labPercent(share) {
  return `${Math.round(share * 100)}%`;
}

/** The text of {{lab:KEY|FORMAT}}: the median ("64%"), the quartiles ("55–70%") or the extremes. */
export function labText(results, key, format = 'median') {
  if (!LAB_FORMATS.includes(format))
    throw new Error(`lesson: {{lab:${key}|${format}}}: unknown format "${format}" (known: ${LAB_FORMATS.join(', ')})`);
  const cell = labCell(results, key);
  if (format === 'median') return labPercent(cell.median);
  const [low, high] = format === 'iqr' ? [cell.q1, cell.q3] : [cell.min, cell.max];
  return `${Math.round(low * 100)}–${labPercent(high)}`;
}

/**
 * The text of {{lab-sink:SIZE/TASK/MODEL/LAYER/FACTOR}}: the median share of attention layer LAYER (1, 2, …)
 * of MODEL puts on position 0 at FACTOR× the trained length ("52%"), from the file's sink_share.
 */
export function labSink(results, key) {
  const marker = `{{lab-sink:${key}}}`;
  const fail = (what) => {
    throw new Error(`lesson: ${marker}: ${what}`);
  };
  const parts = key.split('/');
  if (parts.length !== 5) fail('a sink share reads {{lab-sink:SIZE/TASK/MODEL/LAYER/FACTOR}}');
  const [size, task, model, layerText, factorText] = parts;
  const run = results.sizes?.[size]?.runs?.[task]?.[model];
  if (!run?.sink_share) fail(`no sink shares recorded for ${size}/${task}/${model}`);
  const row = run.sink_share[Number(layerText) - 1];
  if (!/^[1-9][0-9]*$/.test(layerText) || !row)
    fail(`unknown layer "${layerText}" (the file has 1 to ${run.sink_share.length})`);
  const index = Number(factorText) - 1;
  if (!/^[1-9][0-9]*$/.test(factorText) || row[index] === undefined)
    fail(`unknown factor "${factorText}" (the file has 1 to ${row.length})`);
  return labPercent(row[index]);
}

/**
 * The text of {{lab-setup:KEY}}: how the lab was run, from the file. `seeds` is the number of seeds;
 * `SIZE/FIELD` one field of a size's config ("default/train_length" → "16", "larger/d_model" → "64").
 */
export function labSetup(results, key) {
  const marker = `{{lab-setup:${key}}}`;
  if (key === 'seeds') return String(results.seeds);
  const [size, field, ...rest] = key.split('/');
  const config = results.sizes?.[size]?.config;
  if (!config || rest.length || typeof config[field] !== 'number')
    throw new Error(
      `lesson: ${marker}: unknown setting (known: seeds, or SIZE/FIELD with SIZE one of ${known(results.sizes)} and FIELD one of ${known(Object.values(results.sizes ?? {})[0]?.config)})`,
    );
  return String(config[field]);
}

/**
 * The markdown table of {{lab-table:SIZE/TASK}}: a row per variant, a column per factor, each cell
 * "median (q1–q3)", then a caption saying where the numbers come from. `words` are the texts the
 * table writes, in the page's language (render-lesson.mjs's labTableWords): `scheme` (the first
 * column's heading), `variants` (a row name per variant), `tasks` (a name per task),
 * `cell(median, quartiles)` and `caption(facts)`.
 */
export function labTable(results, key, words) {
  const parts = key.split('/');
  if (parts.length !== 2)
    throw new Error(
      `lesson: {{lab-table:${key}}}: a lab table reads {{lab-table:SIZE/TASK}}, e.g. {{lab-table:default/lookup}}`,
    );
  const [size, task] = parts;
  const header = `| ${words.scheme} | ${LAB_TABLE_FACTORS.map((f) => `${f}×`).join(' | ')} |`;
  const rule = `|---|${LAB_TABLE_FACTORS.map(() => '---').join('|')}|`;
  let rows;
  try {
    rows = LAB_VARIANTS.map((variant) => {
      const cells = LAB_TABLE_FACTORS.map((f) => {
        const cellKey = `${size}/${task}/${variant}/${f}`;
        return words.cell(labText(results, cellKey), labText(results, cellKey, 'iqr'));
      });
      return `| ${words.variants[variant]} | ${cells.join(' | ')} |`;
    });
  } catch (error) {
    // The cell's own message says what is unknown; the table marker is what the author wrote.
    throw new Error(`lesson: {{lab-table:${key}}}, at ${error.message.replace(/^lesson: /, '')}`);
  }
  const config = results.sizes[size].config;
  const caption = words.caption({
    task: words.tasks[task] ?? task,
    first: LAB_TABLE_FACTORS[0],
    last: LAB_TABLE_FACTORS.at(-1),
    length: config.train_length,
    seeds: results.seeds,
    width: config.d_model,
    steps: config.steps,
    command: results.command,
  });
  return [header, rule, ...rows, '', `*${caption}*`].join('\n');
}

/**
 * The lesson's markdown with every {{lab:…}}, {{lab-setup:…}} and {{lab-table:…}} marker replaced by its text (a
 * table marker stands alone on its line; `words` as labTable takes them). Throws on the first marker the file cannot answer,
 * naming it.
 */
export function expandLabMarkers(markdown, results, words) {
  return markdown.replace(MARKER, (whole, kind, key, format) => {
    if (kind === 'lab-table') {
      if (format !== undefined) throw new Error(`lesson: ${whole}: a lab table takes no format`);
      return labTable(results, key, words);
    }
    if (kind === 'lab-sink') {
      if (format !== undefined) throw new Error(`lesson: ${whole}: a sink share takes no format`);
      return labSink(results, key);
    }
    if (kind === 'lab-setup') {
      if (format !== undefined) throw new Error(`lesson: ${whole}: a setting takes no format`);
      return labSetup(results, key);
    }
    return labText(results, key, format);
  });
}

/** Whether the markdown quotes the lab at all (the results file is read only then). */
export function hasLabMarkers(markdown) {
  return /\{\{lab(?:-table|-setup|-sink)?:/.test(markdown);
}
