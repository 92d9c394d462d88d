// The browser drivers themselves: what the suites rely on them to do the same in every engine.
// Chromium and Firefox are driven by Playwright; WebKit by the WebDriver adapter in
// engines/webkit-webdriver.mjs, which has to rebuild what Playwright does (waits that go on across a
// navigation, problems recorded in every document the page shows).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser, openPage, serveAndLaunch } from './helpers.mjs';

// Two plain pages (scripts in files of their own: the server sends the lesson's strict CSP). The
// link on the first leaves after `#<ms>` milliseconds, so a driver's command can be running in
// the old document as it unloads; the second logs an error and then retitles itself, late enough
// that a driver has to be recording in it by then (WebKit's adapter starts on its first poll there:
// 2 s leaves room for a loaded machine).
const FILES = {
  'favicon.ico': '', // asked for by Chromium: a 404 would be a logged error too
  'from.html':
    '<!doctype html><title>from</title><a id="leave" href="to.html">leave</a><script src="from.js"></script>',
  'from.js': `document.getElementById('leave').addEventListener('click', (event) => {
  event.preventDefault();
  setTimeout(() => { location.href = 'to.html'; }, Number(location.hash.slice(1)));
});`,
  'to.html': '<!doctype html><title>to</title><p>arrived</p><script src="to.js"></script>',
  'to.js': `setTimeout(() => console.error('logged in the second document'), 2000);
setTimeout(() => { document.title = 'settled'; }, 2300);`,
};

let site;
let root;
before(async () => {
  root = mkdtempSync(join(tmpdir(), 'positional-drivers-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(root, name), text);
  site = await serveAndLaunch(root, launchBrowser);
});
after(async () => {
  await site?.close();
  rmSync(root, { recursive: true, force: true });
});

// A click that starts a navigation at once, within a frame, or a little later: the click returns,
// the wait finds its condition in the new document, and an error logged there is reported. The
// delays straddle the click's own closing wait (two animation frames), where a command in WebKit
// once failed with "Callback was not called before the unload event".
for (const delay of [0, 16, 60]) {
  test(`a link followed ${delay} ms after the click: the wait goes on in the new document, and its errors are recorded`, async () => {
    const { page, problems } = await openPage(site.browser, `${site.server.url}from.html#${delay}`, {
      waitForLive: false,
    });
    await page.click('#leave');
    await page.waitForFunction(() => document.title === 'settled', null, { timeout: 10000 });
    assert.equal(await page.evaluate(() => location.pathname), '/to.html');
    assert.deepEqual(problems, ['console: logged in the second document']);
    await page.close();
  });
}
