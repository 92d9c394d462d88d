// Accessibility tests of the built lesson: axe-core (WCAG 2.0–2.2 A and AA) on the whole page in
// the light and dark themes at phone and desktop widths and in embed mode, with every chart mounted
// and every disclosure open; plus checks axe cannot make: every control and chart has a name, every
// chart a data table, focus is visible, reduced motion is honoured and formulas carry MathML. And
// the plain pages beside the lesson (instructor guide, accessibility statement, third-party
// notices): served under the site's policy and opened from disk, under the same rules.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ENGINE,
  LONG,
  WEBKIT_MIN_WIDTH,
  devtoolsNodes,
  dist,
  injectAxe,
  mountAllCharts,
  openPage,
  runAxe,
  startSite,
  twoFrames,
} from './helpers.mjs';
import { CHART_DECLARATIONS } from '../../web/js/charts/declarations.js';
import { INFO_PAGES } from '../../web/site-builder/info-pages.mjs';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

let site;
before(async () => {
  site = await startSite();
});
after(async () => site?.close());

/** Opens every <details> (answers, contents, chart data tables) so axe sees what they hide. */
async function openEverything(page) {
  await mountAllCharts(page);
  await page.evaluate(() => document.querySelectorAll('details:not([open])').forEach((d) => (d.open = true)));
  await settle(page);
}

/** Lets a change (opening, a resize, the theme) reach every chart: their observers, then the frames they ask for. */
async function settle(page) {
  await twoFrames(page);
  await page.waitForTimeout(100);
}

/**
 * Faults axe must report, planted in the lesson for the first look of the first view (so that a run which reports
 * nothing is known to look): a paragraph in faint grey after the lesson's first paragraph and an
 * image without a text alternative after its last, one run for the page and the plants together.
 */
const PLANTED = ['color-contrast #planted-faint', 'image-alt #planted-no-alt'];

function plantFaults(page) {
  return page.evaluate(() => {
    const paragraphs = document.querySelectorAll('section.lesson-section > p');
    const faint = document.createElement('p');
    faint.id = 'planted-faint';
    faint.textContent = 'A planted paragraph in faint grey.';
    faint.style.color = '#e0e0e0';
    paragraphs[0].after(faint);
    const image = document.createElement('img');
    image.id = 'planted-no-alt';
    image.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
    paragraphs[paragraphs.length - 1].after(image);
  });
}

