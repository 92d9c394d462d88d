// The lesson's plain pages as the build writes them: the instructor guide's figures (time on task
// from the lesson's text, the self-test's counts and pass mark) computed rather than typed, the
// accessibility statement saying what the suites really run, its contact address checked like
// siteUrl, and every lesson page's footer leading to the three pages wherever the page is.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { lessonParts, readingOf, roundedMinutes, timeOnTask } from '../../web/site-builder/time-on-task.mjs';
import { selfTestFacts } from '../../web/site-builder/instructor-guide.mjs';
import {
  accessibilityContact,
  accessibilityStatementBody,
  testedFacts,
} from '../../web/site-builder/accessibility-statement.mjs';
import { INFO_PAGES } from '../../web/site-builder/info-pages.mjs';
import { MASTERY_SCORE, SELF_TEST_ITEMS } from '../../web/js/self-test/self-test-items.js';
import { distDir as dist } from './engine-loader.mjs';

const repo = new URL('../../', import.meta.url).pathname;
const read = (file) => readFileSync(file, 'utf8');
const guide = read(join(dist, 'instructor-guide.html'));
const statement = read(join(dist, 'accessibility.html'));
/** A page's text, tags dropped and spaces collapsed (entities for quotes left as written). */
const text = (html) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');

test('readingOf counts the words a reader reads: markers as their text, code and formulas as lines', () => {
  const sample = [
    '<!-- a comment of seven words that nobody reads -->',
    '## A heading {#here}',
    'Two words {{live:order.none}} and {{ref:primer.notation|the primer}}, with $x$ inline.',
    '<div class="graded-item" data-item="why_positions"></div>',
    '```python check=x',
    'a = 1',
    '',
    'b = 2',
    '```',
    '```chart order-blindness',
    'A caption of five words',
    '```',
    '```diagram bag-of-tiles',
    '```',
    '$$',
    'x^2',
    '$$',
    '| a | b |',
    '|---|---|',
  ].join('\n');
  // "A heading" 2; "Two words N and the primer, with X inline." 9; the caption 5; the table 2.
  assert.deepEqual(readingOf(sample), { words: 18, codeLines: 2, formulas: 1 });
});

test('lessonParts cuts lesson.md at its ## headings, by id', () => {
  const parts = lessonParts(read(join(repo, 'web/lesson/lesson.md')));
  assert.deepEqual(
    parts.map((p) => p.id),
    ['intro', 'level-1', 'level-2', 'in-20-seconds', 'self-test', 'papers', 'further-reading'],
  );
});

test("the guide's time on task is the build's computation from lesson.md, not a typed figure", () => {
  const time = timeOnTask(read(join(repo, 'web/lesson/lesson.md')), SELF_TEST_ITEMS);
  assert.ok(time.bothMinutes > time.level1Minutes * 2, 'Level 2 is most of the reading');
  assert.ok(time.level1Minutes > 5 && time.bothMinutes < 120, `${time.level1Minutes}, ${time.bothMinutes}`);
  const page = text(guide);
  assert.ok(page.includes(`About ${roundedMinutes(time.level1Minutes)} minutes for Level 1 alone`), 'Level 1 figure');
  assert.ok(page.includes(`about ${roundedMinutes(time.bothMinutes)} minutes for both levels`), 'both levels figure');
  assert.ok(page.includes(`(${time.level1Minutes.toFixed(1)} min)`));
  assert.ok(page.includes(`(${time.bothMinutes.toFixed(1)} min)`));
  for (const part of time.parts)
    assert.ok(page.includes(part.words.toLocaleString('en-US')), `${part.id}: ${part.words} words`);
  // A lesson without one of the parts the estimate adds up is refused, naming it.
  assert.throws(() => timeOnTask('## Level 1 {#level-1}\ntext\n', SELF_TEST_ITEMS), /lesson\.md has no part "level-2"/);
});

