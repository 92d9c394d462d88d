// Course sites in Chromium: the SCORM packages under scorm-again (a real LMS-side SCORM 1.2 and
// 2004 run-time) as the host page's API, the cmi5 package against a loopback endpoint that records
// every request and checks the cmi5 rules, a learner who passes and one who fails in each; the
// self-test with storage blocked; and frames on a course page fitting their content.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import { unzipSync } from 'fflate';
import { startSite, openPage, repo, dist } from './helpers.mjs';
import { startServer } from '../../web/build/serve.mjs';
import { packageLms, COURSE } from '../../web/build/package-lms.mjs';
import { SELF_TEST_ITEMS, MASTERY_SCORE } from '../../web/js/self-test-items.js';

let site;
let packagesDir;
const servers = [];

before(async () => {
  site = await startSite();
  packagesDir = mkdtempSync(join(tmpdir(), 'positional-lms-'));
  const made = packageLms({ dist, out: packagesDir });
  // The English packages; the other languages' differ only in their manifests (tests/node/packages).
  for (const { kind, file } of made.filter(({ lang }) => lang === 'en')) {
    const dir = join(packagesDir, kind);
    for (const [path, data] of Object.entries(unzipSync(new Uint8Array(readFileSync(file))))) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), data);
    }
  }
});

after(async () => {
  for (const server of servers) await server.close();
  await site?.close();
});

const TOTAL = SELF_TEST_ITEMS.length;
// The failing learner gets these four wrong: 10 of 14 = 0.714, under the 0.8 mastery score.
const FAILED_ITEMS = new Set(['choose-long-context', 'ntk-base-8-128', 'rope-depends-on', 'predict-causal']);

/**
 * Answers every graded item in `frame` as a learner would, with the pointer and keyboard: the
 * right answer, or a wrong one for the ids in `wrong`. Numbers are typed as people type them
 * (a Unicode minus, a thousands comma).
 */
async function answerAll(frame, wrong = new Set()) {
  for (const item of SELF_TEST_ITEMS) {
    const slot = frame.locator(`.graded-item[data-item="${item.id}"]`);
    await slot.scrollIntoViewIfNeeded();
    if (item.kind === 'numeric') {
      const expected = await frame.evaluate(async (id) => {
        const { SELF_TEST_ITEMS: items } = await import('./js/self-test-items.js');
        return items.find((i) => i.id === id).answer(window.positionalLesson.engine);
      }, item.id);
      const value = wrong.has(item.id) ? expected * 1.1 + 1 : expected;
      const typed = item.relative ? Math.round(value).toLocaleString('en-US') : value.toFixed(4).replace('-', '\u2212');
      await slot.locator('input').fill(typed);
      await slot.locator('input').press('Enter');
    } else {
      await answerChoice(frame, item, wrong.has(item.id));
    }
    await frame.waitForFunction(
      (id) => document.querySelector(`.graded-item[data-item="${id}"]`).dataset.answered,
      item.id,
    );
  }
}

/** Picks the right choice of the graded `item` in `frame` (a wrong one if `wrongly`) and checks it. */
async function answerChoice(frame, item, wrongly = false) {
  const slot = frame.locator(`.graded-item[data-item="${item.id}"]`);
  const index = wrongly ? item.choices.findIndex((c) => !c.correct) : item.choices.findIndex((c) => c.correct);
  await slot.locator('label.graded-choice').nth(index).click();
  await slot.locator('button.graded-check').click();
}

// ---- SCORM under scorm-again -------------------------------------------------------------------

const SCORM = {
  1.2: {
    kind: 'scorm12',
    file: 'scorm12.min.js',
    global: 'Scorm12API',
    name: 'API',
    verbs: ['LMSInitialize', 'LMSSetValue', 'LMSCommit', 'LMSFinish'],
    preload: { student_data: { mastery_score: '80' } },
  },
  2004: {
    kind: 'scorm2004',
    file: 'scorm2004.min.js',
    global: 'Scorm2004API',
    name: 'API_1484_11',
    verbs: ['Initialize', 'SetValue', 'Commit', 'Terminate'],
    preload: { scaled_passing_score: '0.8' },
  },
};