/** axe's violations on the page as readable lines (rule, impact, first few offending elements). */
async function axeViolations(page, { planted = false } = {}) {
  const violations = await runAxe(page, { run: { type: 'tag', values: WCAG_TAGS } });
  if (planted) {
    const found = violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}`));
    assert.deepEqual(
      PLANTED.filter((fault) => !found.includes(fault)),
      [],
      'axe reports the faults planted in the page',
    );
    for (const v of violations) v.nodes = v.nodes.filter((n) => !PLANTED.includes(`${v.id} ${n.target.join(' ')}`));
  }
  return violations
    .filter((v) => v.nodes.length)
    .map(
      (v) =>
        `${v.id} (${v.impact}, ${v.nodes.length}): ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')} — ${n.failureSummary.split('\n').slice(1).join(' ').trim()}`)
          .join(' | ')}`,
    );
}

/**
 * The ids of the lesson's first chart slot (figure.chart-slot[id]) and of its first section nested
 * in another (section.lesson-section[id] section.lesson-section[id]; the first section if none is),
 * from the page's HTML.
 */
function firstChartAndSubsection(html) {
  const attributes = (text) => Object.fromEntries([...text.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  const lessonSection = (a) => a.id && /(^|\s)lesson-section(\s|$)/.test(a.class ?? '');
  let chart = null;
  let first = null;
  let nested = null;
  const open = []; // for each <section> not yet closed: is it a section.lesson-section[id]?
  for (const [, closing, tag, rest] of html.matchAll(/<(\/?)(figure|section)\b([^>]*)>/g)) {
    if (closing) {
      if (tag === 'section') open.pop();
      continue;
    }
    const a = attributes(rest);
    if (tag === 'figure') {
      if (!chart && a.id && /(^|\s)chart-slot(\s|$)/.test(a.class ?? '')) chart = a.id;
      continue;
    }
    if (lessonSection(a)) {
      first ??= a.id;
      if (!nested && open.includes(true)) nested = a.id;
    }
    open.push(lessonSection(a));
  }
  assert.ok(chart && first, 'the lesson has a chart slot and a section');
  return [chart, nested ?? first];
}

describe('axe finds no WCAG 2.2 A/AA violation', () => {
  const PHONE = { width: 360, height: 780 };
  const DESKTOP = { width: 1280, height: 900 };
  // Each view is one load with everything open; its looks follow in that page, each checked by axe:
  // a new width (the page's own layout answers a resize) or the reader's toggle to the other theme.
  // A load with every chart mounted costs more than axe's run (5-7 s against 6-8 s in WebKit), so
  // the phone width and the toggle share the desktop view's load.
  const views = [
    {
      name: 'light theme at 1280 px, then 360 px, then dark (toggle) at 360 px',
      colorScheme: 'light',
      planted: true,
      looks: [{ viewport: DESKTOP }, { viewport: PHONE }, { viewport: PHONE, toggle: true }],
    },
    // 1600 px: the asides sit in the margin, in the muted colour, and the figures take part of it.
    {
      name: 'dark theme (system setting), 1600 px',
      colorScheme: 'dark',
      looks: [{ viewport: { width: 1600, height: 900 } }],
      longInOtherEngines: true,
    },
    // The Chinese page: its own words, fonts and line breaks, light at desktop width, dark on a phone.
    {
      name: 'Chinese page, light theme at 1280 px, then dark (toggle) at 360 px',
      path: 'zh-Hans/index.html',
      colorScheme: 'light',
      looks: [{ viewport: DESKTOP }, { viewport: PHONE, toggle: true }],
      longInOtherEngines: true,
    },
  ];
  // Every view runs in Chromium. Firefox and WebKit run the first view (both widths, both themes,
  // the planted faults) and the embeds in every run, and the other two under --long: axe's verdict
  // rests on the DOM and the computed colours, which the same script and stylesheet make in each
  // engine, while what an engine does differently (its layout, what CSS it supports) shows in
  // the first view's three looks already. The accessibility statement reads this list and says so.
  const viewsHere = views.filter((view) => ENGINE === 'chromium' || LONG || !view.longInOtherEngines);
  // MiniBrowser's window is never narrower than about 450 px: WebKit checks the phone looks there.
  if (ENGINE === 'webkit')
    for (const view of views) {
      view.name = view.name.replaceAll('360', String(WEBKIT_MIN_WIDTH));
      for (const look of view.looks)
        if (look.viewport.width === PHONE.width) look.viewport = { ...look.viewport, width: WEBKIT_MIN_WIDTH };
    }
  for (const view of viewsHere) {
    test(view.name, async () => {
      const first = view.looks[0];
      const { page, context, problems } = await openPage(site.browser, `${site.server.url}${view.path ?? ''}`, {
        viewport: first.viewport,
        contextOptions: { colorScheme: view.colorScheme },
      });
      await openEverything(page);
      if (view.planted) await plantFaults(page);
      let dark = view.colorScheme === 'dark';
      for (const [i, look] of view.looks.entries()) {
        const where = `${look.viewport.width} px, ${dark !== Boolean(look.toggle) ? 'dark' : 'light'} theme`;
        const previous = view.looks[i - 1]?.viewport;
        if (previous && (look.viewport.width !== previous.width || look.viewport.height !== previous.height))
          await page.setViewportSize(look.viewport);
        if (look.toggle) {
          await page.click('[data-theme-toggle]');
          dark = !dark;
        }
        if (i > 0) await settle(page);
        // The theme button says whether the dark theme is on (aria-pressed), in any language.
        const pressed = await page.evaluate(
          () => document.querySelector('[data-theme-toggle]').getAttribute('aria-pressed') === 'true',
        );
        assert.equal(pressed, dark, where);
        if (!view.path) {
          const theme = await page.evaluate(
            () => document.querySelector('[data-theme-toggle] .theme-label').textContent,
          );
          assert.equal(theme, dark ? 'Dark' : 'Light', where);
        }
        // The toggle remembers the reader's choice in localStorage, and WebKit's WebDriver contexts
        // share storage: leave none behind for the next view.
        if (look.toggle) await page.evaluate(() => localStorage.clear());
        const planted = view.planted && i === 0;
        assert.deepEqual(await axeViolations(page, { planted }), [], where);
        if (planted)
          await page.evaluate(() => document.querySelectorAll('[id^="planted-"]').forEach((e) => e.remove()));
      }
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  test('embed mode: a chart (light) and a section (dark)', async () => {
    // The first chart and the first subsection, read from the lesson's HTML as served: the build
    // writes their ids, and a browser load of the whole lesson to read two ids took 17 s in Chromium
    // and 25 s in WebKit on a loaded machine.
    const ids = firstChartAndSubsection(await (await fetch(site.server.url)).text());
    // Each kind of piece once, and each theme once: the embed chrome is the same for both kinds.
    for (const [id, colorScheme] of [
      [ids[0], 'light'],
      [ids[1], 'dark'],
    ]) {
      const { page, context, problems } = await openPage(site.browser, `${site.server.url}?embed=${id}`, {
        viewport: { width: 700, height: 600 },
        contextOptions: { colorScheme },
      });
      await openEverything(page);
      assert.ok(
        await page.evaluate((target) => document.querySelector('.embed-target')?.id === target, id),
        `${id} is embedded`,
      );
      assert.deepEqual(await axeViolations(page), [], `embed=${id}, ${colorScheme}`);
      assert.deepEqual(problems, []);
      await context.close();
    }
  });
});

describe('what axe does not check', () => {
  let page;
  let context;
  let problems;
  before(async () => {
    ({ page, context, problems } = await openPage(site.browser, site.server.url));
    await openEverything(page);
  });
  after(async () => context.close());

  test('every control and every chart canvas has an accessible name (as the browser computes it)', async () => {
    if (ENGINE !== 'chromium') {
      // The browser's own accessibility tree is reachable only over Chromium's DevTools protocol:
      // in Firefox and WebKit the names and roles are axe-core's computation (the ARIA
      // accessible-name algorithm), and hidden elements are those axe finds hidden from screen readers.
      await injectAxe(page);
      const { unnamed, counts, total } = await page.evaluate(() => {
        const selector =
          'input:not([type=hidden]), select, textarea, button, summary, [role="tab"], a[href], canvas, [tabindex]:not([tabindex="-1"])';
        window.axe.setup(document);
        const out = { unnamed: [], counts: {}, total: 0 };
        for (const el of document.querySelectorAll(selector)) {
          out.total++;
          const role = window.axe.commons.aria.getRole(el) ?? '?';
          out.counts[role] = (out.counts[role] ?? 0) + 1;
          if (!window.axe.commons.dom.isVisibleToScreenReaders(el)) continue;
          if (!window.axe.commons.text.accessibleText(el).trim())
            out.unnamed.push(`${role}: ${el.outerHTML.slice(0, 120)}`);
        }
        window.axe.teardown();
        return out;
      });
      assert.ok(total > 50, `${total} controls found`);
      assert.deepEqual(unnamed, []);
      assert.ok(counts.img > 0, `the chart canvases are exposed as images: ${JSON.stringify(counts)}`);
      return;
    }
    const selector =
      'input:not([type=hidden]), select, textarea, button, summary, [role="tab"], a[href], canvas, [tabindex]:not([tabindex="-1"])';
    const { cdp, nodeIds } = await devtoolsNodes(page, selector, ['Accessibility']);
    assert.ok(nodeIds.length > 50, `${nodeIds.length} controls found`);
    const unnamed = [];
    const counts = {};
    for (const nodeId of nodeIds) {
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      const node = nodes[0];
      const role = node?.role?.value ?? '?';
      counts[role] = (counts[role] ?? 0) + 1;
      if (node?.ignored) continue; // hidden (a closed tab panel, a switched-off level): not exposed
      if (!(node?.name?.value ?? '').trim()) {
        const { outerHTML } = await cdp.send('DOM.getOuterHTML', { nodeId });
        unnamed.push(`${role}: ${outerHTML.slice(0, 120)}`);
      }
    }
    assert.deepEqual(unnamed, []);
    assert.ok(
      counts.image > 0 || counts.img > 0,
      `the chart canvases are exposed as images: ${JSON.stringify(counts)}`,
    );
    await cdp.detach();
  });

  test('every chart with a canvas offers its numbers as a data table', async () => {
    const charts = await page.evaluate(() =>
      [...document.querySelectorAll('[data-chart]')]
        .filter((slot) => slot.querySelector('canvas'))
        .map((slot) => {
          const tables = [...slot.querySelectorAll('table')];
          return {
            id: slot.dataset.chart,
            canvases: slot.querySelectorAll('canvas').length,
            // An image, or an interactive widget (a draggable clock is a slider), with a descriptive name.
            labelled: [...slot.querySelectorAll('canvas')].every(
              (c) =>
                ['img', 'slider'].includes(c.getAttribute('role')) && (c.getAttribute('aria-label') ?? '').length > 10,
            ),
            tables: tables.length,
            captioned: tables.every((t) => t.caption?.textContent.trim().length > 0),
            headers: tables.every((t) => t.querySelectorAll('th[scope="col"]').length > 0),
            rows: tables.reduce((n, t) => n + (t.tBodies[0]?.rows.length ?? 0), 0),
            region: slot.querySelector('.chart-table-wrap[role="region"]')?.getAttribute('aria-label'),
          };
        }),
    );
    assert.ok(charts.length > 0, 'the page has charts');
    for (const c of charts) {
      assert.ok(c.labelled, `${c.id}: every canvas is an image (or slider) with a descriptive label`);
      assert.ok(c.tables > 0, `${c.id}: a data table stands beside the canvas`);
      assert.ok(c.captioned && c.headers && c.rows > 0, `${c.id}: the table has a caption, column headers and rows`);
      // The scrolling region is named by the chart's title (the English page: Node's t() is English).
      assert.equal(c.region, `${CHART_DECLARATIONS[c.id].title}: data table`, `${c.id}: the table's region name`);
    }
  });

  test('focus is visible: a :focus-visible style exists and keyboard focus shows an outline', async () => {
    const rule = await page.evaluate(() =>
      [...document.styleSheets].some((sheet) =>
        [...sheet.cssRules].some(
          (r) => r.selectorText?.includes(':focus-visible') && /outline|box-shadow/.test(r.cssText),
        ),
      ),
    );
    assert.ok(rule, 'a :focus-visible rule draws an outline or shadow');
    await page.evaluate(() => {
      document.activeElement?.blur();
      window.scrollTo(0, 0);
    });
    // Each Tab's element is described as it takes the focus (focusin), and all 25 are read in one
    // call after the last Tab: a round trip per key, not two (the focus ring is there from the
    // moment the element has the focus, and stays while it has it).
    await page.evaluate(() => {
      window.__focusSeen = [];
      document.addEventListener('focusin', () => {
        const el = document.activeElement;
        const css = getComputedStyle(el);
        window.__focusSeen.push({
          what: el.outerHTML.slice(0, 80),
          visible: el.matches(':focus-visible'),
          outline: css.outlineStyle !== 'none' && parseFloat(css.outlineWidth) >= 2,
          shadow: css.boxShadow !== 'none',
        });
      });
    });
    for (let i = 0; i < 25; i++) await page.keyboard.press('Tab');
    const seen = await page.evaluate(() => window.__focusSeen);
    const bare = seen.filter((f) => !f.what.startsWith('<body') && !(f.visible && (f.outline || f.shadow)));
    assert.deepEqual(bare, [], 'every element reached by Tab shows a focus ring');
    assert.ok(new Set(seen.map((f) => f.what)).size >= 10, 'Tab moves through the page');
  });

  test('every formula is one MathML tree screen readers reach, with its TeX, read once', async () => {
    const math = await page.evaluate(() => {
      // A claim's other sentence (shown only when the reader's values make it true) is not on the page.
      const shown = (e) => !e.closest('.claim-branch[hidden]');
      const formulas = [...document.querySelectorAll('main math')].filter(shown);
      return {
        formulas: formulas.length,
        wrappers: [...document.querySelectorAll('main .katex')].filter(shown).length,
        // Nothing hides a formula from assistive technology, and nothing draws it a second time.
        hidden: formulas.filter((m) => m.closest('[aria-hidden="true"], [hidden]') || !m.checkVisibility()).length,
        copies: document.querySelectorAll('.katex-html, .katex-mathml').length,
        withTex: formulas.filter((m) => m.querySelector('annotation[encoding="application/x-tex"]')?.textContent.trim())
          .length,
      };
    });
    assert.ok(math.formulas > 50);
    assert.equal(math.wrappers, math.formulas, 'one MathML tree per formula');
    assert.equal(math.hidden, 0, 'every formula is in the accessibility tree');
    assert.equal(math.copies, 0, 'no visual copy beside the MathML, so formulas are not read twice');
    assert.equal(math.withTex, math.formulas);
    assert.deepEqual(problems, []);
  });

  // Chromium draws a one-letter <mi> in italic by swapping its letter for the Unicode
  // mathematical-italic one (P for U+1D443), and its accessibility tree read the swapped letter;
  // lesson.css leaves the letters as written and draws them from an italic face instead.
  const chromiumOnly =
    ENGINE !== 'chromium' && "the browser's own tree is reachable only over Chromium's DevTools protocol";
  test(
    'a formula reads as its MathML is written: letters, not their mathematical-italic twins',
    { skip: chromiumOnly },
    async () => {
      const { cdp, nodeIds } = await devtoolsNodes(page, 'main math', ['Accessibility']);
      assert.ok(nodeIds.length > 50, `${nodeIds.length} formulas found`);
      const mismatched = [];
      for (const nodeId of nodeIds.slice(0, 60)) {
        const { nodes } = await cdp.send('Accessibility.queryAXTree', { nodeId, role: 'StaticText' });
        const read = nodes
          .map((n) => n.name?.value ?? '')
          .join('')
          .replace(/\s+/g, '');
        const { object } = await cdp.send('DOM.resolveNode', { nodeId });
        const { result } = await cdp.send('Runtime.callFunctionOn', {
          objectId: object.objectId,
          functionDeclaration:
            'function () { const c = this.cloneNode(true); c.querySelectorAll("annotation").forEach((a) => a.remove()); return c.textContent; }',
          returnByValue: true,
        });
        const written = result.value.replace(/\s+/g, '');
        if (read !== written) mismatched.push(`read "${read}" for "${written}"`);
      }
      assert.deepEqual(mismatched, []);
      await cdp.detach();
    },
  );
});

