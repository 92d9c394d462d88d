// Embed mode's inputs from the address (web/js/page/embed.js): the frame id a course page passes is echoed
// in height messages only when it is letters, digits, - and _ (at most 100), and the "no such section"
// note quotes at most a short piece of an unknown ?embed= id, on the served page and from file://.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openPage, singleFile, startSite } from './helpers.mjs';

// The most of an unknown id the note may quote (the page's cap, 80 characters, and an ellipsis).
const QUOTED_ID_MAX = 80;

let site;
before(async () => {
  site = await startSite();
});
after(async () => site?.close());

/** Opens a course page holding `body` (served from the site's origin) and returns { page, context, problems }. */
async function coursePage(body) {
  const url = `${site.server.url}__course-page.html`;
  const html = `<!doctype html><html lang="en"><title>Course</title><body><script>window.__messages = []; addEventListener('message', (e) => __messages.push(e.data));</script>${body}</body></html>`;
  return openPage(site.browser, url, {
    waitForLive: false,
    setup: (p) => p.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html })),
  });
}

test('the frame id is echoed only when it is letters, digits, - and _, at most 100 of them', async () => {
  const frames = {
    valid: 'rope_clock-2',
    longest: 'a'.repeat(100),
    markup: '<img src=x onerror=alert(1)>',
    nul: 'a\u0000b',
    space: 'two words',
    dot: 'a.b',
    long: 'a'.repeat(101),
    empty: '',
  };
  const body = Object.entries(frames)
    .map(
      ([name, frame]) =>
        `<iframe name="${name}" src="index.html?embed=causal-mask&frame=${encodeURIComponent(frame)}" width="600" height="200"></iframe>`,
    )
    .join('\n');
  const { page, context, problems } = await coursePage(body);
  // Every frame has said its height at least once (on load at the latest).
  await page.waitForFunction(
    (count) => {
      const senders = new Set();
      for (const frame of document.querySelectorAll('iframe'))
        if (frame.contentDocument?.documentElement.dataset.embedHeight) senders.add(frame.name);
      return senders.size === count;
    },
    Object.keys(frames).length,
    { timeout: 60000 },
  );
  const echoed = await page.evaluate(() =>
    window.__messages.filter((m) => m?.type === 'positional-lesson:height').map((m) => m.frame),
  );
  const seen = new Set(echoed);
  assert.ok(seen.has(frames.valid), 'a valid id comes back');
  assert.ok(seen.has(frames.longest), 'a valid id of 100 characters comes back');
  assert.ok(seen.has(null), 'frames with invalid ids still say their height, with frame: null');
  for (const name of ['markup', 'nul', 'space', 'dot', 'long', 'empty']) {
    assert.ok(!seen.has(frames[name]), `${name}: never echoed`);
  }
  assert.deepEqual(
    [...seen].filter((frame) => frame !== null && !/^[A-Za-z0-9_-]{1,100}$/.test(frame)),
    [],
    'every echoed id follows the rule',
  );
  assert.deepEqual(problems, []);
  await context.close();
});

/** The note shown for `?embed=<id>` at `base`, and the page's state. */
async function missingNote(base, id) {
  const { page, context, problems } = await openPage(site.browser, `${base}?embed=${encodeURIComponent(id)}`);
  const note = await page.evaluate(() => document.querySelector('.embed-missing')?.textContent ?? null);
  await context.close();
  return { note, problems };
}

test('the note for an unknown ?embed= id quotes at most 80 characters of it', async () => {
  const short = 'no-such-section';
  const { note: shortNote } = await missingNote(site.server.url, short);
  assert.equal(shortNote, `This lesson has no section or figure with the id "${short}".`);
  const id = `${'x'.repeat(70)}${'y'.repeat(9000)}`; // within the server's 16 KB request line
  const { note, problems } = await missingNote(site.server.url, id);
  assert.equal(note, `This lesson has no section or figure with the id "${'x'.repeat(70)}${'y'.repeat(9)}…".`);
  assert.ok(note.length < QUOTED_ID_MAX + 60, `${note.length} characters`);
  assert.deepEqual(problems, []);
});

test(
  'from file://, an ?embed= id of 100,000 characters gets the same short note',
  { skip: !existsSync(singleFile) && 'no dist-single build' },
  async () => {
    const { note, problems } = await missingNote(pathToFileURL(singleFile).href, 'x'.repeat(100_000));
    assert.equal(note, `This lesson has no section or figure with the id "${'x'.repeat(QUOTED_ID_MAX - 1)}…".`);
    assert.deepEqual(problems, []);
  },
);
