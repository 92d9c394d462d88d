// Browser tests of the built lesson page (dist/ served by web/site-builder/serve.mjs, and the single-file
// build from file://) in the engine helpers.mjs selects: live numbers, sections, math, diagrams, snippet checks,
// CSP, embed mode, reading controls and the engine-failure fallback.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from '../../web/site-builder/serve.mjs';
import { languageAlternates, lessonLanguages, siteAddress } from '../../web/site-builder/build-site.mjs';
import {
  ENGINE,
  WEBKIT_MIN_WIDTH,
  dist,
  launchBrowser,
  recordPageErrors,
  repo,
  showInFrame,
  singleFile,
  twoFrames,
} from './helpers.mjs';

const lessonSource = readFileSync(join(repo, 'web', 'lesson', 'lesson.md'), 'utf8');

// ---- what the lesson source says the page must contain (read independently of the builder) ----
function outsideFences(markdown) {
  let inFence = false;
  return markdown.split('\n').filter((line) => {
    if (line.startsWith('```')) {
      inFence = !inFence;
      return false;
    }
    return !inFence;
  });
}
const proseLines = outsideFences(lessonSource.replace(/^<!--[\s\S]*?-->/, ''));
const expectedSections = proseLines
  .map((line) => /^(#{2,3}) (.+?) \{#([a-z0-9-]+)\}$/.exec(line))
  .filter(Boolean)
  .map((m) => ({ id: m[3], title: m[2].replace(/[*`]/g, '') }));
const expectedDiagrams = (lessonSource.match(/^```diagram /gm) ?? []).length;
const expectedSnippets = (lessonSource.match(/^```python /gm) ?? []).length;
const expectedCharts = [...lessonSource.matchAll(/^```chart ([a-z0-9-]+)/gm)].map((m) => m[1]);
const prose = proseLines.join('\n');
const expectedDisplayMath = (prose.match(/^\$\$$/gm) ?? []).length / 2;
const expectedInlineMath = (prose.replace(/^\$\$[\s\S]*?^\$\$$/gm, '').match(/\$[^$\n]+\$/g) ?? []).length;
const expectedQuestions = (lessonSource.match(/^::: question /gm) ?? []).length;

// The numbers positional.py prints (its docstring and demo()), as the page must show them: the
// engine reproduces the lesson's NumPy code, so these are the reference, compared as printed text.
const LESSON_PRINTS = {
  'order.none': '1.000',
  'order.sinusoidal': '0.995',
  'order.rope': '0.997',
  'order.causal': '0.524',
  'attn.dog-scores': '1, 0, 1',
  'attn.dog-scaled-scores': '0.707, 0, 0.707',
  'attn.dog-weights': '0.401, 0.198, 0.401',
  'attn.dog-output': '(0.802, 0.599)',
  'attn.dog-output-shuffled': '(0.802, 0.599)',
  'sin.pe.1': '(0.841, 0.540, 0.010, 1.000)',
  'sin.pe.2.1': '−0.416',
  'sin.omega1-inverse': '100',
  'gpt2.position-parameters': '786,432',
  'rope.q-at-3': '(−0.990, 0.141)',
  'rope.k-at-7': '(0.754, 0.657)',
  'rope.score-3-7': '−0.654',
  'rope.score-103-107': '−0.654',
  'rope.score-3-8': '0.284',
  'rope.theta0': '1',
  'interp.ratio': '1/8',
  'interp.example-result': '4,000',
  'ntk.factor': '8.27',
  'ntk.base': '82,685',
  'ntk.slowest-before': '1.15 × 10⁻⁴',
  'ntk.slowest-after': '1.44 × 10⁻⁵',
  'ntk.slowdown': '8',
  'extension.raw-over-band': '8',
};

let browser;
let server;

before(async () => {
  assert.ok(existsSync(join(dist, 'index.html')), `no built site at ${dist}: run the wasm build's site target first`);
  server = await startServer({ root: dist, port: 0 });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens the page, recording console errors, failed requests and CSP violations. */
async function openPage(path = '', { viewport = { width: 1280, height: 900 }, setup } = {}) {
  const page = await browser.newPage({ viewport });
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  recordPageErrors(page, problems, 'pageerror: ');
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`),
    );
  });
  if (setup) await setup(page);
  const response = await page.goto(`${server.url}${path}`);
  await page.waitForFunction(() => document.documentElement.dataset.liveState, null, { timeout: 20000 });
  return { page, problems, response };
}

describe('the served page', () => {
  let page;
  let problems;
  let response;
  before(async () => {
    ({ page, problems, response } = await openPage());
  });
  after(async () => page.close());

  test('loads with no console error, failed request or CSP violation, under the strict CSP', async () => {
    const csp = response.headers()['content-security-policy'];
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /require-trusted-types-for 'script'/);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.liveState), 'ready');
    assert.deepEqual(problems, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
    const inline = await page.evaluate(() => ({
      styleAttributes: document.querySelectorAll('[style]').length,
      styleElements: document.querySelectorAll('style').length,
      inlineScripts: [...document.querySelectorAll('script')].filter((s) => !s.src).map((s) => s.textContent),
      // What the inline theme script does before the first paint (main.js clears is-loading later).
      lazyLayout: document.documentElement.classList.contains('lazy-layout'),
    }));
    const { inlineScripts, ...rest } = inline;
    assert.deepEqual(rest, { styleAttributes: 0, styleElements: 0, lazyLayout: true });
    // One inline script, the theme script, allowed by its hash (and so it ran: see lazyLayout).
    assert.equal(inlineScripts.length, 1);
    const hash = `'sha256-${createHash('sha256').update(inlineScripts[0], 'utf8').digest('base64')}'`;
    assert.ok(
      csp.split(';').some((d) => d.trim().startsWith('script-src') && d.includes(hash)),
      csp,
    );
  });

  test('the engine is asked for once the HTML is parsed, each file once, not from <head>', async () => {
    // In <head>, its 80 KB shared the slow link with the stylesheet and put DOMContentLoaded off.
    const head = readFileSync(join(dist, 'index.html'), 'utf8').split('</head>')[0];
    assert.doesNotMatch(head, /engine[\w-]*\.(mjs|wasm)|after-engine/);
    const files = ['engine.mjs', 'engine-facade.mjs', 'engine-declaration.mjs', 'engine-core.mjs', 'engine.wasm'];
    const { parsed, fetched } = await page.evaluate(
      (names) => ({
        parsed: performance.getEntriesByType('navigation')[0].domInteractive,
        fetched: performance
          .getEntriesByType('resource')
          .filter((e) => names.includes(new URL(e.name).pathname.split('/').pop()))
          .map((e) => ({ file: new URL(e.name).pathname.split('/').pop(), start: e.startTime })),
      }),
      files,
    );
    // Once each: the preload main.js adds is the fetch the engine uses, not a second one. WebKit
    // fetches the WebAssembly again for the engine, as it did with the preload in <head> (the
    // modules it takes from their preloads).
    const expected = ENGINE === 'webkit' ? [...files, 'engine.wasm'] : files;
    assert.deepEqual(fetched.map((f) => f.file).sort(), [...expected].sort());
    for (const { file, start } of fetched)
      assert.ok(start >= parsed, `${file} asked for at ${start} ms, before the parse ended at ${parsed}`);
  });

  test('the model-config reader is fetched only when the model card mounts, and the card reads with it', async () => {
    const fetched = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => new URL(e.name).pathname.split('/').pop())
          .filter((f) => f.startsWith('engine')),
      );
    const atLoad = await fetched();
    assert.ok(atLoad.includes('engine.wasm'), `the kernels load with the page: ${atLoad}`);
    assert.ok(!atLoad.some((f) => f.startsWith('engine-config')), `nothing of the reader yet: ${atLoad}`);
    // WebKit sometimes ignores a scrollIntoView() issued while the sections are still being laid out
    // (about one load in five here); a reader would scroll again, and so does this until it is in view.
    await page.waitForFunction(
      () => {
        const slot = document.querySelector('[data-chart="model-card"]');
        const { top } = slot.getBoundingClientRect();
        if (top >= 0 && top < innerHeight) return true;
        slot.scrollIntoView();
        return false;
      },
      null,
      { timeout: 20000 },
    );
    await page.waitForFunction(() => window.positionalCharts?.mounted.has('model-card'), null, { timeout: 20000 });
    const after = await fetched();
    assert.ok(after.includes('engine-config.wasm') && after.includes('engine-config.mjs'), `${after}`);
    const card = await page.evaluate(() => ({
      state: document.querySelector('[data-chart="model-card"]').dataset.chartState,
      errors: [...document.querySelectorAll('[data-chart="model-card"] .chart-error')].filter((e) =>
        e.textContent.trim(),
      ).length,
      scheme: window.positionalLesson.engine.readModelConfig('{"model_type": "gpt2", "n_positions": 1024}', 10).scheme,
    }));
    assert.deepEqual(card, { state: 'mounted', errors: 0, scheme: 'learned' });
    assert.deepEqual(problems, []);
  });

  test('every live number is filled with what the engine returns for its quantity', async () => {
    const report = await page.evaluate(async () => {
      const live = await import('./js/prose/live-values.js');
      const { loadEngine } = await import('./js/engine/engine.js');
      const results = live.computeEngineResults(await loadEngine());
      return [...document.querySelectorAll('[data-live]')].map((el) => {
        let expected;
        try {
          expected = live.liveText(el.dataset.live, results, el.dataset.format);
        } catch (error) {
          expected = `ERROR ${error.message}`;
        }
        return { name: el.dataset.live, format: el.dataset.format ?? null, shown: el.textContent, expected };
      });
    });
    assert.ok(report.length >= 60, `expected at least 60 live numbers, found ${report.length}`);
    for (const { name, shown, expected } of report) {
      assert.notEqual(shown, '…', `${name} was never filled`);
      assert.equal(shown, expected, `${name}: page shows ${shown}, the engine gives ${expected}`);
    }
    // The page reproduces the lesson's printed numbers (default format of each quantity).
    for (const [name, printed] of Object.entries(LESSON_PRINTS)) {
      const shown = report.find((r) => r.name === name && r.format === null);
      assert.ok(shown, `the page has no ${name}`);
      assert.equal(shown.shown, printed, `${name}: the lesson prints ${printed}`);
    }
  });

  test('every section of the lesson is present, in order, with a permalink and a contents entry', async () => {
    const found = await page.evaluate(() =>
      [...document.querySelectorAll('section.lesson-section')].map((s) => ({
        id: s.id,
        heading: s.querySelector('h2, h3').textContent.replace(/#$/, '').trim(),
        permalink: s.querySelector('.permalink')?.getAttribute('href'),
        toc: Boolean(document.querySelector(`.toc a[href="#${s.id}"]`)),
      })),
    );
    assert.deepEqual(
      found.map((s) => s.id),
      expectedSections.map((s) => s.id),
    );
    for (const [i, s] of found.entries()) {
      assert.equal(s.heading, expectedSections[i].title);
      assert.equal(s.permalink, `#${s.id}`);
      assert.ok(s.toc, `${s.id} is missing from the contents`);
    }
    assert.equal(await page.locator('h1').textContent(), 'Positional information: how a transformer knows word order');
    assert.equal(await page.locator('details.self-test').count(), expectedQuestions);
    assert.equal(await page.locator('details.self-test[open]').count(), 0, 'answers start hidden');
  });

  /** MathML's elements that take a fixed number of arguments, and that number (MathML Core). */
  const MATHML_ARITY = { msub: 2, msup: 2, msubsup: 3, mfrac: 2, mroot: 2, munder: 2, mover: 2, munderover: 3 };

  test('every formula is one MathML tree carrying its TeX, drawn by the browser itself', async () => {
    const math = await page.evaluate((arity) => {
      const main = document.querySelector('main');
      const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
      const dollars = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.textContent.includes('$') && !n.parentElement.closest('code, annotation'))
          dollars.push(n.textContent.slice(0, 60));
      }
      const fixedArity = [...main.querySelectorAll(Object.keys(arity).join(','))];
      const formulas = [...main.querySelectorAll('math')];
      return {
        formulas: formulas.length,
        display: main.querySelectorAll('.math-display > math.katex[display="block"]').length,
        // Each formula's TeX rides along as its annotation (for copying and for readers that use it).
        withTex: formulas.filter((m) =>
          m.querySelector('semantics > annotation[encoding="application/x-tex"]')?.textContent.trim(),
        ).length,
        // Nothing but the MathML draws a formula: no second, HTML copy beside it.
        wrappers: [...main.querySelectorAll('.katex')].filter((el) => el.localName !== 'math').length,
        errors: main.querySelectorAll('.math-error').length,
        dollars,
        // Every MathML element with a fixed number of arguments has exactly that many (what
        // Firefox's "Incorrect number of children for <msubsup/> tag" is about; see helpers.mjs).
        malformed: fixedArity
          .filter((el) => el.children.length !== arity[el.localName])
          .map((el) => `<${el.localName}> with ${el.children.length} children: ${el.textContent.slice(0, 40)}`),
        checked: fixedArity.length,
      };
    }, MATHML_ARITY);
    assert.deepEqual(math.malformed, []);
    assert.ok(math.checked > 0, 'the page has scripts and fractions to check');
    assert.equal(math.display, expectedDisplayMath);
    assert.ok(
      math.formulas >= expectedInlineMath + expectedDisplayMath,
      `${math.formulas} formulas rendered, ${expectedInlineMath + expectedDisplayMath} in the source`,
    );
    assert.equal(math.withTex, math.formulas);
    assert.equal(math.wrappers, 0);
    assert.equal(math.errors, 0);
    assert.deepEqual(math.dollars, []);
  });

  test('the flow diagrams are inline SVG with a title, and the chart slots are in place', async () => {
    const diagrams = await page.evaluate(() =>
      [...document.querySelectorAll('figure.diagram')].map((f) => ({
        visible: [...f.querySelectorAll('svg')].filter((s) => s.getBoundingClientRect().width > 0).length,
        titled: [...f.querySelectorAll('svg')].every((s) => s.querySelector('title')?.textContent.length > 0),
        nodes: f.querySelectorAll('svg')[0].querySelectorAll('.diagram-node').length,
      })),
    );
    assert.equal(diagrams.length, expectedDiagrams);
    for (const d of diagrams) {
      assert.equal(d.visible, 1, 'one drawing per figure shows at a time');
      assert.ok(d.titled);
      assert.ok(d.nodes >= 5);
    }
    const charts = await page.evaluate(() =>
      [...document.querySelectorAll('figure.chart-slot')].map((f) => ({
        id: f.id,
        chart: f.dataset.chart,
        caption: f.querySelector('figcaption')?.textContent.trim() ?? '',
      })),
    );
    assert.deepEqual(
      charts.map((c) => c.chart),
      expectedCharts,
    );
    for (const c of charts) {
      assert.equal(c.id, `fig-${c.chart}`);
      assert.ok(c.caption.length > 20, `${c.id} needs its caption`);
    }
  });

  test('every snippet is checked against the engine, and its C++ tab works from the keyboard', async () => {
    const badges = await page.evaluate(() =>
      [...document.querySelectorAll('[data-check]')].map((s) => ({
        id: s.dataset.check,
        status: s.querySelector('.check-badge').dataset.checkStatus,
        claims: s.querySelectorAll('.claim.claim-checked').length,
      })),
    );
    assert.equal(badges.length, expectedSnippets);
    for (const b of badges) {
      assert.equal(b.status, 'checked', `snippet ${b.id}`);
      assert.ok(b.claims >= 1);
    }
    // The C++ panels' code waits in a <template> until its tab is chosen: none of it is in the document.
    const held = await page.evaluate(() =>
      [...document.querySelectorAll('.snippet-panel[hidden]')].map((p) => p.getElementsByTagName('*').length),
    );
    assert.ok(held.length >= 6, `${held.length} hidden panels`);
    assert.deepEqual(
      held,
      held.map(() => 1),
      'each hidden panel holds its template alone',
    );
    const python = page.locator('#tab-attention-python');
    await python.focus();
    await page.keyboard.press('ArrowRight');
    const cppTab = page.locator('#tab-attention-cpp');
    assert.equal(await cppTab.getAttribute('aria-selected'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-attention-cpp');
    assert.ok(await page.locator('#panel-attention-cpp').isVisible());
    assert.match(await page.locator('#panel-attention-cpp').textContent(), /scaled_dot_product_attention/);
    assert.equal(await page.locator('#panel-attention-cpp template').count(), 0, 'its code entered the page');
    const shown = await page.locator('#panel-attention-cpp *').count();
    assert.ok((await page.locator('#panel-attention-cpp .hljs-keyword').count()) > 5, 'highlighted as built');
    assert.ok(!(await page.locator('#panel-attention-python').isVisible()));
    await page.keyboard.press('Home');
    assert.equal(await python.getAttribute('aria-selected'), 'true');
    // Back and forth again: the code entered once, not twice.
    await page.keyboard.press('End');
    await page.keyboard.press('Home');
    assert.equal(await page.locator('#panel-attention-cpp *').count(), shown);
  });

  test('the level switch hides the other level, and a link into a hidden level opens it', async () => {
    await page.click('[data-show="1"]');
    assert.ok(await page.locator('#level-1').isVisible());
    assert.ok(!(await page.locator('#level-2').isVisible()));
    await page.evaluate(() => {
      location.hash = '#rope';
    });
    await page.waitForFunction(() => document.documentElement.dataset.levelView === '2');
    assert.ok(await page.locator('#rope').isVisible());
    assert.ok(!(await page.locator('#level-1').isVisible()));
    await page.click('[data-show="all"]');
    assert.ok(await page.locator('#level-1').isVisible());
  });

  test('the walkthrough steps through the demo with live numbers', async () => {
    const steps = page.locator('.walkthrough-step');
    const count = await steps.count();
    assert.equal(count, 4);
    assert.ok(await steps.nth(0).isVisible());
    assert.ok(!(await steps.nth(1).isVisible()));
    // Each press shows the next step; wait for it before the next press (Firefox over BiDi reports a
    // click before the page has handled it, so a press sent at once could land on the step before).
    for (let i = 1; i < count; i++) {
      await page.click('[data-walk="next"]');
      await page.waitForFunction(
        (n) => !document.querySelectorAll('.walkthrough-step')[n].classList.contains('is-hidden-step'),
        i,
        { timeout: 10000 },
      );
    }
    assert.ok(await steps.nth(3).isVisible());
    assert.equal(await page.locator('[data-walk="next"]').isDisabled(), true);
    assert.equal(await steps.nth(3).locator('[data-live="ntk.base"]').textContent(), '82,685');
  });

  test('the theme toggle switches colours and is remembered', async () => {
    const before = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await page.click('[data-theme-toggle]');
    const afterToggle = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    assert.notEqual(afterToggle, before);
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.liveState);
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), afterToggle);
    await page.evaluate(() => localStorage.clear());
  });
});

