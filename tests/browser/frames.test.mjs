// The lesson on any page: the self-test on its own (kept in this browser, started over, stored
// answers read with suspicion), frames on a course page fitting their content (the lesson's own
// height message, Canvas's lti.frameResize, H5P's resizer handshake), ?theme=, and Share / embed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSite, openPage, repo } from './helpers.mjs';
import { SELF_TEST_ITEMS, itemForAttempt } from '../../web/js/self-test/self-test-items.js';
import { answerAll, answerChoice, shownVariant, waitForFrame, FAILED_ITEMS, GRADED } from './self-test-answers.mjs';

let site;

before(async () => {
  site = await startSite();
});

after(async () => {
  await site?.close();
});

// ---- the self-test on its own -------------------------------------------------------------------

test('on its own the self-test keeps its answers and their order in storage across a reload, and starts over', async () => {
  const { page, context, problems } = await openPage(site.browser, `${site.server.url}index.html#self-test`);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.course), undefined);
  const order = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('.graded-item[data-kind="choice"] input')].map((input) => input.value).join(),
    );
  const before = await order();
  const numbers = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('.graded-item[data-kind="numeric"]')].map((slot) => slot.dataset.params).join(),
    );
  const drawnBefore = await numbers();
  // The variant each slot shows: the attempt's draw.
  const variants = () =>
    page.evaluate(() => [...document.querySelectorAll('.graded-item')].map((slot) => slot.dataset.variant).join());
  const variantsBefore = await variants();
  const item = SELF_TEST_ITEMS.find((i) => i.id === 'why_positions');
  await answerChoice(page.mainFrame(), item);
  const numericItem = await shownVariant(
    page.mainFrame(),
    SELF_TEST_ITEMS.find((i) => i.id === 'interpolated_position'),
  );
  const numeric = page.locator('.graded-item[data-item="interpolated_position"]');
  await numeric.locator('input').fill('seventeen');
  await numeric.locator('button').click();
  assert.match(await numeric.locator('.graded-feedback').textContent(), /“seventeen” is not a number/);
  // The attempt's own numbers: the answer the formula gives for them.
  const drawn = itemForAttempt(
    numericItem,
    await page.evaluate(() => JSON.parse(localStorage.getItem('positional-lesson:self-test:v2')).s),
  );
  await numeric.locator('input').fill(String(drawn.formula()));
  await numeric.locator('input').press('Enter');
  const score = page.locator('[data-self-test-score]');
  assert.equal(await score.textContent(), `2 right of 2 answered (${GRADED.length} in all).`);
  await page.reload();
  await page.waitForFunction(
    () =>
      document.documentElement.dataset.liveState && document.querySelector('[data-self-test-score]').dataset.answered,
  );
  assert.match(await page.locator('[data-self-test-score]').textContent(), /^2 right of 2 answered/);
  assert.equal(await order(), before, 'the choices keep their order on reload');
  assert.equal(await numbers(), drawnBefore, 'and the numbers they were asked with');
  assert.equal(await variants(), variantsBefore, 'and the variants the attempt drew');
  // Start over, asked twice, with the keyboard.
  await page.locator('.self-test-start-over-ask').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter'); // "Clear my answers" has the focus
  await page.waitForFunction(() => document.querySelector('[data-self-test-score]').dataset.answered === '0');
  assert.equal(await page.locator('.graded-item[data-answered]').count(), 0);
  assert.notEqual(await order(), before, 'a new attempt shows the choices in a new order');
  // Five items' numbers drawn again: all five the same by chance is below one in a million.
  assert.notEqual(await numbers(), drawnBefore, 'a new attempt asks with new numbers');
  // Fifteen slots of two variants each: the same draw again by chance is one in 32,768.
  assert.notEqual(await variants(), variantsBefore, 'a new attempt draws new variants');
  assert.deepEqual(problems, []);
  await context.close();
});

test('stored answers are read with suspicion: re-graded, unknown ones dropped, an oversized record ignored', async () => {
  const forged = async (records) => {
    const { page, context, problems } = await openPage(site.browser, `${site.server.url}index.html#self-test`, {
      setup: (p) =>
        p.addInitScript((entries) => {
          if (sessionStorage.getItem('seeded')) return;
          sessionStorage.setItem('seeded', '1');
          for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
        }, records),
    });
    const state = await page.evaluate(() => ({
      answered: [...document.querySelectorAll('.graded-item[data-answered]')].map((el) => [
        el.dataset.item,
        el.dataset.answered,
      ]),
      score: document.querySelector('[data-self-test-score]').textContent,
      old: localStorage.getItem('positional-lesson:self-test:v1'),
    }));
    await context.close();
    return { ...state, problems };
  };
  // A record that claims a wrong answer is right, a choice the item has not got, an unknown item,
  // and a right answer to a variant its seed did not draw (00000001 draws why_positions, not
  // shuffle_pooled, in that slot).
  const claims = await forged({
    'positional-lesson:self-test:v1': JSON.stringify({ why_positions: { response: 'a', correct: true } }),
    'positional-lesson:self-test:v2': JSON.stringify({
      v: 2,
      s: '00000001',
      r: {
        why_positions: 'random_vectors',
        learned_limit: 'no-such-choice',
        'no-such-item': 'x',
        correct: true,
        rope_where: 'rope',
      },
    }),
  });
  assert.deepEqual(claims.answered, [['why_positions', 'wrong']]);
  assert.equal(claims.score, `0 right of 1 answered (${GRADED.length} in all).`);
  assert.equal(claims.old, null, 'the old format is removed');
  assert.deepEqual(claims.problems, []);
  // 50,000 junk keys: not read at all (and so not written back on every answer).
  const junk = {
    v: 2,
    s: '00c0ffee',
    r: Object.fromEntries(Array.from({ length: 50000 }, (_, i) => [`junk-${i}`, 'x'])),
  };
  junk.r['why_positions'] = 'set';
  const oversized = await forged({ 'positional-lesson:self-test:v2': JSON.stringify(junk) });
  assert.deepEqual(oversized.answered, []);
  assert.deepEqual(oversized.problems, []);
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
  const correct = GRADED.length - FAILED_ITEMS.size;
  assert.equal(
    score,
    `${correct} right of ${GRADED.length} answered (${GRADED.length} in all): ${Math.round((100 * correct) / GRADED.length)}%, below the 80% pass mark.`,
  );
  // Every wrong choice names its misconception and then the answer.
  const feedback = await page.locator('.graded-item[data-item="choose_long_context"] .graded-feedback').textContent();
  const item = await shownVariant(
    page.mainFrame(),
    SELF_TEST_ITEMS.find((i) => i.id === 'choose_long_context'),
  );
  assert.ok(feedback.includes(item.choices.find((c) => !c.correct).why), feedback);
  // A prediction reveals the engine's numbers once answered, and does not count.
  const reveal = await page.locator('.graded-item[data-item="predict_rope_shift"] .graded-reveal').textContent();
  assert.match(reveal, /The engine gives −?\d\.\d{3} at 3 and 7 and −?\d\.\d{3} at 103 and 107\./);
  assert.deepEqual(problems, []);
  await context.close();
});

// ---- frames on a course page --------------------------------------------------------------------

/** docs/hosting.md's snippet for several frames, taken from it so the two cannot drift apart. */
function readmeListener() {
  const readme = readFileSync(join(repo, 'docs', 'hosting.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Frames'));
  const match = /<script>\n([\s\S]*?)<\/script>/.exec(section);
  assert.ok(match, "docs/hosting.md's Frames section has a snippet with a <script>");
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