test("the guide's self-test facts are the items' own: 15 checks (8 + 7), 6 predictions, 80% = 12 of 15", () => {
  const facts = selfTestFacts(SELF_TEST_ITEMS, MASTERY_SCORE);
  assert.deepEqual(
    {
      checks: facts.checks,
      level1: facts.level1,
      level2: facts.level2,
      predictions: facts.predictions,
      passAt: facts.passAt,
    },
    { checks: 15, level1: 8, level2: 7, predictions: 6, passAt: 12 },
  );
  const page = text(guide);
  assert.ok(page.includes('15 graded checks : 8 at Level 1 and 7 at Level 2'), 'counts');
  assert.ok(page.includes('6 predictions inside Level 2’s sections'));
  assert.ok(page.includes('80% passes : 12 of 15 right (80%) passes, 11 (73%) does not'));
  // Every question is listed by its prompt and id, and no answer is given away.
  for (const item of SELF_TEST_ITEMS) {
    assert.ok(guide.includes(`<code>${item.id}</code>`), item.id);
    for (const choice of item.choices ?? [])
      assert.ok(!guide.includes(choice.why.replace(/"/g, '&quot;')), `${item.id}: a choice's explanation`);
  }
  // The pass mark follows the share: at 0.75 it is 12 of 15 (11.25 rounded up).
  assert.equal(selfTestFacts(SELF_TEST_ITEMS, 0.75).passAt, 12);
});

test('the guide gives the Moodle settings, what each package reports and where the answer key is', () => {
  const page = text(guide);
  for (const phrase of [
    'Moodle leaves the grade to pass at 0',
    'Maximum grade (Grade): 100',
    'Grading method (Grade): Highest grade',
    'Attempts grading (Attempts management): Highest attempt',
    'Mastery score overrides status (Compatibility settings)',
    'Display package (Appearance): New window, with Display content structure in player : Hidden',
    '666 px tall in a 1280 × 900 browser window',
    'Display content structure in player : Hidden',
    'Show Navigation : No',
    'Number of attempts',
    'Force new attempt',
    'Delete selected attempts',
    'cmi.core.score.raw from 0 to 100',
    'cmi.score.scaled',
    'positional-lesson-answer-key.html',
  ])
    assert.ok(page.includes(phrase), phrase);
});

test("the guide's Moodle advice follows Moodle 4.5's screens and what its player does", () => {
  const page = text(guide);
  const moodle = page.slice(page.indexOf('Setting it up in Moodle'), page.indexOf('Setting it up in Canvas'));
  // The activity form has no grade to pass: it is set on the grade item, in the gradebook.
  assert.doesNotMatch(moodle, /Grade to pass \(Grade\)/);
  assert.match(
    moodle,
    /open Grades , then Gradebook setup ; in the activity’s row open its menu and choose Edit grade item , press Show more\.\.\. in the window that opens, and set Grade to pass to 80/,
  );
  // Last completed attempt counts a failed 2004 attempt (it is completed), not a failed 1.2 one.
  assert.doesNotMatch(moodle, /leaves out attempts whose status is failed/);
  assert.match(moodle, /with the 2004 zip a failed attempt is completed \(and failed\), so it counts/);
  assert.match(moodle, /With the 1.2 zip a failed attempt is failed , so it is skipped/);
  // A new window needs the course structure hidden too.
  assert.match(moodle, /New window, with Display content structure in player : Hidden/);
  assert.match(moodle, /941 of 1,280 px/);
  // The activity page's 0% for an unfinished attempt or a preview, said before a teacher is alarmed.
  assert.match(
    moodle,
    /“Grade for attempt 1: 0%” on the activity’s page for an attempt that is not finished, or a preview/,
  );
  // The 1.2 zip for Moodle, and why.
  assert.match(moodle, /Use the SCORM 1.2 zip \(.*\) in Moodle\. Moodle documents its SCORM 2004 support as partial/);
  assert.match(moodle, /Disable preview mode/);
  // Canvas's steps, as Moodle's are given.
  const canvas = page.slice(page.indexOf('Setting it up in Canvas'), page.indexOf('Resetting attempts'));
  for (const step of ['open SCORM and upload the 1.2 zip', 'Tick Create assignment', 'set the points to 100'])
    assert.ok(canvas.includes(step), step);
});

test('accessibilityContact: null, or an http(s) or mailto: address; anything else is refused, naming the field', () => {
  assert.equal(accessibilityContact(null), null);
  assert.equal(accessibilityContact(undefined), null);
  for (const ok of ['mailto:access@example.org', 'https://example.org/accessibility', 'http://127.0.0.1:8000/report'])
    assert.equal(accessibilityContact(ok), ok);
  for (const bad of [
    '',
    'access@example.org',
    'mailto:nobody',
    'mailto:',
    'javascript:alert(1)',
    'ftp://example.org/',
    'https://user:pw@example.org/',
    'https://example.org/a b',
    42,
    {},
  ])
    assert.throws(
      () => accessibilityContact(bad),
      (error) =>
        /web\/site-config\.json "accessibilityContact" must be null or an http\(s\) or mailto: address/.test(
          error.message,
        ) && error.message.endsWith(`not ${JSON.stringify(bad)}`),
      JSON.stringify(bad),
    );
  const config = JSON.parse(read(join(repo, 'web/site-config.json')));
  assert.ok('accessibilityContact' in config, 'the field is listed, so a host sees where to set it');
  assert.doesNotThrow(() => accessibilityContact(config.accessibilityContact));
});

test("the statement's contact line is the configured address, shown as text", () => {
  const facts = testedFacts();
  assert.match(accessibilityStatementBody({ contact: null, facts }), /No contact address is set for this copy/);
  const body = accessibilityStatementBody({ contact: 'mailto:a11y@example.org?subject=<b>', facts });
  assert.match(body, /<a href="mailto:a11y@example\.org\?subject=&lt;b&gt;">a11y@example\.org\?subject=&lt;b&gt;<\/a>/);
});

test('the statement says what the suites run: axe-core from package.json, the views, tags and engines of the suites', () => {
  const facts = testedFacts();
  const pkg = JSON.parse(read(join(repo, 'package.json')));
  assert.equal(facts.axe, pkg.devDependencies['axe-core']);
  const suite = read(join(repo, 'tests/browser/accessibility.test.mjs'));
  assert.deepEqual(facts.tags, JSON.parse(/const WCAG_TAGS = (\[[^\]]*\])/.exec(suite)[1].replace(/'/g, '"')));
  // Five looks of the lesson in three loads, each load's name saying its looks: both themes, at a
  // phone's width, the desktop's and the wide one's, in English and in Chinese.
  assert.ok(facts.views.length >= 3);
  const said = facts.views.map((v) => v.name).join('; ');
  for (const look of ['360 px', '1280 px', '1600 px', 'light theme', 'dark (toggle)', 'dark theme', 'Chinese page'])
    assert.ok(said.includes(look), `the views name ${look}: ${said}`);
  for (const view of facts.views) assert.ok(suite.includes(`name: '${view.name}'`), view.name);
  // The views Firefox and WebKit take only under --long are the ones the suite marks so.
  for (const view of facts.views) {
    const entry = suite.slice(suite.indexOf(`name: '${view.name}'`)).split(/\n {4}\}/)[0];
    assert.equal(/longInOtherEngines: true/.test(entry), view.long, view.name);
  }
  assert.ok(facts.views.some((v) => v.long) && facts.views.some((v) => !v.long));
  assert.ok(facts.allEngineSuites.includes('accessibility'));
  const page = text(statement);
  assert.ok(page.includes(`axe-core ${facts.axe}`));
  for (const view of facts.views) {
    assert.ok(page.includes(view.name), view.name);
    const item = statement.slice(statement.indexOf(`<li>${view.name}`)).split('</li>')[0];
    assert.equal(item.includes('when the long checks run'), view.long, `the statement says where ${view.name} runs`);
  }
  assert.ok(page.includes('(WCAG) 2.2 at level AA'));
  for (const engine of ['Chromium', 'Firefox ESR', 'WebKitGTK']) assert.ok(page.includes(engine), engine);
  // What the lesson's axe run does not cover is said, not claimed.
  if (!facts.tags.includes('wcag22aa')) assert.ok(page.includes('are not checked automatically on the lesson page'));
  assert.ok(page.includes('No screen reader has been used in the tests'));
});

test("every lesson page's footer leads to the three pages, wherever the page sits", () => {
  const lessonPages = [
    ...['index.html', 'positional-lesson.html'].flatMap((f) => [join(dist, f), join(dist, 'zh-Hans', f)]),
    ...readdirSync(join(dist, '..', 'dist-single'))
      .filter((f) => f.startsWith('positional-lesson'))
      .map((f) => join(dist, '..', 'dist-single', f)),
    join(dist, '..', 'dist-course', 'positional-lesson.html'),
    join(dist, '..', 'dist-course', 'zh-Hans', 'positional-lesson.html'),
  ];
  for (const file of lessonPages) {
    const footer = /<footer class="site-footer">([\s\S]*?)<\/footer>/.exec(read(file))?.[1];
    assert.ok(footer, `${file} has a footer`);
    for (const { file: target } of Object.values(INFO_PAGES)) {
      const href = new RegExp(`href="([^"]*${target.replace('.', '\\.')})"`).exec(footer)?.[1];
      assert.ok(href, `${file}: no link to ${target}`);
      assert.ok(existsSync(resolve(dirname(file), href)), `${file}: ${href} leads nowhere`);
    }
  }
});