/** A course page on the package's origin that makes scorm-again the API and frames the SCO. */
async function openScormHost(edition) {
  const spec = SCORM[edition];
  const server = await startServer({ root: join(packagesDir, spec.kind), port: 0 });
  servers.push(server);
  const hostUrl = `${server.url}__lms-host.html`;
  const runtime = readFileSync(join(repo, 'node_modules', 'scorm-again', 'dist', spec.file), 'utf8');
  const host = `<!doctype html><html lang="en"><title>LMS</title><body>
<script src="__scorm-again.js"></script>
<script>
  window.__calls = [];
  const api = new ${spec.global}({ logLevel: 4, autocommit: false, lmsCommitUrl: false });
  api.loadFromJSON(${JSON.stringify(spec.preload)});
  const [init, set, commit, finish] = ${JSON.stringify(spec.verbs)};
  api.on(init, () => __calls.push([init]));
  api.on(set, (element, value) => __calls.push([set, element, String(value)]));
  api.on(commit, () => __calls.push([commit]));
  api.on(finish, () => __calls.push([finish]));
  window.${spec.name} = api;
  window.__api = api;
  const frame = document.createElement('iframe');
  frame.src = 'index.html';
  frame.title = 'The lesson';
  frame.width = '1000';
  frame.height = '800';
  document.body.append(frame);
</script></body></html>`;
  const opened = await openPage(site.browser, hostUrl, {
    waitForLive: false,
    blockOtherOrigins: server.url.replace(/\/$/, ''),
    setup: async (page) => {
      await page.route(hostUrl, (route) => route.fulfill({ contentType: 'text/html', body: host }));
      await page.route(`${server.url}__scorm-again.js`, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: runtime }),
      );
    },
  });
  const frame = await waitForFrame(opened.page, (f) => f.url().endsWith('/index.html'));
  await frame.waitForFunction(() => document.documentElement.dataset.lmsConnected, null, { timeout: 60000 });
  return { ...opened, frame };
}

