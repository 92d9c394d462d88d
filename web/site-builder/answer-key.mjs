// The self-test's answer key, for teachers only (positional-lesson-answer-key.html beside the
// course packages, never inside them or on the site): every question's prompt, the right choice
// (its text and id) or the number the lesson's engine computes with the tolerance the page allows,
// and for each prediction what the figure then shows, with the engine's numbers.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { computeEngineResults, liveText } from '../js/prose/live-values.js';
import { MASTERY_SCORE, SELF_TEST_ITEMS, itemForAttempt, slotOf } from '../js/self-test/self-test-items.js';
import { escapeHtml, infoPagePolicy, pagesCss } from './info-pages.mjs';

/** The engine the site ships (dist/engine.mjs over dist/engine.wasm), loaded in Node. */
export async function loadSiteEngine(dist) {
  const files = ['engine.mjs', 'engine.wasm'];
  const missing = files.filter((f) => !existsSync(join(dist, f)));
  if (missing.length)
    throw new Error(
      `the answer key needs the built site's engine: ${dist} lacks ${missing.join(', ')} (build-scripts/build)`,
    );
  const { default: createEngine } = await import(pathToFileURL(join(dist, 'engine.mjs')).href);
  return createEngine({ wasmBinary: readFileSync(join(dist, 'engine.wasm')) });
}

/**
 * The attempt whose numbers the key works through: each learner's attempt draws its own (from its
 * seed), so the key gives the formula and this one draw as an example.
 */
export const WORKED_SEED = '00000000';

/** The range of answers the page accepts for a numeric item whose right answer is `value`. */
export function acceptedRange(item, value) {
  const allowed = item.relative ? Math.abs(value) * item.tolerance : item.tolerance;
  return { min: value - allowed, max: value + allowed };
}

/**
 * Each item's key: { id, level, kind, prompt, graded, … } with, for a number, `formula`, `tolerance`
 * and one worked draw (the attempt with WORKED_SEED): its `prompt`, `params`, `value` (the
 * engine's) and `range`; for a choice or a prediction, `right` ({ id, text }) and
 * `others` ({ id, text, why }; `right` null and every choice in `others` for an open prediction); for a prediction, `reveal` (the text the page shows, its numbers the
 * engine's). Throws, naming the item, when one has no right choice or its number is not finite.
 */
export function answerKey(engine, items = SELF_TEST_ITEMS) {
  const results = computeEngineResults(engine);
  return items.map((item) => {
    const base = {
      id: item.id,
      level: item.level,
      objective: item.objective,
      // The check this item is a variant of (its placeholder); an attempt asks one variant of each.
      slot: slotOf(item),
      variants: items.filter((other) => slotOf(other) === slotOf(item)).length,
      kind: item.kind,
      prompt: item.prompt,
      graded: item.kind !== 'predict',
    };
    if (item.kind === 'numeric') {
      const worked = itemForAttempt(item, WORKED_SEED);
      const value = worked.answer(engine);
      if (!Number.isFinite(value)) throw new Error(`answer key: ${item.id}'s answer is ${value}, not a number`);
      return {
        ...base,
        prompt: worked.prompt,
        drawn: Boolean(item.draw),
        formula: item.formulaText ?? null,
        params: worked.params ?? null,
        value,
        range: acceptedRange(item, value),
        tolerance: item.toleranceText,
        explain: worked.explain,
      };
    }
    const right = item.choices.filter((c) => c.correct);
    // A prediction may be open (no right choice: the lesson answers it with measurements per case).
    const open = item.kind === 'predict' && right.length === 0;
    if (right.length !== 1 && !open)
      throw new Error(`answer key: ${item.id} has ${right.length} right choices, not one`);
    const key = {
      ...base,
      right: open ? null : { id: right[0].id, text: right[0].text, why: right[0].why },
      others: item.choices.filter((c) => !c.correct).map(({ id, text, why }) => ({ id, text, why })),
    };
    if (item.kind === 'predict')
      key.reveal = item.reveal.map((part) => (typeof part === 'string' ? part : liveText(part.live, results))).join('');
    return key;
  });
}

/** A number as the key prints it: enough digits to check a typed answer against. */
export function keyNumber(value) {
  const rounded = Number(value.toPrecision(8));
  return rounded.toLocaleString('en-US', { maximumFractionDigits: 8, useGrouping: false });
}

