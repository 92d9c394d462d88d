// The course packages where course sites run them: unzipped onto a host that serves files as
// Moodle does (its own file types, .mjs and .wasm as application/octet-stream, with nosniff), under
// a Moodle-like player (the SCORM run-time, scorm-again, in the parent window and the package's
// launch page in a frame; SCORM 1.2's "mastery score overrides status" as Moodle applies it, and
// Moodle 4.5's own run-time rules from tests/support/moodle-rules.mjs), and
// the cmi5 package against a cmi5 LMS on loopback that enforces cmi5's rules and fails on purpose.
// Learners pass, fail, leave half-way and come back on a fresh profile, start a new attempt,
// switch language mid-test, preview, review an attempt Moodle reopens without its suspend data, and
// answer on a phone; every answer must reach the course site, and the learner sees how far the
// saving has got.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { launchBrowser, dist, watchProblems, recordViolations } from './helpers.mjs';
import { startCourseHost, playerPage, scormRuntime, MOODLE_TYPES } from './course-hosts.mjs';
import { moodleGrade } from '../support/moodle-rules.mjs';
import {
  answerAll,
  answerChoice,
  shownIds,
  shownVariant,
  slotElement,
  waitForFrame,
  FAILED_ITEMS,
  NEARLY_ITEMS,
  GRADED,
  SLOTS as SELF_TEST_ITEMS,
} from './self-test-answers.mjs';
import { SELF_TEST_ITEMS as BANK } from '../../web/js/self-test/self-test-items.js';
import { startLrs } from '../support/lrs.mjs';
import { packageLms } from '../../web/site-builder/package-lms.mjs';
import { encodeRecord } from '../../web/js/lms/record.js';

const courseDir = join(dist, '..', 'dist-course');
let browser;
const folders = {};
const closers = [];

before(async () => {
  browser = await launchBrowser();
  const out = mkdtempSync(join(tmpdir(), 'positional-course-'));
  for (const { kind, lang, file } of packageLms({ course: courseDir, out })) {
    if (lang !== 'en') continue;
    const dir = join(out, kind);
    for (const [path, data] of Object.entries(unzipSync(new Uint8Array(readFileSync(file))))) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), data);
    }
    folders[kind] = dir;
  }
});

after(async () => {
  for (const close of closers) await close();
  await browser?.close();
});

const percent = (wrong) => Math.round((100 * (GRADED.length - wrong.size)) / GRADED.length);

/**
 * A Moodle-like course: the package of `edition` on a host with Moodle's file types and nosniff,
 * and its player page with the LMS's record of the attempt (`preload`). Returns the player's page.
 */
async function openCourse(
  edition,
  {
    preload = {},
    context = null,
    faults = '',
    viewport = { width: 1280, height: 900 },
    frame = {},
    launch = 'index.html',
  } = {},
) {
  const runtime = scormRuntime(edition);
  const masteryOverride = edition === '1.2';
  const host = await startCourseHost({
    root: folders[edition === '1.2' ? 'scorm12' : 'scorm2004'],
    nosniff: true,
    extra: async (url, req, res) => {
      if (url.pathname === '/__player.html') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end(playerPage({ edition, preload, faults, masteryOverride, launch, ...frame }));
        return true;
      }
      if (url.pathname === '/__scorm-again.js') {
        res.writeHead(200, { 'Content-Type': 'application/x-javascript' });
        res.end(runtime.source);
        return true;
      }
      return false;
    },
  });
  closers.push(host.close);
  const ownContext = !context;
  context ??= await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.addInitScript(recordViolations);
  await page.goto(`${host.url}__player.html`);
  // The shell opens the lesson at the course's level (?level=1 or 2), or with no query for both.
  const lesson = await waitForFrame(page, (f) => /\/positional-lesson\.html(\?level=[12])?$/.test(f.url()));
  await lesson.waitForFunction(() =>
    /:(saved|saving|retrying|offline|review|browse)$/.test(document.documentElement.dataset.course ?? ''),
  );
  return { page, lesson, context, problems, host, close: () => (ownContext ? context.close() : page.close()) };
}

/** The learner leaves the way Moodle's "Exit activity" link does: the player page goes, and with it the frames. */
async function leave(page) {
  const calls = () => page.evaluate(() => window.__calls);
  const before = await calls();
  await page.evaluate(() => document.querySelector('iframe').remove());
  return { before, calls: await calls() };
}

const lastSet = (calls, element) => calls.filter(([, e]) => e === element).at(-1)?.[2];
const gradebook = (page, edition) =>
  page.evaluate(
    (e) =>
      e === '1.2'
        ? {
            status: __api.cmi.core.lesson_status,
            raw: __api.cmi.core.score.raw,
            min: __api.cmi.core.score.min,
            max: __api.cmi.core.score.max,
          }
        : {
            completion: __api.cmi.completion_status,
            success: __api.cmi.success_status,
            raw: __api.cmi.score.raw,
            min: __api.cmi.score.min,
            max: __api.cmi.score.max,
            scaled: String(__api.cmi.score.scaled),
          },
    edition,
  );