async function waitForFrame(page, match) {
  for (let i = 0; i < 600; i++) {
    const frame = page.frames().find(match);
    if (frame) {
      await frame.waitForFunction(
        () => document.documentElement.dataset.liveState && !document.documentElement.classList.contains('is-loading'),
        null,
        { timeout: 60000 },
      );
      return frame;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the lesson frame never appeared');
}

/** Ends the SCO's session the way a learner does: the LMS takes the frame away. */
async function closeFrame(page, finishVerb) {
  await page.evaluate(() => document.querySelector('iframe').remove());
  await page.waitForFunction((verb) => window.__calls.some(([v]) => v === verb), finishVerb, { timeout: 10000 });
  return page.evaluate(() => window.__calls);
}

const lastSet = (calls, element) => calls.filter(([, e]) => e === element).at(-1)?.[2];

/** Checks the order of the API calls in a whole session against the verbs of the edition's SCORM entry. */
function checkScormSequence(calls, { verbs: [initialize, , commit, finish] }) {
  assert.deepEqual(calls[0], [initialize], 'the session opens first');
  assert.deepEqual(calls.at(-1), [finish], 'and finishes last');
  assert.deepEqual(calls.at(-2), [commit], 'with a commit just before it');
  assert.equal(calls.filter(([v]) => v === initialize).length, 1);
  assert.equal(calls.filter(([v]) => v === finish).length, 1);
  // One commit when the session opens, one after each answer, one at the end.
  assert.equal(calls.filter(([v]) => v === commit).length, TOTAL + 2);
  // Every answer is committed before the next one starts.
  const ids = calls.filter(([, e]) => /^cmi\.interactions\.\d+\.id$/.test(e ?? ''));
  assert.deepEqual(
    ids.map(([, e, v]) => [e, v]),
    SELF_TEST_ITEMS.map((item, n) => [`cmi.interactions.${n}.id`, item.id]),
  );
  for (let n = 1; n < ids.length; n++) {
    const between = calls.slice(calls.indexOf(ids[n - 1]), calls.indexOf(ids[n]));
    assert.ok(
      between.some(([v]) => v === commit),
      `answer ${n} was committed before answer ${n + 1}`,
    );
  }
}

/**
 * A learner's whole session with the SCO of `edition` under scorm-again: every item answered (the ids
 * in `wrong` wrongly), then the frame taken away; the order of the calls checked.
 */
async function learnerSession(edition, wrong) {
  const { page, frame, problems, violations } = await openScormHost(edition);
  await answerAll(frame, wrong);
  const [, , , finish] = SCORM[edition].verbs;
  const calls = await closeFrame(page, finish);
  checkScormSequence(calls, SCORM[edition]);
  return { page, calls, problems, violations };
}

for (const [label, wrong] of [
  ['passes', new Set()],
  ['fails', FAILED_ITEMS],
]) {
  const correct = TOTAL - wrong.size;
  const passed = correct / TOTAL >= MASTERY_SCORE;

  test(`SCORM 1.2 under scorm-again: a learner who ${label}`, async () => {
    const { page, calls, problems, violations } = await learnerSession('1.2', wrong);
    const statuses = calls.filter(([, e]) => e === 'cmi.core.lesson_status').map(([, , v]) => v);
    assert.equal(statuses[0], 'incomplete', 'the first status marks the lesson started');
    assert.deepEqual(
      statuses.slice(0, -1).filter((s) => s !== 'incomplete'),
      [],
      'no verdict before the last answer',
    );
    assert.equal(statuses.at(-1), passed ? 'passed' : 'failed');
    assert.equal(lastSet(calls, 'cmi.core.score.raw'), String(Math.round((100 * correct) / TOTAL)));
    assert.equal(lastSet(calls, 'cmi.core.score.min'), '0');
    assert.equal(lastSet(calls, 'cmi.core.score.max'), '100');
    assert.equal(lastSet(calls, 'cmi.core.exit'), '');
    assert.match(lastSet(calls, 'cmi.core.session_time'), /^\d{4}:\d{2}:\d{2}\.\d{2}$/);
    SELF_TEST_ITEMS.forEach((item, n) => {
      assert.equal(lastSet(calls, `cmi.interactions.${n}.result`), wrong.has(item.id) ? 'wrong' : 'correct', item.id);
      assert.equal(lastSet(calls, `cmi.interactions.${n}.type`), item.kind === 'numeric' ? 'numeric' : 'choice');
    });
    assert.deepEqual(
      Object.keys(JSON.parse(lastSet(calls, 'cmi.suspend_data'))).sort(),
      SELF_TEST_ITEMS.map((i) => i.id).sort(),
    );
    // The run-time's own record agrees.
    const state = await page.evaluate(() => ({
      status: __api.cmi.core.lesson_status,
      raw: __api.cmi.core.score.raw,
      error: __api.lastErrorCode,
    }));
    assert.deepEqual(state, {
      status: passed ? 'passed' : 'failed',
      raw: String(Math.round((100 * correct) / TOTAL)),
      error: '0',
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(await violations(), []);
    await page.context().close();
  });

  test(`SCORM 2004 under scorm-again: a learner who ${label}`, async () => {
    const { page, calls, problems, violations } = await learnerSession('2004', wrong);
    const completion = calls.filter(([, e]) => e === 'cmi.completion_status').map(([, , v]) => v);
    assert.equal(completion[0], 'incomplete');
    assert.equal(completion.at(-1), 'completed');
    assert.equal(completion.filter((c) => c === 'completed').length, 1, 'completed only once every item is answered');
    const success = calls.filter(([, e]) => e === 'cmi.success_status').map(([, , v]) => v);
    assert.deepEqual(
      success.slice(0, -1).filter((s) => s !== 'unknown'),
      [],
    );
    assert.equal(success.at(-1), passed ? 'passed' : 'failed');
    // score.scaled to four decimals: 10/14 = 0.714285… is sent as 0.7143.
    assert.equal(Number(lastSet(calls, 'cmi.score.scaled')), Number((correct / TOTAL).toFixed(4)));
    assert.equal(lastSet(calls, 'cmi.score.raw'), String(correct));
    assert.equal(lastSet(calls, 'cmi.score.min'), '0');
    assert.equal(lastSet(calls, 'cmi.score.max'), String(TOTAL));
    assert.equal(lastSet(calls, 'cmi.progress_measure'), '1');
    assert.equal(lastSet(calls, 'cmi.exit'), 'normal');
    assert.match(lastSet(calls, 'cmi.session_time'), /^PT(\d+H)?(\d+M)?\d+(\.\d+)?S$/);
    SELF_TEST_ITEMS.forEach((item, n) => {
      assert.equal(
        lastSet(calls, `cmi.interactions.${n}.result`),
        wrong.has(item.id) ? 'incorrect' : 'correct',
        item.id,
      );
    });
    const state = await page.evaluate(() => ({
      completion: __api.cmi.completion_status,
      success: __api.cmi.success_status,
      scaled: String(__api.cmi.score.scaled),
      error: __api.lastErrorCode,
    }));
    assert.deepEqual(state, {
      completion: 'completed',
      success: passed ? 'passed' : 'failed',
      scaled: String(Number((correct / TOTAL).toFixed(4))),
      error: '0',
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(await violations(), []);
    await page.context().close();
  });
}

test('SCORM 1.2: a learner who leaves half-way is suspended, and the next session resumes the answers', async () => {
  const { page, frame } = await openScormHost('1.2');
  const half = SELF_TEST_ITEMS.slice(0, 3);
  for (const item of half.filter((i) => i.kind !== 'numeric')) await answerChoice(frame, item);
  // The learner switches tab: the page commits what it has.
  const commits = () => page.evaluate(() => __calls.filter(([v]) => v === 'LMSCommit').length);
  const before = await commits();
  await frame.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  assert.equal(await commits(), before + 1, 'a commit when the page is hidden');
  const calls = await closeFrame(page, 'LMSFinish');
  assert.equal(lastSet(calls, 'cmi.core.lesson_status'), 'incomplete');
  assert.equal(lastSet(calls, 'cmi.core.exit'), 'suspend');
  const suspend = lastSet(calls, 'cmi.suspend_data');
  assert.deepEqual(
    Object.keys(JSON.parse(suspend)),
    half.map((i) => i.id),
  );
  // The next launch: a fresh browser profile (no localStorage), the LMS hands back suspend_data.
  await page.context().close();
  const again = await openScormHostWith('1.2', {
    suspend_data: suspend,
    core: { lesson_status: 'incomplete', entry: 'resume' },
  });
  const restored = await again.frame.evaluate(() =>
    [...document.querySelectorAll('.graded-item[data-answered]')].map((el) => el.dataset.item),
  );
  assert.deepEqual(
    restored,
    half.map((i) => i.id),
  );
  await again.page.context().close();
});

test('SCORM 2004: a lesson opened in a new window finds the API through its opener', async () => {
  const spec = SCORM['2004'];
  const server = await startServer({ root: join(packagesDir, spec.kind), port: 0 });
  servers.push(server);
  const hostUrl = `${server.url}__lms-launcher.html`;
  const runtime = readFileSync(join(repo, 'node_modules', 'scorm-again', 'dist', spec.file), 'utf8');
  const host = `<!doctype html><html lang="en"><title>LMS</title><body><script src="__scorm-again.js"></script><script>
    window.__calls = [];
    const api = new Scorm2004API({ logLevel: 4, autocommit: false, lmsCommitUrl: false });
    for (const verb of ['Initialize', 'Commit', 'Terminate']) api.on(verb, () => __calls.push([verb]));
    api.on('SetValue', (element, value) => __calls.push(['SetValue', element, String(value)]));
    window.API_1484_11 = api;
  </script></body></html>`;
  const { page, context, problems } = await openPage(site.browser, hostUrl, {
    waitForLive: false,
    setup: async (p) => {
      await p.route(hostUrl, (route) => route.fulfill({ contentType: 'text/html', body: host }));
      await p.route(`${server.url}__scorm-again.js`, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: runtime }),
      );
    },
  });
  const [popup] = await Promise.all([
    context.waitForEvent('page'),
    page.evaluate(() => window.open('index.html', 'lesson')),
  ]);
  await popup.waitForFunction(() => document.documentElement.dataset.lmsConnected === 'scorm2004', null, {
    timeout: 60000,
  });
  const item = SELF_TEST_ITEMS.find((i) => i.kind === 'choice');
  await answerChoice(popup, item);
  await popup.close({ runBeforeUnload: true });
  await page.waitForFunction(() => __calls.some(([v]) => v === 'Terminate'), null, { timeout: 10000 });
  const calls = await page.evaluate(() => __calls);
  assert.deepEqual(calls[0], ['Initialize']);
  assert.equal(lastSet(calls, 'cmi.interactions.0.id'), item.id);
  assert.equal(lastSet(calls, 'cmi.interactions.0.result'), 'correct');
  assert.equal(lastSet(calls, 'cmi.completion_status'), 'incomplete');
  assert.equal(lastSet(calls, 'cmi.exit'), 'suspend');
  assert.deepEqual(calls.at(-1), ['Terminate']);
  assert.deepEqual(problems, []);
  await context.close();
});

async function openScormHostWith(edition, preload) {
  const saved = SCORM[edition].preload;
  SCORM[edition].preload = { ...saved, ...preload };
  try {
    return await openScormHost(edition);
  } finally {
    SCORM[edition].preload = saved;
  }
}

// ---- cmi5 against a loopback endpoint -------------------------------------------------------------

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.xml': 'application/xml',
};
const CMI5 = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
const MOVEON = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
const VERB = (name) => `http://adlnet.gov/expapi/verbs/${name}`;

/**
 * The cmi5 package's files and an LMS on one loopback origin: the fetch URL (one token, once),
 * the LMS.LaunchData state, and the statements resource. Records every request.
 */
async function startCmi5Lms(root) {
  const token = Buffer.from(`au:${randomUUID()}`).toString('base64');
  const session = { token, fetches: 0, requests: [], statements: [], errors: [] };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks).toString('utf8');
    const send = (status, value, type = 'application/json') => {
      res.writeHead(status, { 'Content-Type': type });
      res.end(typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value));
    };
    if (url.pathname.startsWith('/lms/'))
      session.requests.push({
        method: req.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
      });
    if (url.pathname === '/lms/fetch') {
      session.fetches++;
      if (req.method !== 'POST') return send(405, { 'error-code': '3', 'error-text': 'POST only' });
      if (session.fetches > 1) return send(200, { 'error-code': '1', 'error-text': 'already fetched' });
      return send(200, { 'auth-token': token });
    }
    if (url.pathname.startsWith('/lms/xapi/')) {
      if (req.headers.authorization !== `Basic ${token}`)
        session.errors.push(`${req.method} ${url.pathname} without the token`);
      if (!req.headers['x-experience-api-version']?.startsWith('1.0'))
        session.errors.push(`${req.method} ${url.pathname} without X-Experience-API-Version`);
      if (
        url.pathname === '/lms/xapi/activities/state' &&
        req.method === 'GET' &&
        url.searchParams.get('stateId') === 'LMS.LaunchData'
      ) {
        if (url.searchParams.get('registration') !== session.registration)
          session.errors.push('LaunchData read for another registration');
        if (url.searchParams.get('activityId') !== session.activityId)
          session.errors.push('LaunchData read for another activity');
        return send(200, session.launchData);
      }
      if (url.pathname === '/lms/xapi/statements' && (req.method === 'POST' || req.method === 'PUT')) {
        const parsed = JSON.parse(body);
        for (const s of Array.isArray(parsed) ? parsed : [parsed]) session.statements.push(s);
        return send(
          200,
          (Array.isArray(parsed) ? parsed : [parsed]).map((s) => s.id),
        );
      }
      return send(404, { error: 'not an endpoint of this test LMS' });
    }
    const file = resolve(root, `.${decodeURIComponent(url.pathname)}`);
    if (!file.startsWith(root + sep) || !existsSync(file) || statSync(file).isDirectory())
      return send(404, 'not found', 'text/plain');
    return send(200, readFileSync(file), MIME[extname(file)] ?? 'application/octet-stream');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  servers.push({ close: () => new Promise((r) => server.close(r)) });
  return { origin, session };
}

async function runCmi5Learner(wrong) {
  const { origin, session } = await startCmi5Lms(join(packagesDir, 'cmi5'));
  const actor = { objectType: 'Agent', name: 'A Learner', account: { homePage: origin, name: 'learner-1' } };
  session.registration = randomUUID();
  session.activityId = COURSE.auIri;
  session.sessionId = randomUUID();
  session.launchData = {
    contextTemplate: {
      contextActivities: { grouping: [{ id: COURSE.auIri }] },
      extensions: { 'https://w3id.org/xapi/cmi5/context/extensions/sessionid': session.sessionId },
    },
    launchMode: 'Normal',
    moveOn: 'CompletedAndPassed',
    masteryScore: MASTERY_SCORE,
  };
  const launch = new URL(`${origin}/index.html`);
  launch.search = new URLSearchParams({
    endpoint: `${origin}/lms/xapi/`,
    fetch: `${origin}/lms/fetch`,
    actor: JSON.stringify(actor),
    registration: session.registration,
    activityId: session.activityId,
  }).toString();
  const { page, problems, violations } = await openPage(site.browser, launch.href, { blockOtherOrigins: origin });
  await page.waitForFunction(() => document.documentElement.dataset.lmsConnected === 'cmi5', null, { timeout: 30000 });
  await answerAll(page.mainFrame(), wrong);
  const expectedBeforeExit = 1 + TOTAL + 2;
  await waitFor(() => session.statements.length >= expectedBeforeExit, 'the statements before exit');
  const cspViolations = await violations();
  // Problems until the learner leaves: leaving aborts, from the page's side, the requests still
  // answering (terminated goes out with keepalive, and the endpoint's record shows it arrived).
  const problemsBeforeExit = [...problems];
  // The learner leaves: pagehide sends terminated.
  await page.goto('about:blank');
  await waitFor(() => session.statements.some((s) => s.verb?.id === VERB('terminated')), 'terminated');
  await page.context().close();
  return { session, actor, problems: problemsBeforeExit, cspViolations };
}

async function waitFor(condition, what, ms = 15000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Checks a recorded session against the cmi5 rules for an AU launched in Normal mode. */
function checkCmi5Rules({ session, actor }, { passed, correct }) {
  const { statements } = session;
  assert.deepEqual(session.errors, []);
  assert.equal(session.fetches, 1, 'the fetch URL is used once');
  const order = session.requests.map((r) => `${r.method} ${r.path}`);
  assert.deepEqual(
    order.slice(0, 2),
    ['POST /lms/fetch', 'GET /lms/xapi/activities/state'],
    'token first, then LMS.LaunchData, before any statement',
  );
  const verbs = statements.map((s) => s.verb.id.split('/').at(-1));
  assert.deepEqual(verbs, [
    'initialized',
    ...Array(TOTAL).fill('answered'),
    passed ? 'passed' : 'failed',
    'completed',
    'terminated',
  ]);
  const ids = new Set();
  for (const s of statements) {
    assert.match(s.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    ids.add(s.id);
    assert.deepEqual(s.actor, actor, 'the actor is the launch actor');
    assert.ok(!Number.isNaN(Date.parse(s.timestamp)), 'a timestamp');
    assert.equal(s.context.registration, session.registration);
    // The contextTemplate is kept whole in every statement.
    assert.deepEqual(
      s.context.contextActivities.grouping,
      session.launchData.contextTemplate.contextActivities.grouping,
    );
    assert.equal(s.context.extensions['https://w3id.org/xapi/cmi5/context/extensions/sessionid'], session.sessionId);
    const categories = (s.context.contextActivities.category ?? []).map((c) => c.id);
    const verb = s.verb.id.split('/').at(-1);
    if (verb === 'answered') {
      assert.ok(!categories.includes(CMI5), 'a cmi5-allowed statement carries no cmi5 category');
      assert.ok(s.object.id.startsWith(`${session.activityId}/`));
      assert.equal(s.object.definition.type, 'http://adlnet.gov/expapi/activities/cmi.interaction');
      assert.equal(typeof s.result.success, 'boolean');
      assert.equal(typeof s.result.response, 'string');
    } else {
      assert.ok(categories.includes(CMI5), `${verb} carries the cmi5 category`);
      assert.equal(s.object.id, session.activityId, `${verb} is about the AU itself`);
    }
    if (['passed', 'failed', 'completed'].includes(verb))
      assert.ok(categories.includes(MOVEON), `${verb} carries the moveOn category`);
    if (['passed', 'failed', 'completed', 'terminated'].includes(verb))
      assert.match(s.result.duration, /^PT(\d+H)?(\d+M)?\d+(\.\d+)?S$/, `${verb} has a duration`);
  }
  assert.equal(ids.size, statements.length, 'statement ids are unique');
  const answered = statements.filter((s) => s.verb.id === VERB('answered'));
  assert.deepEqual(
    answered.map((s) => s.object.id.split('/').at(-1)),
    SELF_TEST_ITEMS.map((i) => i.id),
  );
  assert.equal(answered.filter((s) => s.result.success).length, correct);
  const verdict = statements.find((s) => s.verb.id === VERB(passed ? 'passed' : 'failed'));
  assert.equal(verdict.result.success, passed);
  assert.equal(verdict.result.score.scaled, Number((correct / TOTAL).toFixed(4)));
  assert.ok(
    passed ? verdict.result.score.scaled >= MASTERY_SCORE : verdict.result.score.scaled < MASTERY_SCORE,
    'the verdict agrees with the mastery score',
  );
  assert.equal(verdict.context.extensions['https://w3id.org/xapi/cmi5/context/extensions/masteryscore'], MASTERY_SCORE);
  const completed = statements.find((s) => s.verb.id === VERB('completed'));
  assert.equal(completed.result.completion, true);
  assert.equal(statements.at(-1).verb.id, VERB('terminated'), 'nothing after terminated');
}

test('cmi5: a learner who passes: initialized, 14 answered, passed, completed, terminated', async () => {
  const run = await runCmi5Learner(new Set());
  checkCmi5Rules(run, { passed: true, correct: TOTAL });
  assert.deepEqual(run.problems, []);
  assert.deepEqual(run.cspViolations, []);
});

test('cmi5: a learner who fails: initialized, 14 answered, failed, completed, terminated', async () => {
  const run = await runCmi5Learner(FAILED_ITEMS);
  checkCmi5Rules(run, { passed: false, correct: TOTAL - FAILED_ITEMS.size });
  assert.deepEqual(run.problems, []);
  assert.deepEqual(run.cspViolations, []);
});

// ---- the self-test on its own -------------------------------------------------------------------

test('with no LMS the self-test keeps its score in storage across a reload', async () => {
  const { page, context, problems } = await openPage(site.browser, `${site.server.url}index.html#self-test`);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.lms), 'none');
  const slot = page.locator('.graded-item[data-item="why-positions"]');
  await slot.locator('label.graded-choice').first().click();
  await slot.locator('button.graded-check').click();
  const numeric = page.locator('.graded-item[data-item="interpolate-6000"]');
  await numeric.locator('input').fill('seventeen');
  await numeric.locator('button').click();
  assert.match(await numeric.locator('.graded-feedback').textContent(), /“seventeen” is not a number/);
  await numeric.locator('input').fill('1500');
  await numeric.locator('input').press('Enter');
  const score = page.locator('[data-self-test-score]');
  assert.match(await score.textContent(), /^2 right of 2 answered \(14 in all\)\.$/);
  await page.reload();
  await page.waitForFunction(
    () =>
      document.documentElement.dataset.liveState && document.querySelector('[data-self-test-score]').dataset.answered,
  );
  assert.match(await page.locator('[data-self-test-score]').textContent(), /^2 right of 2 answered/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('with storage blocked the self-test grades the same, for the visit', async () => {
  const { page, context, problems } = await openPage(site.browser, `${site.server.url}index.html#self-test`, {
    setup: (p) =>
      p.addInitScript(() => {
        Object.defineProperty(window, 'localStorage', {
          get() {
            throw new DOMException('blocked by the test', 'SecurityError');
          },
        });
      }),
  });
  await answerAll(page.mainFrame(), FAILED_ITEMS);
  const score = await page.locator('[data-self-test-score]').textContent();
  assert.equal(score, `10 right of 14 answered (14 in all): 71%, below the 80% pass mark.`);
  // Every wrong choice names its misconception and then the answer.
  const feedback = await page.locator('.graded-item[data-item="choose-long-context"] .graded-feedback').textContent();
  const item = SELF_TEST_ITEMS.find((i) => i.id === 'choose-long-context');
  assert.ok(feedback.includes(item.choices.find((c) => !c.correct).why), feedback);
  // A prediction reveals the engine's numbers once answered.
  const reveal = await page.locator('.graded-item[data-item="predict-rope-shift"] .graded-reveal').textContent();
  assert.match(reveal, /The engine gives −?\d\.\d{3} at 3 and 7 and −?\d\.\d{3} at 103 and 107\./);
  assert.deepEqual(problems, []);
  await context.close();
});

// ---- frames on a course page --------------------------------------------------------------------

/** The README's snippet for several frames, taken from the README so the two cannot drift apart. */
function readmeListener() {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Course sites'));
  const match = /<script>\n([\s\S]*?)<\/script>/.exec(section);
  assert.ok(match, "the README's Course sites section has a snippet with a <script>");
  return match[1];
}

async function coursePage(body, { listener = true } = {}) {
  const url = `${site.server.url}__course-page.html`;
  const html = `<!doctype html><html lang="en"><title>Course</title><body>${body}${listener ? `<script>window.__messages = []; addEventListener('message', (e) => __messages.push(e.data));\n${readmeListener()}</script>` : ''}</body></html>`;
  const { page, context, problems } = await openPage(site.browser, url, {
    waitForLive: false,
    setup: (p) => p.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html })),
  });
  return { page, context, problems };
}

test('three frames on one course page each fit their own content, with the frame id echoed back', async () => {
  const frames = [
    ['rope', 'a'],
    ['fig-rope-clock', 'b'],
    ['self-test-level-1', 'c'],
  ];
  const { page, context, problems } = await coursePage(
    frames
      .map(
        ([id, frame]) =>
          `<iframe src="index.html?embed=${id}&frame=${frame}" title="${id}" width="760" height="300"></iframe>`,
      )
      .join('\n'),
  );
  const fitted = async () =>
    page.evaluate(async () =>
      Promise.all(
        [...document.querySelectorAll('iframe')].map((f) => {
          const doc = f.contentDocument;
          return doc?.documentElement.dataset.liveState
            ? {
                frame: f.height,
                content: Math.ceil(doc.documentElement.getBoundingClientRect().height),
                scrolls: doc.documentElement.scrollHeight > doc.documentElement.clientHeight,
              }
            : null;
        }),
      ),
    );
  let sizes;
  for (let i = 0; i < 300; i++) {
    sizes = await fitted();
    if (sizes.every((s) => s && Number(s.frame) === s.content && !s.scrolls)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const [i, size] of sizes.entries())
    assert.ok(
      size && Number(size.frame) === size.content && !size.scrolls,
      `frame ${frames[i][0]}: ${JSON.stringify(size)}`,
    );
  assert.equal(new Set(sizes.map((s) => s.content)).size, 3, `three different heights: ${sizes.map((s) => s.content)}`);
  const own = await page.evaluate(() =>
    __messages.filter((m) => m?.type === 'positional-lesson:height').map((m) => m.frame),
  );
  assert.deepEqual([...new Set(own)].sort(), ['a', 'b', 'c']);
  assert.deepEqual(problems, []);
  await context.close();
});

test("embed mode posts Canvas's lti.frameResize and completes the H5P resizer handshake", async () => {
  // A host that speaks H5P's resizer protocol (hello, prepareResize → resizePrepared, resize).
  const h5pHost = `<iframe src="index.html?embed=causal-mask" title="causal mask" width="760" height="200"></iframe>
<script>
  window.__h5p = [];
  window.__canvas = [];
  addEventListener('message', (event) => {
    const frame = document.querySelector('iframe');
    if (event.source !== frame.contentWindow) return;
    if (event.data?.subject === 'lti.frameResize') __canvas.push(event.data.height);
    if (event.data?.context !== 'h5p') return;
    __h5p.push(event.data.action);
    const respond = (action) => event.source.postMessage({ context: 'h5p', action }, event.origin);
    if (event.data.action === 'hello') respond('hello');
    if (event.data.action === 'prepareResize') { frame.style.height = (event.data.clientHeight + 75) + 'px'; respond('resizePrepared'); }
    if (event.data.action === 'resize') frame.style.height = (event.data.scrollHeight + 75) + 'px';
  });
</script>`;
  const { page, context, problems } = await coursePage(h5pHost, { listener: false });
  await page.waitForFunction(() => window.__h5p?.includes('resize') && window.__canvas.length, null, {
    timeout: 60000,
  });
  const frame = await waitForFrame(page, (f) => f.url().includes('embed=causal-mask'));
  await page.waitForTimeout(300);
  const result = await page.evaluate(() => ({
    h5p: [...new Set(__h5p)],
    canvas: __canvas.at(-1),
    frame: parseFloat(document.querySelector('iframe').style.height),
  }));
  const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  assert.deepEqual(result.h5p, ['hello', 'prepareResize', 'resize']);
  assert.equal(result.canvas, content, 'Canvas gets the content height');
  assert.equal(result.frame, content + 75, 'the H5P host sizes the frame to the content plus its own 75 px');
  assert.deepEqual(problems, []);
  await context.close();
});

test('with no listener on the course page the embedded lesson scrolls inside its frame', async () => {
  const { page, context, problems } = await coursePage(
    '<iframe src="index.html?embed=rope" title="rope" width="760" height="300"></iframe>',
    { listener: false },
  );
  const frame = await waitForFrame(page, (f) => f.url().includes('embed=rope'));
  await page.locator('iframe').hover();
  await page.mouse.wheel(0, 600);
  await frame.waitForFunction(() => scrollY > 0, null, { timeout: 10000 });
  const view = await frame.evaluate(() => ({ overflow: getComputedStyle(document.body).overflowY, scrollY }));
  assert.notEqual(view.overflow, 'hidden');
  assert.ok(view.scrollY > 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test("?theme= sets the frame's theme whatever the reader's system or stored choice", async () => {
  const { page, context } = await openPage(site.browser, `${site.server.url}index.html?embed=rope&theme=dark`, {
    contextOptions: { colorScheme: 'light' },
  });
  const dark = await page.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    bg: getComputedStyle(document.documentElement).getPropertyValue('--bg').trim(),
  }));
  assert.equal(dark.theme, 'dark');
  await page.goto(`${site.server.url}index.html?embed=rope&theme=light`);
  const light = await page.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    bg: getComputedStyle(document.documentElement).getPropertyValue('--bg').trim(),
  }));
  assert.equal(light.theme, 'light');
  assert.notEqual(dark.bg, light.bg);
  await context.close();
});

