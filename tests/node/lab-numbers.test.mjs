// The length lab's numbers in the lesson come from tests/bench/results/length-lab.json: every
// {{lab:…}}, {{lab-setup:…}} and {{lab-table:…}} of each language's lesson prints what the file holds
// (read here on its own, not through lab-results.mjs), and a marker the file cannot answer stops the
// build, naming the marker.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { renderLesson } from '../../web/site-builder/render-lesson.mjs';
import { LAB_VARIANTS, loadLabResults } from '../../web/site-builder/lab-results.mjs';
import { extractCppSnippets } from '../../web/site-builder/cpp-snippets.mjs';
import { lessonLanguages } from '../../web/site-builder/build-site.mjs';
import { LIVE_CLAIMS, LIVE_PARAMETERS, LIVE_QUANTITIES, PARAMETER_ECHOES } from '../../web/js/prose/live-values.js';
import { CHARTS } from '../../web/js/charts/index.js';
import { chartParts } from '../../web/site-builder/chart-parts.mjs';

const ROOT = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, ROOT), 'utf8');
const RESULTS = JSON.parse(read('tests/bench/results/length-lab.json'));

/** One cell of the file, found the way its layout reads: runs[task][model].accuracy[variant][length index]. */
function cell(size, task, variant, factor) {
  const model = variant.replace(/\+(pi|ntk|yarn)$/, ''); // "rope+ssmax+pi" is the "rope+ssmax" model's
  const run = RESULTS.sizes[size].runs[task][model];
  const at = run.eval_lengths.indexOf(factor * RESULTS.sizes[size].config.train_length);
  assert.ok(at >= 0, `${size}/${task}/${variant}/${factor}: no such length in the file`);
  return run.accuracy[variant][at];
}
const percent = (share) => `${Math.round(share * 100)}%`;
const spread = (low, high) => `${Math.round(low * 100)}–${percent(high)}`;

/** What {{lab:…}} or {{lab-setup:…}} must print, from the file. */
function expected(kind, key, format) {
  if (kind === 'lab-sink') {
    const [size, task, model, layer, factor] = key.split('/');
    return percent(RESULTS.sizes[size].runs[task][model].sink_share[layer - 1][factor - 1]);
  }
  if (kind === 'lab-setup') {
    if (key === 'seeds') return String(RESULTS.seeds);
    const [size, field] = key.split('/');
    return String(RESULTS.sizes[size].config[field]);
  }
  const [size, task, variant, factor] = key.split('/');
  const c = cell(size, task, variant, Number(factor));
  if (format === 'iqr') return spread(c.q1, c.q3);
  if (format === 'range') return spread(c.min, c.max);
  return percent(c.median);
}

const INLINE = /\{\{(lab|lab-setup|lab-sink):([^}|]+)(?:\|([^}]+))?\}\}/g;
const TABLE = /^\{\{lab-table:([^}]+)\}\}$/gm;

const options = {
  diagrams: JSON.parse(read('web/lesson/diagrams.json')),
  links: JSON.parse(read('web/site-config.json')).links,
  cppSnippets: extractCppSnippets(new URL('cpp/src', ROOT).pathname),
  liveQuantities: Object.keys(LIVE_QUANTITIES),
  charts: Object.keys(CHARTS),
  liveParameters: LIVE_PARAMETERS,
  parameterEchoes: PARAMETER_ECHOES,
  liveClaims: LIVE_CLAIMS,
  chartParts: await chartParts(),
};
const languages = lessonLanguages();
const lessons = readdirSync(new URL('web/lesson/', ROOT))
  .map((file) => /^lesson(?:\.([A-Za-z-]+))?\.md$/.exec(file))
  .filter(Boolean)
  .map(([file, code = 'en']) => ({
    file,
    markdown: read(`web/lesson/${file}`),
    language: languages.find((l) => l.code === code) ?? { code, interface: {} },
  }));