test('prefers-reduced-motion: no transition, animation or smooth scrolling', async () => {
  const { page, context, problems } = await openPage(site.browser, site.server.url, {
    contextOptions: { reducedMotion: 'reduce' },
  });
  await openEverything(page);
  const moving = await page.evaluate(() => {
    const seconds = (list) =>
      Math.max(...list.split(',').map((t) => parseFloat(t) * (t.trim().endsWith('ms') ? 0.001 : 1)));
    const out = [];
    for (const el of [document.documentElement, ...document.querySelectorAll('body, body *')]) {
      for (const pseudo of [null, '::before', '::after']) {
        const css = getComputedStyle(el, pseudo);
        const transition = seconds(css.transitionDuration) + seconds(css.transitionDelay);
        const animation = css.animationName !== 'none' ? seconds(css.animationDuration) : 0;
        if (transition > 0 || animation > 0)
          out.push(
            `${el.localName}.${el.className}${pseudo ?? ''}: transition ${css.transitionDuration}, animation ${css.animationName} ${css.animationDuration}`,
          );
      }
    }
    return {
      out,
      scroll: getComputedStyle(document.documentElement).scrollBehavior,
      matches: matchMedia('(prefers-reduced-motion: reduce)').matches,
    };
  });
  assert.equal(moving.matches, true);
  assert.deepEqual(moving.out, []);
  assert.equal(moving.scroll, 'auto');
  assert.deepEqual(problems, []);
  await context.close();
});