test('the level switch keeps the reader in their place; a level that hides it opens at its start', async () => {
  const { page, problems } = await openPage('?level=2');
  // The choice is remembered, and WebKit's pages share their storage: the tests after this one
  // expect both levels, whatever happens here.
  try {
    await page.waitForFunction(() => !document.documentElement.classList.contains('is-loading'), null, {
      timeout: 30000,
    });
    const topOf = (id) => page.evaluate((i) => document.getElementById(i).getBoundingClientRect().top, id);
    await page.evaluate(() => document.getElementById('rope').scrollIntoView({ block: 'start', behavior: 'instant' }));
    await twoFrames(page);
    const reading = await topOf('rope-title');
    // With the keys (a pointer's click would first have the harness scroll the button into view).
    // Focusing a control of the sticky bar moves nothing: the bar is not under itself.
    const press = async (level) => {
      const before = await topOf('rope-title');
      await page.focus(`[data-show="${level}"]`);
      const focused = await topOf('rope-title');
      assert.ok(Math.abs(focused - before) <= 2, `focusing the switch moved the text from ${before} to ${focused} px`);
      await page.keyboard.press('Enter');
      await page.waitForFunction((l) => document.documentElement.dataset.levelView === l, level);
      await twoFrames(page);
    };
    // Both levels put all of Level 1 above the heading being read. Within 2 px: a scroll offset
    // snaps to whole device pixels.
    await press('all');
    const after = await topOf('rope-title');
    assert.ok(Math.abs(after - reading) <= 2, `the heading read at ${reading} px is at ${after} px`);
    // Level 1 alone hides that heading: the reader is at Level 1's start, under the bar.
    await press('1');
    const padding = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop));
    const start = await topOf('level-1');
    assert.ok(Math.abs(start - padding) <= 2, `Level 1 starts at ${start} px, not under the bar (${padding} px)`);
    assert.deepEqual(problems, []);
  } finally {
    await page.evaluate(() => localStorage.clear());
    await page.close();
  }
});