/** The key as a page of its own (a teacher opens it from disk: its one style is inline, allowed by hash). */
export function answerKeyPage(keys, { mastery = MASTERY_SCORE } = {}) {
  const style = `\n${pagesCss()}\n`;
  const checks = keys.filter((k) => k.graded);
  const item = (k, n) => {
    const heading = `<h3 id="item-${escapeHtml(k.id)}">${n}. ${escapeHtml(k.prompt)}</h3>
<p class="item-id">Level ${k.level}, ${k.kind === 'numeric' ? 'a number' : k.kind === 'predict' ? 'a prediction (not graded)' : 'a choice'}; objective <code>${escapeHtml(k.objective)}</code>; id <code>${escapeHtml(k.id)}</code>${k.variants > 1 ? `; one of ${k.variants} variants of the check <code>${escapeHtml(k.slot)}</code>, one drawn per attempt` : ''}</p>`;
    if (k.kind === 'numeric')
      return `${heading}
${
  k.drawn
    ? `<p>The numbers in this question are drawn for each attempt (a retake draws new ones; a resumed attempt keeps them), so no two learners need have the same answer. <strong>Formula: ${escapeHtml(k.formula)}</strong>, computed by the lesson's engine; the course site records each attempt's own right value. Worked draw (attempt seed <code>${WORKED_SEED}</code>, the question as above):</p>\n`
    : ''
}<p><strong>Answer: ${escapeHtml(keyNumber(k.value))}</strong>, as the engine computes it. Accepted: ${escapeHtml(k.tolerance)}, that is from ${escapeHtml(keyNumber(k.range.min))} to ${escapeHtml(keyNumber(k.range.max))}.</p>
<p>${escapeHtml(k.explain)}</p>`;
    if (!k.right)
      return `${heading}
<p><strong>No right choice</strong>: the lesson answers it with measurements that differ from case to case; the page records the choice.</p>
${k.reveal ? `<p>The page then shows: ${escapeHtml(k.reveal)}</p>` : ''}
<p>The choices, and what each bets on:</p>
<ul>${k.others.map((o) => `<li>(<code>${escapeHtml(o.id)}</code>) ${escapeHtml(o.text)} ${escapeHtml(o.why)}</li>`).join('\n')}</ul>`;
    return `${heading}
<p><strong>${k.graded ? 'Right choice' : 'What happens'}</strong> (<code>${escapeHtml(k.right.id)}</code>): <strong>${escapeHtml(k.right.text)}</strong> ${escapeHtml(k.right.why)}</p>
${k.reveal ? `<p>The page then shows: ${escapeHtml(k.reveal)}</p>` : ''}
<p>The other choices, and the misconception each names:</p>
<ul>${k.others.map((o) => `<li>(<code>${escapeHtml(o.id)}</code>) ${escapeHtml(o.text)} ${escapeHtml(o.why)}</li>`).join('\n')}</ul>`;
  };
  const level = (n) => checks.filter((k) => k.level === n);
  let counter = 0;
  const section = (title, list) => `<h2>${escapeHtml(title)}</h2>\n${list.map((k) => item(k, ++counter)).join('\n')}`;
  return `<!doctype html>
<!-- The self-test's answer key, for teachers only: written by web/site-builder/answer-key.mjs beside the
     course packages (build-scripts/package). It is in no package and not on the site. -->
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${infoPagePolicy(style)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Answer key (teachers only): Positional information in transformers</title>
<style>${style}</style>
</head>
<body>
<main id="main">
<h1>Answer key, for teachers only</h1>
<p class="note">Keep this file where only teachers can read it. Do not upload it to the course site: a
course site serves every file of a package to its learners.</p>
<p>${checks.length} graded checks (${level(1).length} at Level 1, ${level(2).length} at Level 2) and
${keys.length - checks.length} predictions, which are recorded but not graded. ${Math.round(mastery * 100)}% of the checks
right passes. The page shows the choices in an order of their own for each attempt; the ids below
are what the course site records as the learner’s response. Numbers are the lesson engine’s own.</p>
${section('Level 1 checks', level(1))}
${section('Level 2 checks', level(2))}
${section(
  'Predictions (not graded)',
  keys.filter((k) => !k.graded),
)}
</main>
</body>
</html>
`;
}