describe('the plain pages: no error under their policy, and axe finds no violation', () => {
  // The pages' background in each scheme (base.css's --bg): proof their stylesheet applied.
  const background = { light: 'rgb(255, 255, 255)', dark: 'rgb(18, 20, 23)' };
  /** What a reader gets: the page's own colours, its details open for axe, and no script at all. */
  async function checkPage(page, colorScheme) {
    const state = await page.evaluate(() => {
      document.querySelectorAll('details').forEach((d) => (d.open = true));
      return {
        background: getComputedStyle(document.documentElement).backgroundColor,
        column: getComputedStyle(document.querySelector('main')).maxWidth,
        scripts: document.scripts.length,
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      };
    });
    assert.equal(state.background, background[colorScheme], 'the stylesheet applies, in the asked scheme');
    assert.equal(state.column, '736px');
    assert.equal(state.scripts, 0);
    assert.ok(state.overflow <= 0, `the page scrolls sideways by ${state.overflow} px`);
    assert.deepEqual(await axeViolations(page), []);
  }
  for (const { file } of Object.values(INFO_PAGES)) {
    // Every width and every theme once per page (the three pages share one stylesheet), and the
    // dark theme again from disk below.
    for (const [width, colorScheme] of [
      [360, 'dark'],
      [1280, 'light'],
    ]) {
      const shown = ENGINE === 'webkit' ? Math.max(width, WEBKIT_MIN_WIDTH) : width;
      test(`${file}, served: ${colorScheme}, ${shown} px`, async () => {
        const { page, context, problems, violations } = await openPage(site.browser, `${site.server.url}${file}`, {
          viewport: { width: shown, height: 800 },
          contextOptions: { colorScheme },
          waitForLive: false,
        });
        await checkPage(page, colorScheme);
        assert.deepEqual(problems, []);
        assert.deepEqual((await violations()) ?? [], []);
        await context.close();
      });
    }
    const fromDisk = join(dist, '..', 'dist-single', file);
    test(
      `${file}, opened from disk beside the single files (its style inline, by hash)`,
      { skip: !existsSync(fromDisk) && 'no dist-single build' },
      async () => {
        const { page, context, problems, violations } = await openPage(site.browser, pathToFileURL(fromDisk).href, {
          contextOptions: { colorScheme: 'dark' },
          waitForLive: false,
        });
        await checkPage(page, 'dark');
        assert.deepEqual(problems, []);
        assert.deepEqual((await violations()) ?? [], []);
        await context.close();
      },
    );
  }
});