test('while the page lays itself out, a link’s target and the text being read stay in place', async () => {
  // Blocks above the reader take their real height as they are let in. Within 2 px: a scroll offset
  // snaps to whole device pixels. Watched every frame the page lets blocks in, from the first (the
  // live numbers are in a frame before) until the last.
  const watch = (page, id) =>
    page.evaluate(async (i) => {
      const el = document.getElementById(i);
      const tops = [];
      await new Promise((r) => requestAnimationFrame(r));
      while (document.documentElement.classList.contains('is-loading')) {
        tops.push(el.getBoundingClientRect().top);
        await new Promise((r) => requestAnimationFrame(r));
      }
      tops.push(el.getBoundingClientRect().top);
      return { first: tops[0], low: Math.min(...tops), high: Math.max(...tops), frames: tops.length };
    }, id);
  const linked = await openPage('#rope');
  const padding = await linked.page.evaluate(() =>
    parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop),
  );
  const link = await watch(linked.page, 'rope');
  assert.ok(link.frames > 1, 'the page was still letting blocks in when the live numbers were in');
  assert.ok(
    Math.abs(link.low - padding) <= 2 && Math.abs(link.high - padding) <= 2,
    `#rope was at ${link.low}–${link.high} px, not under the bar (${padding} px), over ${link.frames} frames`,
  );
  assert.deepEqual(linked.problems, []);
  await linked.page.close();
  // A reader who scrolled to a section before the blocks above it were in.
  const reader = await openPage();
  await reader.page.evaluate(() =>
    document.getElementById('extending-context').scrollIntoView({ behavior: 'instant' }),
  );
  const read = await watch(reader.page, 'extending-context');
  assert.ok(read.frames > 1, 'the page was still letting blocks in when the reader scrolled');
  assert.ok(
    read.high - read.low <= 2,
    `#extending-context moved between ${read.low} and ${read.high} px (first ${read.first}) over ${read.frames} frames`,
  );
  await reader.page.close();
});