/** The rows of every table in `html` whose first heading is `heading`: arrays of the cells' text. */
function tableRows(html, heading) {
  const tables = [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((m) => m[1]);
  return tables
    .filter((t) => new RegExp(`<th[^>]*>${heading}</th>\\s*<th[^>]*>1×</th>`).test(t))
    .map((t) =>
      [...t.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
        .map((row) => [...row[1].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1].trim()))
        .filter((cells) => cells.length),
    );
}

describe('the length lab numbers in the lesson', () => {
  for (const { file, markdown, language } of lessons) {
    test(`${file}: every inline lab number is the file's value`, () => {
      const used = [...markdown.replace(/^<!--[\s\S]*?-->/, '').matchAll(INLINE)];
      assert.ok(used.length >= 20, `${file} quotes the lab ${used.length} times`);
      // The same lesson with each marker replaced by the value read here renders to the same page.
      const byHand = markdown.replace(
        /^(<!--[\s\S]*?-->)([\s\S]*)$/,
        (whole, comment, body) =>
          `${comment}${body.replace(INLINE, (m, kind, key, format) => expected(kind, key, format))}`,
      );
      const rendered = renderLesson(markdown, { ...options, language }).bodyHtml;
      const fromFile = renderLesson(byHand, { ...options, language }).bodyHtml;
      assert.equal(rendered, fromFile);
      assert.doesNotMatch(rendered, /\{\{lab/);
    });

    test(`${file}: every lab table holds the file's medians and quartiles`, () => {
      const tables = [...markdown.matchAll(TABLE)].map((m) => m[1]);
      assert.ok(tables.length >= 1, `${file} has no lab table`);
      const html = renderLesson(markdown, { ...options, language }).bodyHtml;
      const t = (english) => language.interface?.[english] ?? english;
      const found = tableRows(html, t('scheme'));
      assert.equal(found.length, tables.length, 'one rendered table per marker');
      tables.forEach((key, i) => {
        const [size, task] = key.split('/');
        const rows = found[i];
        assert.equal(rows.length, LAB_VARIANTS.length, `${key}: a row per variant`);
        LAB_VARIANTS.forEach((variant, r) => {
          const want = [1, 2, 4, 8].map((f) => {
            const c = cell(size, task, variant, f);
            // "median (q1–q3)", the brackets as the page's language writes them.
            return t('{median} ({quartiles})')
              .replace('{median}', percent(c.median))
              .replace('{quartiles}', spread(c.q1, c.q3));
          });
          assert.deepEqual(rows[r].slice(1), want, `${key}: ${variant}`);
        });
        // The caption names the seeds and the command that wrote the file.
        assert.ok(html.includes(RESULTS.command.replaceAll('&', '&amp;')), `${key}: the command`);
      });
    });
  }

  test('the Level 1 sentence gives the headline numbers and links to the lab', () => {
    const { bodyHtml } = renderLesson(lessons.find((l) => l.file === 'lesson.md').markdown, options);
    const sentence = bodyHtml.slice(bodyHtml.indexOf('href="#length-lab"'), bodyHtml.indexOf('Pooling that forgets'));
    for (const variant of ['rope+yarn', 'rope', 'rope+pi'])
      assert.match(sentence, new RegExp(`\\b${percent(cell('default', 'lookup', variant, 4).median)}`), variant);
  });
});

describe('lab markers the file cannot answer stop the build', () => {
  const lesson = (body) => `# A lesson {#top}\n\nIntro.\n\n## One {#one}\n\n${body}\n`;
  const known = { diagrams: {}, links: {}, cppSnippets: new Map(), liveQuantities: [], charts: [] };
  const results = loadLabResults();
  const refuses = (marker, why) =>
    assert.throws(() => renderLesson(lesson(`It held ${marker}.`), { ...known, labResults: results }), {
      message: new RegExp(`${marker.replace(/[{}|+]/g, '\\$&')}: ${why}`),
    });

  test('a known marker renders', () => {
    const { bodyHtml } = renderLesson(lesson('It held {{lab:larger/copy/alibi/2|range}}.'), known);
    const c = cell('larger', 'copy', 'alibi', 2);
    assert.match(bodyHtml, new RegExp(`It held ${spread(c.min, c.max)}\\.`));
  });

  test('an unknown size, task, variant or factor is named with what the file has', () => {
    refuses('{{lab:huge/lookup/rope/4}}', 'unknown size "huge" \\(the file has: default, larger\\)');
    refuses('{{lab:default/lookupp/rope/4}}', 'unknown task "lookupp"');
    refuses('{{lab:default/lookup/rope+xpos/4}}', 'unknown variant "rope\\+xpos"');
    refuses('{{lab:default/lookup/nope/4}}', 'unknown variant "nope"');
    refuses('{{lab:default/lookup/rope/16}}', 'unknown factor "16"');
    refuses('{{lab:default/lookup/rope/0}}', 'unknown factor "0"');
    refuses('{{lab:default/lookup/rope}}', 'a lab number reads');
    refuses('{{lab:default/lookup/rope/4|mean}}', 'unknown format "mean"');
    refuses('{{lab-setup:default/width}}', 'unknown setting');
  });

  test('an unknown table is named too', () => {
    assert.throws(() => renderLesson(lesson('{{lab-table:default/sort}}'), { ...known, labResults: results }), {
      message: /^lesson: \{\{lab-table:default\/sort\}\}, at \{\{lab:default\/sort\/none\/1\}\}: unknown task "sort"/,
    });
  });
});

test('the comparison after the prediction holds in the file: which of the six choices leads at 4×', () => {
  // The lesson says which scheme led; the numbers are printed from the file, so the claim must follow it.
  const choices = ['none', 'learned', 'sinusoidal', 'rope', 'rope+yarn', 'alibi'];
  const leader = (size, task) =>
    choices.reduce((best, v) => (cell(size, task, v, 4).median > cell(size, task, best, 4).median ? v : best));
  assert.equal(leader('default', 'lookup'), 'rope+yarn');
  assert.equal(leader('default', 'last-write'), 'rope+yarn');
  assert.equal(leader('larger', 'last-write'), 'alibi');
  assert.equal(leader('default', 'copy'), 'rope+yarn');
});

test('the figure’s recorded medians (web/js/lab/recorded-runs.json) are the results file’s, at the default size', () => {
  const RECORDED = JSON.parse(readFileSync(new URL('../../web/js/lab/recorded-runs.json', import.meta.url), 'utf8'));
  const file = JSON.parse(readFileSync(new URL('../bench/results/length-lab.json', import.meta.url), 'utf8'));
  const { config, runs } = file.sizes.default;
  assert.equal(RECORDED.seeds, file.seeds);
  assert.equal(RECORDED.trainLength, config.train_length);
  assert.equal(RECORDED.steps, config.steps);
  assert.deepEqual(Object.keys(RECORDED.tasks).sort(), Object.keys(runs).sort());
  for (const [task, variants] of Object.entries(RECORDED.tasks)) {
    for (const [variant, medians] of Object.entries(variants)) {
      const cells = runs[task][variant.startsWith('rope+') ? 'rope' : variant].accuracy[variant];
      // Rounded to 4 decimals when written: within half a unit of the last place.
      medians.forEach((m, i) =>
        assert.ok(Math.abs(m - cells[i].median) <= 5e-5, `${task}/${variant} at ${i + 1}×: ${m} vs ${cells[i].median}`),
      );
    }
    assert.equal(Object.keys(variants).length, 8, `${task}: every variant`);
  }
});

test('what section 7 says the lab reproduced holds in the file', () => {
  const median = (task, variant, factor) => cell('default', task, variant, factor).median;
  // CoPE agrees: last-write (Flip-Flop) holds at 8× far above RoPE, the lookup too; copying does not.
  assert.ok(median('last-write', 'cope', 8) >= 0.95);
  assert.ok(median('last-write', 'cope', 8) > median('last-write', 'rope', 8) + 0.3);
  assert.ok(median('lookup', 'cope', 8) >= 0.95);
  assert.ok(median('copy', 'cope', 2) < 0.3);
  // Sinks: the DroPE model parks most of its second layer's lookup attention on position 0, at 1× and
  // 8×; CoPE on last-write little, and less at 8×.
  const sink = (task, model, layer, factor) =>
    RESULTS.sizes.default.runs[task][model].sink_share[layer - 1][factor - 1];
  assert.ok(sink('lookup', 'drope', 2, 1) > 0.4 && sink('lookup', 'drope', 2, 8) > 0.4);
  assert.ok(sink('lookup', 'rope', 2, 1) < sink('lookup', 'drope', 2, 1) / 2);
  assert.ok(sink('lookup', 'rope', 2, 8) < sink('lookup', 'drope', 2, 8) / 2);
  assert.ok(sink('last-write', 'cope', 2, 1) < 0.15);
  assert.ok(sink('last-write', 'cope', 2, 8) < sink('last-write', 'cope', 2, 1));
  // RNoPE-SWA agrees: the lookup holds at 8×, far above plain RoPE, and so does last-write.
  assert.ok(median('lookup', 'rnope-swa', 8) >= 0.95);
  assert.ok(median('lookup', 'rnope-swa', 8) > median('lookup', 'rope', 8) + 0.3);
  assert.ok(median('last-write', 'rnope-swa', 8) > median('last-write', 'rope', 8));
  // …but copying at 2× is no better than the other schemes'.
  const others = ['none', 'learned', 'sinusoidal', 'rope', 'rope+pi', 'rope+ntk', 'rope+yarn', 'alibi'];
  assert.ok(median('copy', 'rnope-swa', 2) <= Math.max(...others.map((v) => median('copy', v, 2))));
  // DroPE does not: below half of the lookup at the trained length, below RoPE on last-write; NoPE never
  // learns the lookup.
  assert.ok(median('lookup', 'drope', 1) < 0.5);
  assert.ok(median('last-write', 'drope', 1) < median('last-write', 'rope', 1));
  assert.ok(median('lookup', 'none', 1) < 0.5);
  // SSMax: within 5 points with RoPE and ALiBi, and more than 5 points up without positions.
  assert.ok(Math.abs(median('lookup', 'rope+ssmax', 4) - median('lookup', 'rope', 4)) < 0.05);
  assert.ok(Math.abs(median('last-write', 'alibi+ssmax', 8) - median('last-write', 'alibi', 8)) < 0.05);
  assert.ok(median('last-write', 'none+ssmax', 8) > median('last-write', 'none', 8) + 0.05);
});