for (const [edition, wrong, verdict] of [
  ['1.2', NEARLY_ITEMS, 'passed'],
  ['1.2', FAILED_ITEMS, 'failed'],
  ['2004', NEARLY_ITEMS, 'passed'],
  ['2004', FAILED_ITEMS, 'failed'],
]) {
  test(`SCORM ${edition} on a host with Moodle's file types and nosniff: the engine runs, and a learner who ${verdict} gets ${percent(wrong)} in the gradebook`, async () => {
    const preload = edition === '1.2' ? { student_data: { mastery_score: '80' } } : { scaled_passing_score: '0.8' };
    const { page, lesson, problems, close } = await openCourse(edition, { preload });
    assert.equal(await lesson.evaluate(() => document.documentElement.dataset.liveState), 'ready');
    const enabled = await lesson.evaluate(() =>
      [...document.querySelectorAll('.graded-item[data-kind="numeric"] input')].every((i) => !i.disabled),
    );
    assert.ok(enabled, 'every numeric item can be answered');
    await answerAll(lesson, wrong);
    await lesson.waitForFunction(() => document.documentElement.dataset.course.endsWith(':saved'));
    assert.equal(await lesson.locator('.course-status').getAttribute('role'), 'status');
    assert.match(await lesson.locator('.course-status .visually-hidden').textContent(), /^Saved to your course\.$/);
    const { calls } = await leave(page);
    const s = percent(wrong);
    if (edition === '1.2')
      assert.deepEqual(await gradebook(page, edition), { status: verdict, raw: String(s), min: '0', max: '100' });
    else
      assert.deepEqual(await gradebook(page, edition), {
        completion: 'completed',
        success: verdict,
        raw: String(s),
        min: '0',
        max: '100',
        scaled: String(Number(((GRADED.length - wrong.size) / GRADED.length).toFixed(4))),
      });
    assert.equal(calls.filter(([v]) => /Initialize$/.test(v)).length, 1);
    assert.deepEqual(calls.at(-1), [edition === '1.2' ? 'LMSFinish' : 'Terminate']);
    assert.equal(lastSet(calls, edition === '1.2' ? 'cmi.core.exit' : 'cmi.exit'), edition === '1.2' ? '' : 'suspend');
    assert.deepEqual(problems, []);
    await close();
  });
}

test('SCORM 1.2: a learner who leaves half-way is not failed; back on a fresh profile the answers return; a new attempt starts empty', async () => {
  const preload = { student_data: { mastery_score: '80' }, core: { entry: 'ab-initio' } };
  const first = await openCourse('1.2', { preload });
  await answerAll(first.lesson, new Set(), SELF_TEST_ITEMS.slice(0, 5));
  const order = await first.lesson.evaluate(() =>
    [...document.querySelectorAll('.graded-item[data-kind="choice"] input')].map((i) => i.value).join(),
  );
  const { calls } = await leave(first.page);
  // Moodle's override makes a stored score below the mastery "failed": no score may go before the end.
  assert.equal(lastSet(calls, 'cmi.core.score.raw'), undefined);
  assert.equal((await gradebook(first.page, '1.2')).status, 'incomplete');
  assert.equal(lastSet(calls, 'cmi.core.exit'), 'suspend');
  const suspend = lastSet(calls, 'cmi.suspend_data');
  await first.close();
  // Back on another device: the LMS hands back suspend_data with entry resume.
  const again = await openCourse('1.2', {
    preload: { ...preload, core: { entry: 'resume', lesson_status: 'incomplete' }, suspend_data: suspend },
  });
  const restored = await again.lesson.evaluate(() =>
    [...document.querySelectorAll('.graded-item[data-answered]')].map((el) => el.dataset.item),
  );
  assert.deepEqual(
    restored,
    SELF_TEST_ITEMS.slice(0, 5).map((i) => i.id),
  );
  assert.equal(
    await again.lesson.evaluate(() =>
      [...document.querySelectorAll('.graded-item[data-kind="choice"] input')].map((i) => i.value).join(),
    ),
    order,
    'the choices keep the order of the attempt',
  );
  await again.close();
  // A new attempt in the same browser, with the old attempt's answers still in its storage and the LMS's
  // suspend data not cleared: the LMS says ab-initio, so it starts empty.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const fresh = await openCourse('1.2', { preload: { ...preload, suspend_data: suspend }, context });
  assert.equal(await fresh.lesson.locator('.graded-item[data-answered]').count(), 0);
  await fresh.lesson.evaluate(
    (record) => localStorage.setItem('positional-lesson:self-test:v2', record),
    encodeRecord({ seed: '00000000', responses: { why_positions: 'set' } }),
  );
  await fresh.page.reload();
  const reloaded = await waitForFrame(fresh.page, (f) => /\/positional-lesson\.html$/.test(f.url()));
  assert.equal(
    await reloaded.locator('.graded-item[data-answered]').count(),
    0,
    "inside a course the browser's storage is not the memory",
  );
  await context.close();
});

