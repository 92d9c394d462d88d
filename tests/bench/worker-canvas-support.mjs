// What each engine offers for drawing charts in a Worker: OffscreenCanvas, a canvas's
// transferControlToOffscreen(), a module Worker admitted by the site's Trusted Types policy (the
// page's own headers, served by the site's server), a 2D context, text, animation frames, fonts and
// WebAssembly inside it, and whether the Worker's drawing reaches the page's canvas (read back
// through drawImage). The probe is tests/bench/worker-canvas/. Run once per engine; each run adds
// its engine's answer to tests/bench/results/worker-canvas-support.json.
//
//   POSITIONAL_BROWSER=firefox node tests/bench/worker-canvas-support.mjs
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINE, launchBrowser, repo } from '../browser/helpers.mjs';
import { startServer } from '../../web/site-builder/serve.mjs';

const out = join(repo, 'tests', 'bench', 'results', 'worker-canvas-support.json');
const server = await startServer({ root: join(repo, 'tests', 'bench', 'worker-canvas'), port: 0 });
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}index.html`);
  await page.waitForFunction(() => window.__probe, null, { timeout: 20000 });
  const answer = await page.evaluate(() => window.__probe);
  const results = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : { engines: {} };
  results.what =
    'Whether each engine can draw a chart in a module Worker on a transferred OffscreenCanvas under the site’s policy';
  results.engines[ENGINE] = { version: browser.version(), date: new Date().toISOString().slice(0, 10), ...answer };
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(ENGINE, JSON.stringify(answer));
} finally {
  await browser.close();
  await server.close();
}
