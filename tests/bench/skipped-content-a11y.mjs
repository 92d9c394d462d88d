// Does content the browser skips (content-visibility: auto, off screen) stay in the accessibility
// tree? lesson.css keeps the rule only while the page loads, on the belief that it does not. This
// measures the belief in each engine on the built lesson, through each engine's own accessibility
// interface rather than the DOM:
//   Chromium: CDP Accessibility.getFullAXTree (the tree a screen reader is served), counting the
//             headings, links and text runs that are not ignored, and listing the headings.
//   Firefox:  WebDriver BiDi browsingContext.locateNodes with the accessibility locator (Gecko's
//             accessibility service answers it), counting headings, links and landmarks.
//   WebKit:   classic WebDriver's Get Computed Role and Get Computed Label (WebKit's AX objects) for
//             every heading and link.
// Each engine loads the page at 360 × 740 and measures twice: as the page leaves it (every block
// laid out) and with the rule back on every block (each block's data-laid-out removed; the page
// is scrolled to the top, so all but the first screen is skipped). It also counts, through
// checkVisibility({ contentVisibilityAuto: true }), how many headings and links the engine
// actually skipped, so a zero difference cannot come from an engine that ignored the rule.
// Writes tests/bench/results/skipped-content-a11y.json.
//
//   node tests/bench/skipped-content-a11y.mjs [--dist dist] [--engines chromium,firefox,webkit]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { startServer } from '../../web/site-builder/serve.mjs';
import { LAUNCH as CHROMIUM_LAUNCH, repo } from '../browser/helpers.mjs';
import { launchWebKit } from '../browser/engines/webkit-webdriver.mjs';

const VIEWPORT = { width: 360, height: 740 };

// Runs in the page: waits for the live numbers, then, when `skip`, puts every block back under the
// loading rule and scrolls to the top. Returns what the DOM holds and what the engine skipped.
const PREPARE = `async (skip) => {
  const root = document.documentElement;
  while (!root.dataset.liveState || root.classList.contains('is-loading')) await new Promise((r) => setTimeout(r, 50));
  if (skip) for (const block of document.querySelectorAll('[data-laid-out]')) delete block.dataset.laidOut;
  window.scrollTo(0, 0);
  for (let i = 0; i < 4; i += 1) await new Promise((r) => requestAnimationFrame(r));
  await new Promise((r) => setTimeout(r, 300));
  const headings = [...document.querySelectorAll('main h1, main h2, main h3, main h4')];
  const links = [...document.querySelectorAll('main a[href]')];
  const skipped = (el) => !el.checkVisibility({ contentVisibilityAuto: true });
  return {
    domHeadings: headings.length,
    domLinks: links.length,
    skippedHeadings: headings.filter(skipped).length,
    skippedLinks: links.filter(skipped).length,
    skippedBlocks: document.querySelectorAll('section.lesson-section > :not(section, [data-laid-out], .share-embed)').length,
  };
}`;

async function chromiumRun(url, skip) {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(url);
    const dom = await page.evaluate(`(${PREPARE})(${skip})`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Accessibility.enable');
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const shown = nodes.filter((n) => !n.ignored);
    const role = (r) => shown.filter((n) => n.role?.value === r);
    return {
      ...dom,
      axHeadings: role('heading').length,
      axLinks: role('link').length,
      axNamed: [...role('heading'), ...role('link')].filter((n) => n.name?.value).length,
      axTextRuns: role('StaticText').length,
      axLandmarks: shown.filter((n) =>
        ['main', 'navigation', 'banner', 'contentinfo', 'complementary', 'region'].includes(n.role?.value),
      ).length,
      headingNames: role('heading').map((n) => n.name?.value ?? ''),
    };
  } finally {
    await browser.close();
  }
}