test('SCORM 1.2 set to the Level 1 test: Level 2’s checks are hidden, and Level 1’s alone give the verdict', async () => {
  const { page, lesson, problems, close } = await openCourse('1.2', {
    preload: { student_data: { mastery_score: '80' } },
    launch: 'index.html?level=1',
  });
  const level1 = GRADED.filter((i) => i.level === 1);
  assert.ok(level1.length >= 8);
  assert.equal(await lesson.locator('#self-test-level-2').isVisible(), false);
  assert.equal(await lesson.locator('.graded-item[data-item="rope_score"]').isVisible(), false);
  assert.match(await lesson.locator('[data-self-test-score]').textContent(), new RegExp(`^${level1.length} questions`));
  // One wrong of eight: 88 %, passed.
  await answerAll(lesson, new Set([level1[0].id]), level1);
  await lesson.waitForFunction(() => document.documentElement.dataset.course.endsWith(':saved'));
  const { calls } = await leave(page);
  const percent = Math.round((100 * (level1.length - 1)) / level1.length);
  assert.deepEqual(await gradebook(page, '1.2'), { status: 'passed', raw: String(percent), min: '0', max: '100' });
  assert.equal(calls.filter(([, e]) => /^cmi\.interactions\.\d+\.id$/.test(e ?? '')).length, level1.length);
  assert.deepEqual(problems, []);
  await close();
});

test('SCORM 1.2 set to the Level 1 test: switched to both levels, Level 2’s checks say they are practice and reach nothing', async () => {
  const { page, lesson, problems, close } = await openCourse('1.2', {
    preload: { student_data: { mastery_score: '80' } },
    launch: 'index.html?level=1',
  });
  const level1 = GRADED.filter((i) => i.level === 1);
  const level2 = SELF_TEST_ITEMS.filter((i) => i.level === 2);
  await lesson.getByRole('button', { name: 'Both levels', exact: true }).first().click();
  assert.equal(await lesson.locator('.graded-item[data-item="rope_score"]').isVisible(), true);
  // Every Level 2 item says, before it is answered, that it is practice; no Level 1 item does.
  for (const item of level2) {
    const slot = lesson.locator(`.graded-item[data-item="${item.id}"]`);
    assert.equal(await slot.getAttribute('data-graded'), 'practice', item.id);
    assert.match(
      await slot.locator('.graded-practice').textContent(),
      /^Practice only: your course grades the Level 1 test, so this answer is neither graded nor recorded\.$/,
    );
  }
  assert.equal(await lesson.locator('.graded-item[data-graded]').count(), level2.length);
  // Answered anyway, with Level 1's: the verdict is Level 1's, and no Level 2 answer reaches the LMS.
  await answerAll(lesson, new Set(), [...level2, ...level1]);
  assert.match(
    await lesson.locator('[data-self-test-score]').textContent(),
    new RegExp(`^${level1.length} right of ${level1.length} answered`),
  );
  await lesson.waitForFunction(() => document.documentElement.dataset.course.endsWith(':saved'));
  const { calls } = await leave(page);
  assert.deepEqual(await gradebook(page, '1.2'), { status: 'passed', raw: '100', min: '0', max: '100' });
  const reported = calls.filter(([, e]) => /^cmi\.interactions\.\d+\.id$/.test(e ?? '')).map(([, , v]) => v);
  assert.equal(reported.length, level1.length, reported.join(' '));
  assert.ok(!reported.some((id) => SELF_TEST_ITEMS.find((i) => i.id === id)?.level === 2), reported.join(' '));
  assert.doesNotMatch(lastSet(calls, 'cmi.suspend_data'), /rope_score|predict_/);
  assert.deepEqual(problems, []);
  await close();
});

test('the language switch keeps the one session: answers in English and in Chinese all reach the LMS', async () => {
  const { page, lesson, problems, close } = await openCourse('2004', { preload: { scaled_passing_score: '0.8' } });
  const half = Math.ceil(SELF_TEST_ITEMS.length / 2);
  await answerAll(lesson, new Set(), SELF_TEST_ITEMS.slice(0, half));
  await lesson.locator('.language-switch a[lang="zh-Hans"]').click();
  const chinese = await waitForFrame(page, (f) => /\/zh-Hans\/positional-lesson\.html$/.test(f.url()));
  await chinese.waitForFunction(() => document.documentElement.dataset.course?.startsWith('scorm2004:'));
  const kept = await chinese.evaluate(() =>
    [...document.querySelectorAll('.graded-item[data-answered]')].map((el) => el.dataset.item),
  );
  assert.deepEqual(
    kept.sort(),
    SELF_TEST_ITEMS.slice(0, half)
      .map((i) => i.id)
      .sort(),
  );
  await answerAll(chinese, new Set(), SELF_TEST_ITEMS.slice(half));
  const asked = await shownIds(chinese);
  const { calls } = await leave(page);
  assert.equal(calls.filter(([v]) => v === 'Initialize').length, 1);
  assert.equal(calls.filter(([v]) => v === 'Terminate').length, 1);
  assert.deepEqual(
    calls.filter(([, e]) => /^cmi\.interactions\.\d+\.id$/.test(e ?? '')).map(([, , v]) => v),
    asked,
  );
  assert.equal((await gradebook(page, '2004')).success, 'passed');
  // The Chinese page's questions reach the LMS in Chinese, tagged so.
  const n = SELF_TEST_ITEMS.length - 1;
  assert.match(lastSet(calls, `cmi.interactions.${n}.description`), /^\{lang=zh-Hans\}/);
  assert.deepEqual(problems, []);
  await close();
});