test('at 360 px the page has no horizontal scroll and diagrams draw top to bottom', async () => {
  const measure = () => ({
    scrollWidth: document.documentElement.scrollWidth,
    wideShown: [...document.querySelectorAll('.diagram-wide')].filter((s) => s.getBoundingClientRect().width > 0)
      .length,
  });
  if (ENGINE === 'webkit') {
    // MiniBrowser's window is never narrower than its toolbar (about 450 px): in WebKit the page
    // is laid out in a 360 px wide iframe, whose viewport is 360 CSS px just the same.
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    await page.goto(`${server.url}index.html?charts=lazy`);
    await showInFrame(page, `${server.url}index.html`, { frameBorder: '0', width: '360', height: '780' });
    const [frame] = page.frames();
    await frame.waitForFunction(() => document.documentElement.dataset.liveState);
    const layout = await frame.evaluate(measure);
    assert.equal(await frame.evaluate(() => innerWidth), 360);
    assert.ok(layout.scrollWidth <= 360, `page is ${layout.scrollWidth} px wide`);
    assert.equal(layout.wideShown, 0);
    await page.close();
    return;
  }
  const { page, problems } = await openPage('', { viewport: { width: 360, height: 780 } });
  const layout = await page.evaluate(measure);
  assert.ok(layout.scrollWidth <= 360, `page is ${layout.scrollWidth} px wide`);
  assert.equal(layout.wideShown, 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('on wide screens a figure takes part of the margin; the text keeps its measure; nothing scrolls sideways', async () => {
  const measure = () => {
    const slot = document.querySelector('[data-chart="context-extension"]').getBoundingClientRect();
    const text = document.querySelector('.lesson-header > p').getBoundingClientRect();
    return { slot: slot.width, text: text.width, right: slot.right, scrollWidth: document.documentElement.scrollWidth };
  };
  const widths = {};
  for (const width of [1000, 1600]) {
    const { page, problems } = await openPage('', { viewport: { width, height: 900 } });
    widths[width] = await page.evaluate(measure);
    assert.ok(widths[width].scrollWidth <= width, `${width}: the page is ${widths[width].scrollWidth} px wide`);
    assert.ok(widths[width].right <= width, `${width}: the figure ends at ${widths[width].right}`);
    assert.deepEqual(problems, []);
    await page.close();
  }
  assert.ok(Math.abs(widths[1000].slot - widths[1000].text) < 2, `at 1000 px figure and text share the column`);
  assert.ok(
    widths[1600].slot >= widths[1600].text + 200,
    `at 1600 px: figure ${widths[1600].slot}, text ${widths[1600].text}`,
  );
  assert.ok(Math.abs(widths[1600].text - widths[1000].text) < 2, 'the text column keeps its measure');
});

test('asides (the symbol tables) sit in the margin on wide screens, clear of the text and the figures, and in the text on narrower ones', async () => {
  const measure = () => {
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left + scrollX, right: r.right + scrollX, top: r.top + scrollY, bottom: r.bottom + scrollY };
    };
    const text = document.querySelector('.lesson-header > p').getBoundingClientRect();
    return {
      text: { left: text.left, right: text.right },
      notes: [...document.querySelectorAll('.margin-note')].map(box),
      figures: [...document.querySelectorAll('.chart-slot')].map(box),
      scrollWidth: document.documentElement.scrollWidth,
    };
  };
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  for (const width of [1000, 1600]) {
    const { page, problems } = await openPage('', { viewport: { width, height: 900 } });
    // Once every section is laid out (while loading, far sections are skipped: content-visibility).
    await page.waitForFunction(() => !document.documentElement.classList.contains('is-loading'));
    const { text, notes, figures, scrollWidth } = await page.evaluate(measure);
    assert.ok(notes.length >= 7, `${notes.length} asides`);
    assert.ok(scrollWidth <= width, `${width}: the page is ${scrollWidth} px wide`);
    for (const [i, note] of notes.entries()) {
      if (width === 1600) {
        assert.ok(
          note.left >= text.right + 8 && note.right <= width,
          `aside ${i} at ${note.left}–${note.right}, text ends at ${text.right}`,
        );
        for (const [j, figure] of figures.entries())
          assert.ok(!overlap(note, figure), `aside ${i} covers figure ${j}: ${JSON.stringify([note, figure])}`);
        for (const other of notes.slice(i + 1))
          assert.ok(!overlap(note, other), `aside ${i} covers the next: ${JSON.stringify([note, other])}`);
      } else {
        assert.ok(Math.abs(note.left - text.left) < 2 && note.right <= text.right + 2, `aside ${i} in the column`);
      }
    }
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('a display formula is a named tab stop exactly while it overflows, as its text grows and the window widens', async () => {
  const narrow = ENGINE === 'webkit' ? WEBKIT_MIN_WIDTH : 360;
  const { page, problems } = await openPage('', { viewport: { width: narrow, height: 800 } });
  await page.waitForFunction(() => !document.documentElement.classList.contains('is-loading'));
  // Every display formula: does it overflow its box, and how is it marked?
  const regions = () =>
    [...document.querySelectorAll('.math-display')].map((el) => ({
      overflowing: el.scrollWidth > el.clientWidth + 1,
      marked: el.dataset.scrollRegion !== undefined,
      attributes: [el.getAttribute('tabindex'), el.getAttribute('role'), el.getAttribute('aria-label')],
    }));
  const settled = () =>
    [...document.querySelectorAll('.math-display')].every(
      (el) => el.scrollWidth > el.clientWidth + 1 === (el.dataset.scrollRegion !== undefined),
    );
  const check = (list, where) => {
    for (const r of list) {
      assert.equal(r.marked, r.overflowing, `${where}: ${JSON.stringify(r)}`);
      const expected = r.marked ? ['0', 'group', 'Formula (scrolls sideways)'] : [null, null, null];
      assert.deepEqual(r.attributes, expected, where);
    }
    return list.filter((r) => r.marked).length;
  };
  const atStart = await page.evaluate(regions);
  assert.ok(atStart.length >= 5, `${atStart.length} display formulas`);
  const stopsAtStart = check(atStart, `${narrow} px`);
  // Text twice as large: the formulas widen inside boxes that keep their width, and more overflow.
  await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
  await page.waitForFunction(settled);
  const stopsLarge = check(await page.evaluate(regions), `${narrow} px, text at 200 %`);
  assert.ok(stopsLarge > stopsAtStart, `${stopsLarge} tab stops with large text, ${stopsAtStart} without`);
  // A wider window: the boxes widen, and fewer formulas overflow.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForFunction(settled);
  const stopsWide = check(await page.evaluate(regions), '1280 px, text at 200 %');
  assert.ok(stopsWide < stopsLarge, `${stopsWide} tab stops at 1280 px, ${stopsLarge} at ${narrow} px`);
  // Back as it was: the same tab stops as at the start.
  await page.evaluate(() => (document.documentElement.style.fontSize = ''));
  await page.setViewportSize({ width: narrow, height: 800 });
  await page.waitForFunction(settled);
  assert.deepEqual(
    (await page.evaluate(regions)).map((r) => r.marked),
    atStart.map((r) => r.marked),
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('embed mode shows one piece alone and posts its height to the parent', async () => {
  const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  // A stand-in course page on the same server (fulfilled by the test, so without the lesson's CSP):
  // frame-ancestors admits http(s) parents, not an opaque about:blank one.
  const coursePage = '<!doctype html><title>Course</title><body></body>';
  let parentUrl = `${server.url}__course-page.html`;
  let courseServer = null;
  if (ENGINE === 'webkit') {
    // WebDriver cannot fulfil a request: the course page comes from its own server (another origin, as on a course site).
    courseServer = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(coursePage));
    await new Promise((resolve) => courseServer.listen(0, '127.0.0.1', resolve));
    parentUrl = `http://127.0.0.1:${courseServer.address().port}/course.html`;
  } else {
    await page.route(parentUrl, (route) => route.fulfill({ contentType: 'text/html', body: coursePage }));
  }
  try {
    await embedInCoursePage(page, parentUrl);
  } finally {
    await page.close();
    courseServer?.close();
  }
});

/** Frames ?embed=rope-relative in the course page at `parentUrl` and checks the view and the heights it posts. */
async function embedInCoursePage(page, parentUrl) {
  await page.goto(parentUrl);
  await page.evaluate((src) => {
    window.__heights = [];
    addEventListener(
      'message',
      (e) => e.data?.type === 'positional-lesson:height' && window.__heights.push(e.data.height),
    );
    const frame = document.createElement('iframe');
    frame.src = src;
    frame.width = '700';
    frame.height = '400';
    document.body.append(frame);
  }, `${server.url}index.html?embed=rope-relative`);
  await page.waitForFunction(() => window.__heights.length > 0, null, { timeout: 20000 });
  const frame = page.frames().find((f) => f.url().includes('embed='));
  await frame.waitForFunction(() => document.documentElement.dataset.liveState);
  const view = await frame.evaluate(() => ({
    target: document.getElementById('fig-rope-relative').getBoundingClientRect().height > 0,
    bar: document.querySelector('.site-bar').getBoundingClientRect().height,
    level1: document.getElementById('level-1').getBoundingClientRect().height,
    otherFigure: document.getElementById('fig-rope-frequencies').getBoundingClientRect().height,
  }));
  assert.deepEqual(view, { target: true, bar: 0, level1: 0, otherFigure: 0 });
  const heights = await page.evaluate(() => window.__heights);
  assert.ok(
    heights.every((h) => Number.isFinite(h) && h > 0 && h < 2000),
    `heights ${heights}`,
  );
}

test('the built page already prints every live number, as the engine computes it, for a reader without script', () => {
  // The HTML as served, before any script: each live number's text is the build engine's.
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const printed = [...html.matchAll(/<span class="live" data-live="([^"]+)"[^>]*>([^<]*)<\/span>/g)];
  assert.ok(printed.length >= 60, `${printed.length} live numbers in the HTML`);
  assert.deepEqual(
    printed.filter(([span]) => !span.includes('data-prerendered')).map(([, name]) => name),
    [],
    'every live number is marked as printed by the build',
  );
  assert.deepEqual(
    printed.filter(([, , text]) => text === '…' || text === '').map(([, name]) => name),
    [],
    'no placeholder is left',
  );
  // The values the lesson's prose states (a name may also print elsewhere in another format).
  for (const [name, text] of Object.entries(LESSON_PRINTS))
    assert.ok(
      printed.some(([, n, t]) => n === name && t === text),
      `${name} prints ${text}: ${printed.filter(([, n]) => n === name).map(([, , t]) => t)}`,
    );
});

test('a printed number the engine does not confirm is shown as the engine’s, marked, and reported', async () => {
  // A copy of the site whose page prints one number wrong: the page must say so, not quietly fix it.
  const tampered = mkdtempSync(join(tmpdir(), 'positional-tampered-'));
  cpSync(dist, tampered, { recursive: true });
  const index = join(tampered, 'index.html');
  const right = LESSON_PRINTS['ntk.base'];
  const html = readFileSync(index, 'utf8');
  const span = /<span class="live" data-live="ntk\.base"[^>]*>([^<]*)<\/span>/.exec(html);
  assert.equal(span?.[1], right, 'the build printed ntk.base');
  writeFileSync(index, html.replace(span[0], span[0].replace(`>${right}<`, '>82,686<')));
  for (const copy of ['.br', '.gz']) rmSync(index + copy, { force: true });
  const bare = await startServer({ root: tampered, port: 0 });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(bare.url);
    await page.waitForFunction(() => document.documentElement.dataset.liveState, null, { timeout: 20000 });
    const state = await page.evaluate(() => {
      const first = document.querySelector('[data-live="ntk.base"]');
      const banner = document.querySelector('[data-engine-banner]');
      return {
        liveState: document.documentElement.dataset.liveState,
        shown: first.textContent,
        marked: first.classList.contains('live-mismatch'),
        title: first.title,
        banner: banner.hidden ? null : banner.textContent,
        othersMarked: document.querySelectorAll('.live-mismatch').length,
      };
    });
    assert.equal(state.liveState, 'mismatch');
    assert.equal(state.shown, right, 'the engine’s value is shown');
    assert.ok(state.marked);
    assert.match(state.title, /82,686/);
    assert.match(state.banner, /differ from what the engine computes.*ntk\.base/s);
    assert.equal(state.othersMarked, 1, 'only the tampered number is marked');
  } finally {
    await page.close();
    await bare.close();
    rmSync(tampered, { recursive: true, force: true });
  }
});

test('a fault in the page’s script after the engine ran still releases every block and says so', async () => {
  // A copy of the site whose snippet checks throw when read: main.js fails between filling the
  // numbers and letting the skipped blocks into layout. The copy's page runs the unbundled modules
  // the site keeps under js/ (the bundle's sources, as the lab's Worker loads them), so that one
  // module can be swapped for a faulty one.
  const faulty = mkdtempSync(join(tmpdir(), 'positional-faulty-'));
  cpSync(dist, faulty, { recursive: true });
  const module = join(faulty, 'js', 'prose', 'snippet-checks.js');
  writeFileSync(
    module,
    "export const SNIPPET_CHECKS = new Proxy({}, { get() { throw new Error('a planted fault'); } });\n",
  );
  // What the page writes to console.error is kept from its first script on, by a script planted
  // before the page's own: WebKit's driver sees the console only once its recorder is in, after
  // the load, and the fault is reported before that when the page starts quickly.
  writeFileSync(
    join(faulty, 'js', 'record-console.js'),
    'window.__consoleErrors = [];\n' +
      'var originalError = console.error;\n' +
      'console.error = function () {\n' +
      '  window.__consoleErrors.push(Array.prototype.map.call(arguments, String).join(" "));\n' +
      '  return originalError.apply(console, arguments);\n' +
      '};\n',
  );
  const html = join(faulty, 'index.html');
  const pageHtml = readFileSync(html, 'utf8');
  const first = '<script data-single-file="positional-lesson.html">';
  assert.ok(pageHtml.includes(first), 'the page starts with the theme script');
  const bundled = /<script type="module" src="bundle\/main\.js"><\/script>/;
  assert.match(pageHtml, bundled, 'the page runs the bundled main.js');
  writeFileSync(
    html,
    pageHtml
      .replace(first, `<script src="js/record-console.js"></script>${first}`)
      .replace(/<link rel="modulepreload" href="bundle\/[^"]+"[^>]*>/g, '')
      .replace(bundled, '<script type="module" src="js/main.js"></script>'),
  );
  for (const file of [module, html]) for (const copy of ['.br', '.gz']) rmSync(file + copy, { force: true });
  const bare = await startServer({ root: faulty, port: 0 });
  const page = await browser.newPage({
    viewport: { width: ENGINE === 'webkit' ? WEBKIT_MIN_WIDTH : 360, height: 800 },
  });
  try {
    await page.goto(bare.url);
    await page.waitForFunction(() => document.documentElement.dataset.liveState, null, { timeout: 20000 });
    await page.waitForFunction(() => !document.documentElement.classList.contains('is-loading'), null, {
      timeout: 30000,
    });
    const state = await page.evaluate(() => {
      const blocks = [...document.querySelectorAll('section.lesson-section > :not(section)')];
      const banner = document.querySelector('[data-engine-banner]');
      return {
        liveState: document.documentElement.dataset.liveState,
        banner: banner.hidden ? null : banner.textContent,
        blocks: blocks.length,
        released: blocks.filter((b) => b.dataset.laidOut !== undefined).length,
        errors: window.__consoleErrors,
      };
    });
    assert.equal(state.liveState, 'failed');
    assert.match(state.banner, /script failed.*The text is complete/s);
    assert.ok(state.blocks > 100, `${state.blocks} blocks`);
    assert.equal(state.released, state.blocks, 'every block is let into layout');
    assert.ok(
      state.errors.some((e) => /did not finish loading/.test(e)),
      `the fault is reported: ${JSON.stringify(state.errors)}`,
    );
  } finally {
    await page.close();
    await bare.close();
    rmSync(faulty, { recursive: true, force: true });
  }
});

test('without the engine the full text still shows, with a banner and marked placeholders', async () => {
  let page;
  if (ENGINE === 'webkit') {
    // WebDriver cannot abort a request: the same site without its engine.wasm (a 404) stands in.
    const withoutEngine = mkdtempSync(join(tmpdir(), 'positional-no-engine-'));
    cpSync(dist, withoutEngine, { recursive: true });
    rmSync(join(withoutEngine, 'engine.wasm'));
    const bare = await startServer({ root: withoutEngine, port: 0 });
    // Closed at the suite's end even if the page below never starts: an open server keeps the process alive.
    after(async () => {
      await bare.close();
      rmSync(withoutEngine, { recursive: true, force: true });
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(bare.url);
    await page.waitForFunction(() => document.documentElement.dataset.liveState, null, { timeout: 20000 });
  } else {
    ({ page } = await openPage('', { setup: (p) => p.route('**/engine.wasm', (route) => route.abort()) }));
  }
  const state = await page.evaluate(() => ({
    liveState: document.documentElement.dataset.liveState,
    banner: !document.querySelector('[data-engine-banner]').hidden,
    placeholders: [...document.querySelectorAll('[data-live]:not([data-derived])')].every(
      (el) => el.textContent === '—' && el.title.length > 0,
    ),
    sections: document.querySelectorAll('section.lesson-section').length,
    unchecked: [...document.querySelectorAll('.check-badge')].filter((b) => b.dataset.checkStatus === 'unavailable')
      .length,
    chartNotes: document.querySelectorAll('.chart-unavailable').length,
  }));
  assert.deepEqual(state, {
    liveState: 'failed',
    banner: true,
    placeholders: true,
    sections: expectedSections.length,
    unchecked: expectedSnippets - 1, // the learned-table snippet is plain arithmetic, checked in the page
    chartNotes: expectedCharts.length,
  });
  await page.close();
});

test(
  'the single-file build works from file:// with every request blocked',
  { skip: !existsSync(singleFile) && 'no dist-single build' },
  async () => {
    const context = await browser.newContext();
    const blocked = [];
    // WebKit over WebDriver cannot block requests: there every request the page made that is not
    // file: or data: is read from its resource timing, and must be none just the same.
    if (ENGINE !== 'webkit') {
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
        blocked.push(url);
        return route.abort();
      });
    }
    const page = await context.newPage();
    if (ENGINE === 'webkit') page.watchOtherOrigins('file:', blocked);
    const errors = [];
    recordPageErrors(page, errors);
    await page.goto(pathToFileURL(singleFile).href);
    await page.waitForFunction(() => document.documentElement.dataset.liveState, null, { timeout: 20000 });
    const state = await page.evaluate(() => ({
      liveState: document.documentElement.dataset.liveState,
      causal: document.querySelector('[data-live="order.causal"]').textContent,
      filled: [...document.querySelectorAll('[data-live]')].every(
        (el) => el.textContent !== '…' && el.textContent !== '—',
      ),
      checked: [...document.querySelectorAll('.check-badge')].every((b) => b.dataset.checkStatus === 'checked'),
      formulas: document.querySelectorAll('main math').length,
    }));
    // One module carries the kernels and the model-config reader, unpacked from the page itself.
    const scheme = await page.evaluate(async () => {
      const { engine } = window.positionalLesson;
      await engine.loadModelConfigReader();
      return engine.readModelConfig('{"model_type": "llama", "max_position_embeddings": 4096, "head_dim": 128}', 10)
        .scheme;
    });
    assert.equal(scheme, 'rope');
    assert.deepEqual(errors, []);
    assert.deepEqual(blocked, []);
    assert.equal(state.liveState, 'ready');
    assert.equal(state.causal, LESSON_PRINTS['order.causal']);
    assert.ok(state.filled && state.checked);
    assert.ok(state.formulas > 50);
    await context.close();
  },
);

describe('each language is a page of its own', () => {
  /** Every live number on the page at `path`, name → text, once the page is ready. */
  const liveNumbers = (page) =>
    page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll('[data-live]')].map((el) => [el.dataset.live, el.textContent])),
    );

  test('dist/zh-Hans/index.html: its lang, its hreflang alternates, the switch, and every live number the English page has', async () => {
    const { page: english, problems: englishProblems } = await openPage('');
    const { page, problems } = await openPage('zh-Hans/index.html');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.liveState), 'ready');
    // The lesson in Chinese: its title and its headings are the translation's, not the English.
    assert.match(await page.evaluate(() => document.title), /[\u4e00-\u9fff]/);
    // Every number the engine computes, the same in both languages (the same registry and formats).
    const zhNumbers = await liveNumbers(page);
    assert.deepEqual(zhNumbers, await liveNumbers(english));
    assert.equal(zhNumbers['order.causal'], LESSON_PRINTS['order.causal']);
    // hreflang for search engines: exactly what web/site-config.json's siteUrl asks for, full
    // addresses of every language's page when it is set and none while it is null (relative
    // addresses count for nothing there); site-address.test.mjs checks the addresses themselves.
    const { siteUrl } = JSON.parse(readFileSync(join(repo, 'web', 'site-config.json'), 'utf8'));
    const expected = [
      ...languageAlternates(lessonLanguages(), siteAddress(siteUrl)).matchAll(/hreflang="([^"]+)" href="([^"]+)"/g),
    ].map(([, hreflang, href]) => [hreflang, href]);
    for (const [p, lang] of [
      [english, 'en'],
      [page, 'zh-Hans'],
    ]) {
      const alternates = await p.evaluate(() =>
        [...document.querySelectorAll('link[rel="alternate"]')].map((l) => [l.hreflang, l.getAttribute('href')]),
      );
      assert.deepEqual(alternates, expected, `${lang}: its alternates`);
      // The reader's language switch: every other language's link resolves to that language's page.
      const switchLinks = await p.evaluate(() =>
        [...document.querySelectorAll('.language-switch a[hreflang]')].map((a) => [a.hreflang, a.href]),
      );
      assert.equal(switchLinks.length, lessonLanguages().length - 1, `${lang}: a link to each other language`);
      for (const [hreflang, href] of switchLinks) {
        const [status, text] = await p.evaluate(async (url) => {
          const r = await fetch(url);
          return [r.status, await r.text()];
        }, href);
        assert.equal(status, 200, `${lang} → ${hreflang}: ${href}`);
        assert.match(text, new RegExp(`<html lang="${hreflang}"`), `${lang} → ${hreflang}`);
      }
    }
    // The switch: the current language marked, the other a link a reader follows with a real click.
    const current = await page.evaluate(() => document.querySelector('.language-switch [aria-current="page"]').lang);
    assert.equal(current, 'zh-Hans');
    await page.click('.language-switch a[hreflang="en"]');
    await page.waitForFunction(
      () => document.documentElement.lang === 'en' && document.documentElement.dataset.liveState,
    );
    assert.equal(await page.evaluate(() => location.pathname), '/index.html');
    assert.deepEqual(problems, []);
    assert.deepEqual(englishProblems, []);
    await english.close();
    await page.close();
  });

  test('embed mode and URL state work the same on the Chinese page', async () => {
    const { page, problems } = await openPage('zh-Hans/index.html?embed=fig-alibi&alibi.heads=16');
    await page.waitForFunction(() => window.positionalCharts?.mounted.get('alibi'), null, { timeout: 20000 });
    const state = await page.evaluate(() => ({
      embed: document.documentElement.classList.contains('embed'),
      heads: window.positionalCharts.mounted.get('alibi').state.heads,
      figures: [...document.querySelectorAll('figure.chart-slot')].filter((f) => f.offsetParent).length,
    }));
    assert.deepEqual(state, { embed: true, heads: 16, figures: 1 });
    assert.deepEqual(problems, []);
    await page.close();
  });
});

test(
  'the Chinese single file works from file:// on its own (no switch to pages it cannot reach)',
  { skip: !existsSync(singleFile.replace(/\.html$/, '.zh-Hans.html')) && 'no dist-single build' },
  async () => {
    const page = await browser.newPage();
    const errors = [];
    recordPageErrors(page, errors);
    await page.goto(pathToFileURL(singleFile.replace(/\.html$/, '.zh-Hans.html')).href);
    await page.waitForFunction(() => document.documentElement.dataset.liveState, null, { timeout: 20000 });
    const state = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      liveState: document.documentElement.dataset.liveState,
      causal: document.querySelector('[data-live="order.causal"]').textContent,
      languageLinks: document.querySelectorAll('.language-switch, link[rel="alternate"]').length,
    }));
    assert.deepEqual(state, {
      lang: 'zh-Hans',
      liveState: 'ready',
      causal: LESSON_PRINTS['order.causal'],
      languageLinks: 0,
    });
    assert.deepEqual(errors, []);
    await page.close();
  },
);