// WCAG 2.5.8 (Target Size, Minimum): every pointer target of the figures (their controls, handles,
// − and + buttons, Data disclosures) at least 24 × 24 CSS px, measured as the browser lays them out.
// The movable numbers in the prose are left out: they sit in sentences, 2.5.8's inline exception
// (their − and + are measured in the prose suite).
test('every pointer target of the figures is at least 24 × 24 CSS px, at a phone’s width and at 1280 px', async () => {
  for (const width of [ENGINE === 'webkit' ? WEBKIT_MIN_WIDTH : 360, 1280]) {
    const { page, context, problems } = await openPage(site.browser, `${site.server.url}?charts=eager`, {
      viewport: { width, height: 800 },
    });
    await mountAllCharts(page);
    const small = await page.evaluate(() => {
      const selector =
        '[data-chart-root] :is(button, input, select, textarea, summary, [role="slider"], [tabindex]), .chart-handle';
      return (
        [...new Set(document.querySelectorAll(selector))]
          // Shown ones only (a closed Data view's scroll box is 0 px tall: nothing to point at).
          .filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().height > 0)
          .map((el) => {
            const r = el.getBoundingClientRect();
            return {
              what: `${el.closest('[data-chart-root]')?.dataset.chartRoot} ${el.tagName.toLowerCase()} ${el.dataset.control ?? el.dataset.handle ?? el.textContent.trim().slice(0, 16)}`,
              size: `${Math.round(r.width * 10) / 10} × ${Math.round(r.height * 10) / 10}`,
              small: r.width < 24 || r.height < 24,
            };
          })
          .filter((t) => t.small)
      );
    });
    // The landed build: the range sliders 16 px tall, the causal checkbox 13 × 13, the Data summaries 23 px tall.
    assert.deepEqual(small, [], `at ${width} px`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});