test('SCORM: a run-time that refuses commits keeps the learner told, and nothing is lost once it takes them', async () => {
  const faults = `
    window.__refuse = true;
    window.__committed = [];
    const realCommit = api.LMSCommit.bind(api);
    api.LMSCommit = (p) => {
      if (window.__refuse) return 'false';
      // What a good commit stores: the interactions set so far.
      window.__committed = [...new Set(__calls.filter((c) => c[1]?.startsWith('cmi.interactions.') && c[1].endsWith('.id')).map((c) => c[1] + '=' + c[2]))];
      return realCommit(p);
    };`;
  const { page, lesson, close } = await openCourse('1.2', {
    preload: { student_data: { mastery_score: '80' } },
    faults,
  });
  await answerAll(lesson, new Set(), SELF_TEST_ITEMS.slice(0, 3));
  await lesson.waitForFunction(() => document.documentElement.dataset.course === 'scorm12:retrying', null, {
    timeout: 20000,
  });
  assert.match(await lesson.locator('.course-status .visually-hidden').textContent(), /^Not saved yet/);
  await page.evaluate(() => (window.__refuse = false));
  await lesson.waitForFunction(() => document.documentElement.dataset.course === 'scorm12:saved', null, {
    timeout: 30000,
  });
  // Each answer set again after every refused commit, always into its own slot.
  const stored = await page.evaluate(() => window.__committed);
  assert.deepEqual(
    stored,
    (await shownIds(lesson, SELF_TEST_ITEMS.slice(0, 3))).map((id, n) => `cmi.interactions.${n}.id=${id}`),
  );
  await close();
});

test('SCORM: a run-time whose SetValue blocks 0.1 s gets its values one task at a time, never one long freeze', async (t) => {
  // Each SetValue busy-waits __slowMs, as a run-time that sends a synchronous request per call does.
  // Calls made in one run of script, before its microtasks run (which ends a task's script), share
  // a number: that run held the page at least from the first call's start to the last call's end.
  const faults = `
    window.__slowMs = 0;
    window.__setCalls = [];
    window.__ticks = 0;
    let running = false;
    const realSet = api.SetValue.bind(api);
    api.SetValue = (element, value) => {
      if (!running) {
        running = true;
        window.__ticks += 1;
        queueMicrotask(() => (running = false));
      }
      const start = performance.now();
      while (performance.now() - start < window.__slowMs);
      const answer = realSet(element, value);
      __setCalls.push({ tick: window.__ticks, start, end: performance.now() });
      return answer;
    };`;
  const { page, lesson, close } = await openCourse('2004', {
    preload: { scaled_passing_score: '0.8' },
    faults,
  });
  await lesson.waitForFunction(() => document.documentElement.dataset.course === 'scorm2004:saved', null, {
    timeout: 20000,
  });
  await page.evaluate(() => {
    window.__slowMs = 100;
    window.__setCalls = [];
  });
  await answerAll(lesson, new Set(), SELF_TEST_ITEMS.slice(0, 3));
  await lesson.waitForFunction(() => document.documentElement.dataset.course === 'scorm2004:saved', null, {
    timeout: 60000,
  });
  const calls = await page.evaluate(() => window.__setCalls);
  const tasks = new Map();
  for (const call of calls) {
    const task = tasks.get(call.tick) ?? { start: call.start, end: call.end, calls: 0 };
    task.end = call.end;
    task.calls += 1;
    tasks.set(call.tick, task);
  }
  const longest = Math.max(...[...tasks.values()].map((task) => task.end - task.start));
  const mostCalls = Math.max(...[...tasks.values()].map((task) => task.calls));
  t.diagnostic(
    `${calls.length} SetValue calls of 100 ms in ${tasks.size} runs, at most ${mostCalls} a run; the longest ${Math.round(longest)} ms`,
  );
  assert.ok(calls.length >= 25, `${calls.length} SetValue calls`);
  // Each run holds one 100 ms call (the slice is 50 ms): about 100 ms of script, whatever the
  // machine's load adds to the wall-clock time of a busy wait. Two calls in a run would be 200 ms.
  assert.equal(
    mostCalls,
    1,
    `${calls.length} calls in ${tasks.size} runs; the longest held the page ${Math.round(longest)} ms`,
  );
  await close();
});

test('the choices are shuffled: the right answer is not always first', async () => {
  const { lesson, close } = await openCourse('2004');
  const firstRight = await lesson.evaluate(
    (items) => {
      const right = Object.fromEntries(items.map((i) => [i.id, i.right]));
      return [...document.querySelectorAll('.graded-item[data-kind="choice"], .graded-item[data-kind="predict"]')]
        .filter((slot) => slot.dataset.variant in right)
        .map((slot) => slot.querySelector('input').value === right[slot.dataset.variant]);
    },
    // (An open prediction has no right choice: it is left out.)
    BANK.filter((i) => i.choices?.some((c) => c.correct)).map((i) => ({
      id: i.id,
      right: i.choices.find((c) => c.correct).id,
    })),
  );
  assert.ok(firstRight.includes(false), 'some item shows a wrong choice first');
  await close();
});