// ---- Share / embed -------------------------------------------------------------------------------

test("Share / embed on a chart copies a link and a snippet carrying the chart's state, the theme and a frame id", async () => {
  const { page, context, problems } = await openPage(
    site.browser,
    `${site.server.url}index.html?rope-relative.d=32#fig-rope-relative`,
    {
      contextOptions: { permissions: ['clipboard-read', 'clipboard-write'] },
    },
  );
  const figure = page.locator('#fig-rope-relative');
  await figure.locator('.share-embed > summary').click();
  await figure.locator('.share-embed select').selectOption('dark');
  await figure.locator('button', { hasText: 'Copy link' }).click();
  await page.waitForFunction(() =>
    document.querySelector('#fig-rope-relative .share-embed-status').textContent.includes('copied'),
  );
  const link = new URL(await page.evaluate(() => navigator.clipboard.readText()));
  assert.equal(link.searchParams.get('embed'), 'fig-rope-relative');
  assert.equal(link.searchParams.get('rope-relative.d'), '32');
  assert.equal(link.searchParams.get('theme'), 'dark');
  assert.equal(link.searchParams.get('frame'), 'fig-rope-relative');
  await figure.locator('button', { hasText: 'Copy snippet' }).click();
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(snippet.startsWith(`<iframe src="${link.href.replace(/&/g, '&amp;')}"`), snippet);
  assert.match(snippet, /frame\.contentWindow === event\.source/);
  // Every section heading has one too.
  const sections = await page.evaluate(() =>
    [...document.querySelectorAll('section.lesson-section')]
      .filter((s) => s.querySelector(':scope > h2, :scope > h3'))
      .every((s) => s.querySelector(':scope > .share-embed')),
  );
  assert.ok(sections);
  assert.deepEqual(problems, []);
  await context.close();
});