/** A bare WebDriver BiDi client for Firefox ESR: the accessibility locator is not in Playwright's API. */
async function firefoxRun(url, skip) {
  const profile = mkdtempSync(join(tmpdir(), 'positional-ff-a11y-'));
  const firefox = spawn(
    process.env.POSITIONAL_FIREFOX ?? '/usr/bin/firefox-esr',
    [
      '--headless',
      '--remote-debugging-port=0',
      '--profile',
      profile,
      '--no-remote',
      `--width=${VIEWPORT.width}`,
      `--height=${VIEWPORT.height}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const endpoint = await new Promise((resolve, reject) => {
      let log = '';
      const timer = setTimeout(() => reject(new Error(`Firefox did not start: ${log}`)), 30000);
      firefox.stderr.on('data', (d) => {
        log += d;
        const match = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(log);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const socket = new WebSocket(`${endpoint}/session`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    let next = 0;
    const waiting = new Map();
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      const entry = waiting.get(message.id);
      if (!entry) return;
      waiting.delete(message.id);
      if (message.type === 'error') entry.reject(new Error(`${message.error}: ${message.message}`));
      else entry.resolve(message.result);
    });
    const send = (method, params) =>
      new Promise((resolve, reject) => {
        next += 1;
        waiting.set(next, { resolve, reject });
        socket.send(JSON.stringify({ id: next, method, params }));
      });
    await send('session.new', { capabilities: {} });
    const { contexts } = await send('browsingContext.getTree', {});
    const context = contexts[0].context;
    await send('browsingContext.setViewport', { context, viewport: VIEWPORT });
    await send('browsingContext.navigate', { context, url, wait: 'complete' });
    const evaluated = await send('script.evaluate', {
      expression: `(${PREPARE})(${skip}).then((r) => JSON.stringify(r))`,
      target: { context },
      awaitPromise: true,
    });
    const dom = JSON.parse(evaluated.result.value);
    const count = async (role) =>
      (await send('browsingContext.locateNodes', { context, locator: { type: 'accessibility', value: { role } } }))
        .nodes.length;
    // Names: plain-text headings and links far below the first screen (12, spread over the page: a
    // lookup walks Gecko's whole tree) are looked up by role and the name the DOM gives them (the
    // aria-label, else the text), the check WebKit's computed label makes.
    const wanted = JSON.parse(
      (
        await send('script.evaluate', {
          expression: `(() => {
            const far = [...document.querySelectorAll('main h2, main h3, main a[href]')].filter((el) => el.childElementCount === 0 && el.getBoundingClientRect().top > 3 * innerHeight);
            const step = Math.max(1, Math.floor(far.length / 12));
            return JSON.stringify(far.filter((_, i) => i % step === 0).slice(0, 12).map((el) => [el.matches('a') ? 'link' : 'heading', (el.getAttribute('aria-label') ?? el.textContent).replace(/\\s+/g, ' ').trim()]));
          })()`,
          target: { context },
          awaitPromise: false,
        })
      ).result.value,
    );
    let axNamed = 0;
    for (const [role, name] of wanted) {
      const { nodes } = await send('browsingContext.locateNodes', {
        context,
        locator: { type: 'accessibility', value: { role, name } },
        maxNodeCount: 1,
      });
      if (nodes.length) axNamed += 1;
    }
    const result = {
      ...dom,
      axNamed,
      axAsked: wanted.length,
      axHeadings: await count('heading'),
      axLinks: await count('link'),
      axLandmarks:
        (await count('main')) + (await count('navigation')) + (await count('banner')) + (await count('contentinfo')),
    };
    await send('session.end', {}).catch(() => {});
    socket.close();
    return result;
  } finally {
    firefox.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(profile, { recursive: true, force: true });
  }
}

async function webkitRun(url, skip) {
  const browser = await launchWebKit();
  try {
    const page = await browser.newPage();
    await page.setViewportSize(VIEWPORT);
    await page.goto(url);
    const dom = await page.evaluate(`(${PREPARE})(${skip})`);
    const found = await page.cmd('POST', '/elements', {
      using: 'css selector',
      value: 'main h1, main h2, main h3, main h4, main a[href]',
    });
    const key = Object.keys(found[0]).find((k) => k.startsWith('element-'));
    let axHeadings = 0;
    let axLinks = 0;
    let named = 0;
    for (const element of found) {
      const id = element[key];
      const role = await page.cmd('GET', `/element/${id}/computedrole`);
      const label = await page.cmd('GET', `/element/${id}/computedlabel`);
      if (role === 'heading') axHeadings += 1;
      if (role === 'link') axLinks += 1;
      if (label) named += 1;
    }
    return { ...dom, axHeadings, axLinks, axNamed: named, axAsked: found.length };
  } finally {
    await browser.close();
  }
}

const RUNS = { chromium: chromiumRun, firefox: firefoxRun, webkit: webkitRun };

async function main() {
  const { values } = parseArgs({
    options: {
      dist: { type: 'string', default: process.env.POSITIONAL_DIST ?? join(repo, 'dist') },
      engines: { type: 'string', default: 'chromium,firefox,webkit' },
      out: { type: 'string', default: join(repo, 'tests', 'bench', 'results', 'skipped-content-a11y.json') },
    },
  });
  const { dist, out } = values;
  const engines = values.engines.split(',');
  for (const engine of engines)
    if (!RUNS[engine]) throw new Error(`--engines must list chromium, firefox or webkit, got "${engine}"`);
  const server = await startServer({ root: dist, port: 0 });
  const url = `http://127.0.0.1:${server.port}/index.html`;
  const results = {};
  try {
    for (const engine of engines) {
      results[engine] = {};
      for (const skip of [false, true]) {
        const state = skip ? 'skipped' : 'laid out';
        results[engine][state] = await RUNS[engine](url, skip);
        const { headingNames, ...shown } = results[engine][state];
        console.log(engine, state, JSON.stringify(shown));
      }
    }
  } finally {
    await server.close();
  }
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        what: 'Headings, links and text runs in each engine’s accessibility tree, with every block laid out and with off-screen blocks skipped (content-visibility: auto), at 360 × 740',
        date: new Date().toISOString().slice(0, 10),
        results,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`wrote ${out}`);
}

await main();