// ---- Moodle 4.5's own rules (tests/support/moodle-rules.mjs, in the player's run-time) ------------

/** The interactions the 2004 run-time holds, as Moodle keeps them for a review (read before Terminate). */
const heldInteractions = (page) =>
  page.evaluate(() => {
    const count = Number(__api.GetValue('cmi.interactions._count'));
    return Array.from({ length: count }, (_, n) => {
      const held = {};
      for (const key of ['id', 'type', 'learner_response', 'result']) {
        const value = __api.GetValue(`cmi.interactions.${n}.${key}`);
        if (value !== '') held[key] = value;
      }
      return held;
    });
  });
/** The variants answered on the page (each slot shows the one its attempt drew). */
const answeredItems = (lesson) =>
  lesson.evaluate(() => [...document.querySelectorAll('.graded-item[data-answered]')].map((el) => el.dataset.variant));
const scoreLine = (lesson) => lesson.evaluate(() => document.querySelector('[data-self-test-score]').textContent);

test('SCORM 2004: reviewing a completed attempt as Moodle opens it (suspend data empty) shows the answers it holds', async () => {
  const { page, lesson, close } = await openCourse('2004', { preload: { scaled_passing_score: '0.8' } });
  await answerAll(lesson, FAILED_ITEMS);
  await lesson.waitForFunction(() => document.documentElement.dataset.course.endsWith(':saved'));
  const interactions = await heldInteractions(page);
  await leave(page);
  await close();
  const kept = interactions.filter((i) => i.learner_response).map((i) => i.id);
  assert.ok(kept.length > 0);
  const review = await openCourse('2004', {
    preload: { mode: 'review', entry: '', suspend_data: '', interactions },
  });
  assert.equal(await review.lesson.evaluate(() => document.documentElement.dataset.course), 'scorm2004:review');
  assert.deepEqual((await answeredItems(review.lesson)).sort(), kept.sort());
  assert.match(await scoreLine(review.lesson), /Review: the answers your course recorded; this attempt is closed\.$/);
  await review.close();
  // An attempt of which the course holds nothing: the learner is told so, not shown blank answers as recorded.
  const empty = await openCourse('2004', { preload: { mode: 'review', entry: '', suspend_data: '' } });
  assert.deepEqual(await answeredItems(empty.lesson), []);
  const nothing = /^Review: your course sent back no answers for this attempt; it is closed\.$/;
  assert.match(await empty.lesson.locator('.course-status .visually-hidden').first().textContent(), nothing);
  assert.match(
    await scoreLine(empty.lesson),
    / Review: your course sent back no answers for this attempt; it is closed\.$/,
  );
  assert.doesNotMatch(await scoreLine(empty.lesson), /the answers your course recorded/);
  await empty.close();
});

test('SCORM 1.2: a preview in browse mode leaves no grade, and the next launch opens the attempt normally', async () => {
  const preview = await openCourse('1.2', {
    preload: { student_data: { mastery_score: '80' }, core: { lesson_mode: 'browse' } },
  });
  assert.equal(await preview.lesson.evaluate(() => document.documentElement.dataset.course), 'scorm12:browse');
  await answerAll(preview.lesson, new Set(), SELF_TEST_ITEMS.slice(0, 2));
  await leave(preview.page);
  const left = await gradebook(preview.page, '1.2');
  // Without `browsed`, Moodle's LMSFinish turns `not attempted` into `completed`: a grade of 0.
  assert.equal(left.status, 'browsed');
  assert.equal(moodleGrade([left]), null);
  await preview.close();
  const next = await openCourse('1.2', {
    preload: { student_data: { mastery_score: '80' }, core: { lesson_status: 'browsed', entry: '' } },
  });
  assert.equal(await next.lesson.evaluate(() => document.documentElement.dataset.course), 'scorm12:saved');
  assert.equal((await gradebook(next.page, '1.2')).status, 'incomplete');
  await next.close();
});

test('on a phone, the saving status is in view while the learner answers, though the site bar has scrolled away', async () => {
  const viewport = { width: 390, height: 844 };
  const { lesson, close } = await openCourse('1.2', {
    preload: { student_data: { mastery_score: '80' } },
    viewport,
    frame: { width: viewport.width, height: viewport.height },
  });
  /** Where the learner sees `selector`'s shown element: in view, or not. */
  const inView = (selector) =>
    lesson.evaluate((s) => {
      const shown = [...document.querySelectorAll(s)].filter((el) => el.getClientRects().length);
      return shown.some((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight;
      });
    }, selector);
  const status = '.course-status-beside';
  for (const item of [SELF_TEST_ITEMS.find((i) => i.kind === 'predict'), GRADED[0], GRADED.at(-1)]) {
    const slot = lesson.locator(`.graded-item[data-item="${item.id}"]`);
    // The item at the foot of the screen: what follows it is out of view.
    await slot.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    if (item.kind === 'numeric') {
      await slot.locator('input').fill('1');
      await slot.locator('input').press('Enter');
    } else await answerChoice(lesson, item);
    await lesson.waitForFunction(
      (id) => document.querySelector(`.graded-item[data-item="${id}"]`).dataset.answered,
      item.id,
    );
    assert.equal(await inView('.site-bar .course-status'), false, 'the site bar has scrolled away');
    assert.ok(await inView(status), `${item.id}: a status in view as the answer is saving`);
    await lesson.waitForFunction(() => document.documentElement.dataset.course === 'scorm12:saved');
    assert.ok(await inView(status), `${item.id}: in view once saved`);
    assert.equal(
      await lesson.evaluate(
        (id) => document.querySelector(`.graded-item[data-item="${id}"]`).nextElementSibling.textContent,
        item.id,
      ),
      'Saved',
    );
  }
  await close();
});