test('an open Share / embed panel follows every change of its chart, and a copy made at once carries it', async () => {
  const { page, context, problems } = await openPage(site.browser, `${site.server.url}index.html#fig-rope-relative`, {
    contextOptions: { permissions: ['clipboard-read', 'clipboard-write'] },
  });
  await page.waitForFunction(() => window.positionalCharts?.mounted.get('rope-relative'), null, { timeout: 20000 });
  const figure = page.locator('#fig-rope-relative');
  await figure.locator('.share-embed > summary').click();
  await figure.locator('.share-embed-value').first().waitFor(); // built on the toggle event
  const delta = () => page.evaluate(() => String(window.positionalCharts.mounted.get('rope-relative').state.delta));
  const shown = () =>
    page.evaluate(() => {
      const link = document.querySelector('#fig-rope-relative .share-embed-value').textContent;
      return new URL(link).searchParams.get('rope-relative.delta');
    });
  assert.equal(await shown(), null, 'at the default the link carries no delta');
  // A handle is no form control (it sends no input event): the panel follows the URL's write.
  const handle = figure.locator('[data-handle="delta"]');
  await handle.focus();
  await page.keyboard.press('ArrowRight');
  const moved = await delta();
  await page.waitForFunction(
    (d) =>
      new URL(document.querySelector('#fig-rope-relative .share-embed-value').textContent).searchParams.get(
        'rope-relative.delta',
      ) === d,
    moved,
  );
  // Copy at once: with the page's clock held, the chart has drawn its frame but its URL write
  // (made once the reader pauses) has not happened when Copy link is pressed; the copy still carries the change.
  await page.clock.install();
  await page.keyboard.press('ArrowRight');
  await page.clock.runFor(50);
  const last = await delta();
  assert.notEqual(last, moved);
  assert.equal(
    await page.evaluate(() => new URLSearchParams(location.search).get('rope-relative.delta')),
    moved,
    'the URL write is still waiting',
  );
  await figure.locator('button', { hasText: 'Copy link' }).click();
  await page.waitForFunction(() =>
    document.querySelector('#fig-rope-relative .share-embed-status').textContent.includes('copied'),
  );
  const copied = new URL(await page.evaluate(() => navigator.clipboard.readText()));
  assert.equal(copied.searchParams.get('rope-relative.delta'), last);
  assert.equal(await shown(), last);
  assert.deepEqual(problems, []);
  await context.close();
});