// ---- cmi5 ----------------------------------------------------------------------------------------

async function cmi5Course(lms, launchOptions = {}, { context = null } = {}) {
  const launch = lms.launch(launchOptions);
  const ownContext = !context;
  context ??= await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(launch.url);
  const lesson = await waitForFrame(page, (f) => /\/positional-lesson\.html$/.test(f.url()));
  return { page, lesson, launch, problems, context, close: () => (ownContext ? context.close() : page.close()) };
}

async function until(condition, what, ms = 30000) {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('cmi5: a returnURL the window cannot go to offers no Exit, and says how to leave', async () => {
  const lms = await startLrs({ root: folders.cmi5 });
  closers.push(lms.close);
  for (const returnURL of ['javascript:alert(1)', 'data:text/html,bye']) {
    const { lesson, close } = await cmi5Course(lms, { returnURL });
    await lesson.waitForFunction(() => document.documentElement.dataset.course === 'cmi5:saved', null, {
      timeout: 30000,
    });
    await lesson.locator('.course-exit-note').waitFor({ timeout: 10000 });
    assert.equal(await lesson.locator('.course-exit').count(), 0, `${returnURL}: no Exit button`);
    assert.match(await lesson.locator('.course-exit-note').textContent(), /close this tab or window/);
    await close();
  }
});

/**
 * What a script in the lesson's frame can try: the score the shell once took from the page
 * (positionalCourse.summary), and answers that claim to be right or are no answer to their item.
 */
function forgeFromLessonFrame(frame) {
  return frame.evaluate(
    (graded) => {
      const shell = parent.positionalCourse;
      const claims = [];
      try {
        shell.summary(
          { completed: true, passed: true, percent: 100, scaled: 1, answered: 12, correct: 12, total: 12 },
          {
            answered: true,
          },
        );
        claims.push('summary taken');
      } catch (error) {
        claims.push(`summary refused: ${error.constructor.name}`);
      }
      const responses = Object.fromEntries(graded.map((id) => [id, 'forged']));
      shell.answered({
        record: { seed: '0badc0de', responses },
        interaction: { id: graded[0], type: 'choice', graded: true, response: 'x', result: 'correct' },
      });
      shell.answered({ id: graded[0], response: 'not-a-choice-of-it' });
      return claims;
    },
    GRADED.map((i) => i.id),
  );
}

for (const edition of ['1.2', '2004']) {
  test(`SCORM ${edition}: a score forged in the lesson's frame reaches nothing the LMS records`, async () => {
    const preload = edition === '1.2' ? { student_data: { mastery_score: '80' } } : { scaled_passing_score: '0.8' };
    const { page, lesson, close } = await openCourse(edition, { preload });
    await forgeFromLessonFrame(lesson);
    // Past the pause after which answers are committed, then the learner leaves: whatever the shell holds goes.
    await page.waitForTimeout(2000);
    const { calls } = await leave(page);
    const prefix = edition === '1.2' ? 'cmi.core.' : 'cmi.';
    assert.equal(lastSet(calls, `${prefix}score.raw`), undefined, 'no score');
    const book = await gradebook(page, edition);
    if (edition === '1.2') assert.equal(book.status, 'incomplete');
    else {
      assert.equal(book.completion, 'incomplete');
      assert.equal(book.success, 'unknown');
    }
    assert.equal(book.raw, '');
    assert.deepEqual(
      calls.filter(([, e]) => /^cmi\.interactions\./.test(e ?? '')),
      [],
      'no interaction',
    );
    assert.equal(await page.evaluate(() => __api.cmi.interactions.childArray.length), 0);
    await close();
  });
}

test("cmi5: a score forged in the lesson's frame reaches nothing the LMS records", async () => {
  const lms = await startLrs({ root: folders.cmi5 });
  closers.push(lms.close);
  const { page, lesson, launch, close } = await cmi5Course(lms);
  await lesson.waitForFunction(() => document.documentElement.dataset.course.endsWith(':saved'));
  await forgeFromLessonFrame(lesson);
  await page.waitForTimeout(2000);
  await page.close({ runBeforeUnload: true });
  await until(() => lms.verbs(launch.registration).includes('terminated'), 'terminated', 20000);
  assert.deepEqual(lms.verbs(launch.registration), ['initialized', 'terminated']);
  assert.deepEqual(lms.errors, []);
  await close();
});

test('cmi5: a learner who passes, then exits to the LMS’s returnURL', async () => {
  const lms = await startLrs({ root: folders.cmi5 });
  closers.push(lms.close);
  const { page, lesson, launch, problems, close } = await cmi5Course(lms, { returnURL: '/course/done' });
  await answerAll(lesson, NEARLY_ITEMS);
  await until(() => lms.verbs(launch.registration).includes('completed'), 'completed');
  await lesson.locator('.course-exit').click();
  await page.waitForURL(`${lms.origin}/course/done`);
  const verbs = lms.verbs(launch.registration);
  assert.equal(verbs.at(-1), 'terminated');
  assert.equal(verbs.filter((v) => v === 'answered').length, SELF_TEST_ITEMS.length);
  const passed = lms.statements(launch.registration).find((s) => s.verb.id.endsWith('/passed'));
  assert.deepEqual(passed.result.score, {
    scaled: Number(((GRADED.length - NEARLY_ITEMS.size) / GRADED.length).toFixed(4)),
    raw: percent(NEARLY_ITEMS),
    min: 0,
    max: 100,
  });
  assert.deepEqual(lms.errors, []);
  // xAPI answers 404 for a document not written yet (the learner's preferences, the unit's state),
  // and the page going to returnURL cuts off what was still answering.
  const expected = /^HTTP 404: .*(\/course\/done|agents\/profile\?|activities\/state\?stateId=positional-lesson)/;
  const notFound = problems.filter((p) => expected.test(p)).length;
  const rest = problems.filter((p) => !expected.test(p));
  assert.deepEqual(
    rest.filter((p) => !/status of 404 \(Not Found\)$/.test(p)),
    [],
  );
  // Every 404 the LMS sent is one of those; the console has a line per 404 the page received: at least
  // one per response the test saw, at most one per 404 sent (a response cut off by the navigation to
  // returnURL may reach the console and not the test, or neither).
  // (besides the browser's own request for a favicon, which the page never makes)
  const ownRequests = lms.notFound.filter((path) => path !== '/favicon.ico');
  assert.deepEqual(
    ownRequests.filter((path) => !/(\/course\/done|\/agents\/profile|\/activities\/state)$/.test(path)),
    [],
    'the LMS answered 404 only for the documents not written yet and returnURL',
  );
  const consoleLines = rest.length;
  assert.ok(
    consoleLines >= notFound && consoleLines <= lms.notFound.length,
    `a console line for each 404 and no other: ${consoleLines} lines, ${notFound} seen, ${lms.notFound.length} sent`,
  );
  await close();
});

test('cmi5: closing the tab a second after the last answer, with the LMS taking 300 ms a request, loses nothing', async () => {
  const lms = await startLrs({
    root: folders.cmi5,
    fault: (r) => (r.path.startsWith('/lms/xapi/') ? { delay: 300 } : null),
  });
  closers.push(lms.close);
  const { page, lesson, launch, close } = await cmi5Course(lms);
  await answerAll(lesson, new Set());
  await page.waitForTimeout(1000);
  await page.close({ runBeforeUnload: true });
  await until(() => lms.verbs(launch.registration).includes('terminated'), 'terminated', 20000);
  const verbs = lms.verbs(launch.registration);
  assert.equal(verbs.filter((v) => v === 'answered').length, SELF_TEST_ITEMS.length);
  assert.ok(verbs.includes('passed') && verbs.includes('completed'));
  assert.deepEqual(lms.errors, []);
  await close();
});

test('cmi5: a choice picked and a number typed while the LMS is still answering stay, and Check takes them', async () => {
  // The state document comes back late, after the learner has started: the page draws the test again
  // with what the course site kept, and what was picked but not yet checked must not go with it. The
  // LMS holds the state document until the learner has picked (not for a fixed time, which a loaded
  // machine could spend before the picks were made).
  let answerState;
  const held = new Promise((resolve) => (answerState = resolve));
  const lms = await startLrs({
    root: folders.cmi5,
    fault: (r) => (r.method === 'GET' && r.path.includes('/activities/state') ? { until: held } : null),
  });
  closers.push(lms.close);
  const { lesson, close } = await cmi5Course(lms);
  const choice = await shownVariant(
    lesson,
    GRADED.find((item) => item.kind === 'choice'),
  );
  const numeric = await shownVariant(
    lesson,
    GRADED.find((item) => item.kind === 'numeric'),
  );
  const picked = choice.choices.find((c) => !c.correct).id;
  await slotElement(lesson, choice).locator(`input[value="${picked}"]`).check();
  await slotElement(lesson, numeric).locator('input').fill('12.5');
  const course = () => lesson.evaluate(() => document.documentElement.dataset.course);
  assert.notEqual(await course(), 'cmi5:saved', 'picked before the course site answered');
  answerState();
  await lesson.waitForFunction(() => document.documentElement.dataset.course === 'cmi5:saved', null, {
    timeout: 30000,
  });
  assert.equal(await slotElement(lesson, choice).locator(`input[value="${picked}"]`).isChecked(), true);
  assert.equal(await slotElement(lesson, numeric).locator('input').inputValue(), '12.5');
  await slotElement(lesson, choice).locator('button.graded-check').click();
  await slotElement(lesson, numeric).locator('button.graded-check').click();
  for (const item of [choice, numeric])
    assert.equal(await slotElement(lesson, item).getAttribute('data-answered'), 'wrong', `${item.id} taken`);
  await close();
});

test('cmi5: with the LMS down mid-test the learner is told, and everything arrives when it is back', async () => {
  let down = false;
  const lms = await startLrs({
    root: folders.cmi5,
    fault: (r) => (down && r.path.startsWith('/lms/xapi/') ? { status: 503 } : null),
  });
  closers.push(lms.close);
  const { lesson, launch, close } = await cmi5Course(lms);
  await lesson.waitForFunction(() => document.documentElement.dataset.course === 'cmi5:saved');
  down = true;
  await answerAll(lesson, new Set(), SELF_TEST_ITEMS.slice(0, 6));
  await lesson.waitForFunction(() => /cmi5:(retrying|offline)/.test(document.documentElement.dataset.course), null, {
    timeout: 30000,
  });
  down = false;
  await lesson.waitForFunction(() => document.documentElement.dataset.course === 'cmi5:saved', null, {
    timeout: 60000,
  });
  assert.deepEqual(lms.verbs(launch.registration), ['initialized', ...Array(6).fill('answered')]);
  await close();
});

// ---- the site itself on hosts that send the wrong types, and in a sandboxed frame -----------------

async function openSite(types, { nosniff = true } = {}) {
  const host = await startCourseHost({ root: dist, types, nosniff });
  closers.push(host.close);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${host.url}index.html`);
  return { page, context, host };
}

test("the site on a host with Moodle's file types: the banner blames the host's types, not the browser", async () => {
  const { page, context } = await openSite(MOODLE_TYPES);
  await page.waitForFunction(() => document.documentElement.dataset.liveState === 'failed', null, { timeout: 30000 });
  const banner = await page.locator('.engine-banner-text').textContent();
  assert.match(
    banner,
    /this site sends its file engine\.mjs as “application\/octet-stream”, which browsers refuse to run as a script/,
  );
  assert.doesNotMatch(banner, /in this browser/);
  await context.close();
});

test('the site on a host that sends every script as octet-stream: a notice says the scripts did not run, and links the single file', async () => {
  const types = Object.fromEntries(Object.entries(MOODLE_TYPES).filter(([ext]) => ext !== '.js'));
  const { page, context } = await openSite(types);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.scripts), undefined, 'main.js never ran');
  // The inline theme script ran, and let every block into layout when no module had by DOMContentLoaded.
  assert.deepEqual(
    await page.evaluate(() => ({
      lazyLayout: document.documentElement.classList.contains('lazy-layout'),
      skipped: [...document.querySelectorAll('section.lesson-section > *')].filter(
        (el) => getComputedStyle(el).contentVisibility === 'auto',
      ).length,
    })),
    { lazyLayout: false, skipped: 0 },
  );
  const notice = page.locator('.script-notice-late');
  // The notice waits ten seconds of its CSS animation's delay (lesson.css) before it shows: hidden
  // until then, it is read out by no one. The document's animations then run twenty times faster
  // (DevTools' Animation domain), so the rest of the wait takes half a second and not nine.
  assert.equal(await notice.evaluate((el) => getComputedStyle(el).visibility), 'hidden', 'not shown at once');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Animation.enable');
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 20 });
  await page.waitForFunction(
    () => getComputedStyle(document.querySelector('.script-notice-late')).visibility === 'visible',
    null,
    {
      timeout: 20000,
    },
  );
  assert.match(await notice.textContent(), /scripts have not run/);
  assert.equal(await notice.locator('a').getAttribute('href'), 'positional-lesson.html');
  // Each self-test item says what it needs instead of being blank.
  assert.match(
    await page.locator('.graded-item[data-item="why_positions"]').textContent(),
    /checked by the page’s scripts, which have not run here/,
  );
  await context.close();
});

test('in a frame sandboxed without allow-same-origin the lesson goes to its single file and runs', async () => {
  const host = await startCourseHost({
    root: dist,
    types: { ...MOODLE_TYPES, '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.woff2': 'font/woff2' },
    extra: async (url, req, res) => {
      if (url.pathname !== '/__course.html') return false;
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(
        '<!doctype html><title>Course</title><iframe sandbox="allow-scripts" src="index.html?embed=rope" title="rope" width="900" height="600"></iframe>',
      );
      return true;
    },
  });
  closers.push(host.close);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${host.url}__course.html`);
  const frame = await waitForFrame(page, (f) => /\/positional-lesson\.html\?embed=rope$/.test(f.url()));
  assert.equal(await frame.evaluate(() => document.documentElement.dataset.liveState), 'ready');
  assert.equal(await frame.evaluate(() => self.origin), 'null');
  assert.ok(await frame.evaluate(() => document.documentElement.classList.contains('embed')));
  await context.close();
});
