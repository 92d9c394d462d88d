// Browser tests of how the page reads: the level choice as a link and remembered (and silent where
// storage is blocked), the contents (collapsed on phones, the section in view marked on wide
// screens), the first screen on a phone, formula boxes and the options table at 360 px before and
// after scripts, the mark on computed numbers, the single-file download and printing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mountAllCharts, openPage, runAxe, startSite } from './helpers.mjs';

const PHONE = { width: 360, height: 780 };
/** An A4 sheet at 96 CSS px per inch: what the browser lays the page out on when printing. */
const A4 = { width: 794, height: 1123 };
const DESKTOP = { width: 1280, height: 900 };

let site;
before(async () => {
  site = await startSite();
});
after(async () => site?.close());

/** Loads `url` in `page` once the current document's fonts are in (leaving earlier aborts them). */
async function revisit(page, url) {
  await page.evaluate(() => document.fonts.ready);
  await page.goto(url);
  await page.waitForFunction(
    () => document.documentElement.dataset.liveState && !document.documentElement.classList.contains('is-loading'),
  );
}

const levelState = (page) =>
  page.evaluate(() => ({
    view: document.documentElement.dataset.levelView,
    pressed: document.querySelector('[data-level-switch] [aria-pressed="true"]').dataset.show,
    level1: getComputedStyle(document.getElementById('level-1')).display !== 'none',
    level2: getComputedStyle(document.getElementById('level-2')).display !== 'none',
  }));

describe('the level choice', () => {
  test('?level=1 and ?level=2 open the page at that level', async () => {
    for (const [query, expected] of [
      ['?level=1', { view: '1', pressed: '1', level1: true, level2: false }],
      ['?level=2', { view: '2', pressed: '2', level1: false, level2: true }],
      ['?level=7', { view: 'all', pressed: 'all', level1: true, level2: true }],
    ]) {
      const { page, context, problems } = await openPage(site.browser, `${site.server.url}${query}`);
      assert.deepEqual(await levelState(page), expected, query);
      assert.deepEqual(problems, []);
      await context.close();
    }
  });

  test('a click puts the level in the address and is remembered on the next visit; the address wins over memory', async () => {
    const { page, context, problems } = await openPage(site.browser, `${site.server.url}#rope`);
    await page.getByRole('button', { name: 'Level 2' }).click();
    assert.equal(new URL(page.url()).searchParams.get('level'), '2');
    assert.equal(new URL(page.url()).hash, '#rope', 'the section anchor is kept');
    await revisit(page, site.server.url);
    assert.deepEqual(await levelState(page), { view: '2', pressed: '2', level1: false, level2: true });
    await revisit(page, `${site.server.url}?level=1`);
    assert.equal((await levelState(page)).view, '1');
    await page.getByRole('button', { name: 'Both levels' }).click();
    assert.equal(new URL(page.url()).searchParams.has('level'), false);
    await revisit(page, site.server.url);
    assert.equal((await levelState(page)).view, 'all');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('where storage is blocked (a third-party frame) the level still works and nothing complains', async () => {
    const blockStorage = () => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('The document is sandboxed and lacks the allow-same-origin flag.', 'SecurityError');
        },
      });
    };
    const { page, context, problems } = await openPage(site.browser, `${site.server.url}?level=2`, {
      setup: (p) => p.addInitScript(blockStorage),
    });
    assert.equal((await levelState(page)).view, '2');
    await page.getByRole('button', { name: 'Level 1' }).click();
    assert.deepEqual(await levelState(page), { view: '1', pressed: '1', level1: true, level2: false });
    assert.equal(new URL(page.url()).searchParams.get('level'), '1');
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('the contents', () => {
  test('on a wide screen they are open, unnumbered, and mark the section in view', async () => {
    const { page, context } = await openPage(site.browser, site.server.url, { viewport: DESKTOP });
    const toc = page.locator('nav.toc');
    assert.equal(await toc.locator('details').evaluate((d) => d.open), true);
    assert.equal(
      await toc
        .locator('ol')
        .first()
        .evaluate((ol) => getComputedStyle(ol).listStyleType),
      'none',
    );
    const text = await toc.innerText();
    // Each entry with its reading time, read from the English text by the build.
    assert.match(text, /^4\. Extending context after training\s+\d+ min$/m);
    assert.doesNotMatch(text, /\d+\.\s+\d+\./, 'no entry is numbered twice');
    const current = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('nav.toc [aria-current]')].map((a) => [
          a.getAttribute('href'),
          a.getAttribute('aria-current'),
        ]),
      );
    for (const id of ['rope', 'what-breaks', 'extending-context']) {
      await page.evaluate((target) => document.getElementById(target).scrollIntoView(), id);
      await page.waitForFunction(
        (target) => document.querySelector(`nav.toc a[href="#${target}"]`).hasAttribute('aria-current'),
        id,
        { timeout: 5000 },
      );
      assert.deepEqual(await current(), [[`#${id}`, 'location']]);
    }
    await context.close();
  });

  test('on a phone they start collapsed and the title and the first question fill the first screen', async () => {
    const { page, context } = await openPage(site.browser, site.server.url, { viewport: PHONE });
    assert.equal(await page.locator('nav.toc details').evaluate((d) => d.open), false);
    const box = await page.evaluate(() => {
      const title = document.querySelector('h1').getBoundingClientRect();
      const fields = document.querySelector('.first-question-fields').getBoundingClientRect();
      return { titleTop: title.top, fieldsBottom: fields.bottom };
    });
    assert.ok(box.titleTop < 300, `the title starts at ${box.titleTop} px`);
    assert.ok(
      box.fieldsBottom <= PHONE.height,
      `the first question's fields end at ${box.fieldsBottom} px, below the first screen`,
    );
    await page.evaluate(() => document.getElementById('rope').scrollIntoView());
    await page.waitForTimeout(300);
    assert.equal(await page.locator('nav.toc [aria-current]').count(), 0, 'no sidebar to mark on a phone');
    await page.getByText('Contents', { exact: true }).click();
    assert.ok(await page.locator('nav.toc a[href="#rope"]').isVisible());
    await context.close();
  });
});

describe('a way back into a long lesson', () => {
  test('Level 1 says it takes 15 to 20 minutes on its own, and Level 2 how long it is', async () => {
    const { page, context } = await openPage(site.browser, site.server.url, { viewport: DESKTOP });
    const times = await page.evaluate(() =>
      ['level-1', 'level-2'].map((id) => document.querySelector(`#${id} > .section-time`)?.textContent),
    );
    const [, level1] = /^About (\d+) minutes on its own/.exec(times[0]) ?? [];
    assert.ok(Number(level1) >= 15 && Number(level1) <= 20, `Level 1: ${times[0]}`);
    assert.match(times[1], /^About \d+ minutes to read\.$/);
    await context.close();
  });

  test('sections read are marked in the contents, and a returning reader is offered to continue', async () => {
    const { page, context, problems } = await openPage(site.browser, site.server.url, { viewport: DESKTOP });
    assert.equal(await page.locator('.continue-reading').count(), 0, 'nothing to continue on a first visit');
    // Read down to section 4 as a reader would: by the contents' link.
    await page.locator('nav.toc a[href="#extending-context"]').click();
    await page.waitForFunction(() =>
      document.querySelector('nav.toc a[href="#extending-context"]').parentElement.querySelector('.toc-read'),
    );
    const read = await page.evaluate(() =>
      [...document.querySelectorAll('nav.toc .toc-read')].map((mark) => mark.previousElementSibling.hash),
    );
    assert.ok(read.includes('#extending-context') && read.includes('#level-2'), `read: ${read}`);
    assert.equal(
      await page.locator('nav.toc a[href="#extending-context"] + .toc-read .visually-hidden').textContent(),
      '(read)',
    );
    // Back later, at the page's top: the way back is offered under the title, and it works.
    await revisit(page, site.server.url);
    const offer = page.locator('.continue-reading a');
    assert.equal(await offer.textContent(), 'Continue where you left off: 4. Extending context after training');
    assert.equal(await page.locator('nav.toc a[href="#level-2"] + .toc-read').count(), 1, 'the marks are kept');
    await offer.click();
    await page.waitForFunction(
      () => Math.abs(document.getElementById('extending-context').getBoundingClientRect().top) < 120,
    );
    assert.equal(await page.locator('.continue-reading').count(), 0, 'the offer goes once taken');
    // A link of the reader's own wins: no offer on top of it.
    await revisit(page, `${site.server.url}#rope`);
    assert.equal(await page.locator('.continue-reading').count(), 0);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('in a frame (an embed or a course package) nothing is remembered or offered', async () => {
    // A course page on the lesson's own origin, so the frame could read a stored record if it tried.
    const host = `${site.server.url}course-host.html`;
    const { page, context, problems } = await openPage(site.browser, host, {
      viewport: DESKTOP,
      waitForLive: false,
      setup: async (p) => {
        // A record as a visit of its own would have left, there before any of the lesson's scripts run.
        await p.addInitScript(() =>
          localStorage.setItem('positional-lesson:progress', JSON.stringify({ read: ['rope'], at: 'rope' })),
        );
        await p.route(host, (route) =>
          route.fulfill({
            contentType: 'text/html',
            body: '<!doctype html><html lang="en"><title>Course</title><body><iframe src="index.html" title="lesson" width="1200" height="800"></iframe></body></html>',
          }),
        );
      },
    });
    const frame = page.frameLocator('iframe');
    await page.waitForFunction(
      () => document.querySelector('iframe').contentDocument?.documentElement.dataset.liveState,
    );
    assert.equal(await frame.locator('.continue-reading').count(), 0);
    assert.equal(await frame.locator('.toc-read').count(), 0);
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('phones: formulas and the options table', () => {
  test('formulas fit a 360 px phone; on narrower screens the wide ones are keyboard-reachable before any page script runs', async () => {
    // No page script runs (the inline theme script included, whose lazy-layout would leave the
    // formulas unlaid-out for lack of main.js to clear it): only the markup and CSS the build wrote.
    for (const [width, scrolling] of [
      [360, 'none'],
      [280, 'some'],
    ]) {
      const { page, context } = await openPage(site.browser, site.server.url, {
        viewport: { width, height: 780 },
        waitForLive: false,
        // Scripts off would stop axe too: the page's own are taken out instead, the inline theme
        // script from the HTML and every module by aborting its request.
        setup: async (p) => {
          await p.route(/\/(js|bundle)\/[\w/-]+\.js$/, (route) => route.abort());
          await p.route(
            (url) => url.pathname === '/',
            async (route) => {
              const response = await route.fetch();
              const html = await response.text();
              const bare = html.replace(/<script data-single-file[^>]*>[\s\S]*?<\/script>/, '');
              assert.notEqual(bare, html, 'the page has its inline theme script');
              await route.fulfill({ response, body: bare });
            },
          );
        },
      });
      await page.waitForLoadState('load');
      const overflowing = await page.evaluate(
        () => [...document.querySelectorAll('.math-display')].filter((m) => m.scrollWidth > m.clientWidth + 1).length,
      );
      if (scrolling === 'none') assert.equal(overflowing, 0, 'at 360 px every formula is broken to fit');
      else assert.ok(overflowing >= 1, `at ${width} px some formula is wider than the column`);
      const violations = await runAxe(page, { run: { type: 'rule', values: ['scrollable-region-focusable'] } });
      assert.deepEqual(
        violations.map((v) => v.nodes.map((n) => n.target.join(' '))),
        [],
        `${width} px`,
      );
      await context.close();
    }
  });

  test('a formula that scrolls shows a shadow at the edge with more to see; one that fits keeps no tab stop', async () => {
    const { page, context } = await openPage(site.browser, site.server.url, { viewport: { width: 280, height: 780 } });
    const formulas = await page.evaluate(() =>
      [...document.querySelectorAll('.math-display')].map((m) => ({
        scrolls: m.scrollWidth > m.clientWidth + 1,
        focusable: m.tabIndex === 0,
        shadow: getComputedStyle(m).backgroundImage.includes('radial-gradient'),
      })),
    );
    for (const f of formulas) {
      assert.equal(f.focusable, f.scrolls);
      assert.ok(f.shadow);
    }
    await context.close();
    const wide = await openPage(site.browser, site.server.url, { viewport: DESKTOP });
    const stops = await wide.page.evaluate(
      () =>
        [...document.querySelectorAll('.math-display')].filter(
          (m) => m.tabIndex === 0 && m.scrollWidth <= m.clientWidth + 1,
        ).length,
    );
    assert.equal(stops, 0, 'no formula that fits keeps a tab stop');
    await wide.context.close();
  });

  test('the options table stacks its rows at 360 px, every cell under its column heading', async () => {
    const { page, context } = await openPage(site.browser, site.server.url, { viewport: PHONE });
    const table = await page.evaluate(() => {
      const wrap = document.querySelector('#your-options .table-wrap');
      const cells = [...wrap.querySelectorAll('tbody td')];
      return {
        scrolls: wrap.scrollWidth > wrap.clientWidth + 1,
        display: getComputedStyle(cells[1]).display,
        labels: cells.slice(1, 5).map((td) => getComputedStyle(td, '::before').content),
        visibleCells: cells.filter((td) => td.getBoundingClientRect().right <= wrap.getBoundingClientRect().right + 1)
          .length,
        cells: cells.length,
      };
    });
    assert.equal(table.scrolls, false);
    assert.equal(table.display, 'block');
    assert.deepEqual(table.labels, ['"What it does"', '"What it gives you"', '"What it costs"', '"Where it lives"']);
    assert.equal(table.visibleCells, table.cells, 'every cell is inside the screen');
    await context.close();
  });
});

describe('marks and links', () => {
  test('computed numbers carry a quiet tint, not an underline; quoted numbers carry none', async () => {
    const { page, context } = await openPage(site.browser, site.server.url);
    const marks = await page.evaluate(() => {
      const live = [...document.querySelectorAll('.live')];
      const opening = [...document.querySelectorAll('.lesson-header p')].find((p) =>
        p.textContent.includes('How to open it'),
      );
      return {
        count: live.length,
        tinted: live.filter((el) => getComputedStyle(el).backgroundColor !== 'rgba(0, 0, 0, 0)').length,
        underlined: live.filter((el) => getComputedStyle(el).textDecorationLine !== 'none').length,
        exampleInOpening: opening.querySelectorAll('.live').length,
        quotedInOpening: [...opening.querySelectorAll('.live')].some((el) => /1,024|800/.test(el.textContent)),
      };
    });
    assert.ok(marks.count > 50);
    assert.equal(marks.tinted, marks.count);
    assert.equal(marks.underlined, 0);
    assert.equal(marks.exampleInOpening, 1, 'the mark is shown once where it is explained');
    assert.equal(marks.quotedInOpening, false);
    await context.close();
  });

  test('the page links to the single-file download, and the link works', async () => {
    const { page, context } = await openPage(site.browser, site.server.url);
    const links = await page.evaluate(() => [...document.querySelectorAll('a[download]')].map((a) => a.href));
    assert.ok(links.length >= 1);
    for (const href of links) {
      const response = await page.request.get(href);
      assert.equal(response.status(), 200);
      assert.match(await response.text(), /<title>Positional information/);
    }
    await context.close();
  });
});

describe('print', () => {
  test('hides chart inputs and buttons, keeps each figure whole with its caption and small enough to share a page', async () => {
    const { page, context } = await openPage(site.browser, site.server.url, { viewport: A4 });
    await mountAllCharts(page);
    await page.emulateMedia({ media: 'print' });
    await page.evaluate(() => dispatchEvent(new Event('beforeprint')));
    await page.waitForTimeout(300);
    const report = await page.evaluate(() => {
      const slots = [...document.querySelectorAll('figure.chart-slot, figure.diagram')];
      const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
      return {
        figures: slots.length,
        visibleControls: [
          ...document.querySelectorAll(
            '.chart-slot input, .chart-slot select, .chart-slot textarea, .chart-slot button, .chart-download-link, .chart-data',
          ),
        ].filter(shown).length,
        // A figure either does not break, or (a written report) breaks only outside its drawings.
        whole: slots.filter(
          (f) =>
            getComputedStyle(f).breakInside === 'avoid' ||
            [...f.querySelectorAll('.chart-plot')].every((p) => getComputedStyle(p).breakInside === 'avoid'),
        ).length,
        captionsKept: [...document.querySelectorAll('.chart-slot figcaption')].filter(
          (c) => getComputedStyle(c).breakBefore === 'avoid' && shown(c),
        ).length,
        captions: document.querySelectorAll('.chart-slot figcaption').length,
        // The unbreakable blocks: whole figures, or the drawings of a figure that may break.
        blocks: slots
          .flatMap((f) => (getComputedStyle(f).breakInside === 'avoid' ? [f] : [...f.querySelectorAll('.chart-plot')]))
          .map((b) => [b.closest('figure').id, Math.round(b.getBoundingClientRect().height)]),
      };
    });
    assert.equal(report.visibleControls, 0);
    assert.equal(report.whole, report.figures);
    assert.equal(report.captionsKept, report.captions);
    // An A4 page is 1,123 CSS px tall, about 1,000 inside the margins. A figure that may not break
    // leaves at most its own height empty when it moves to the next page: at most half a page.
    for (const [id, height] of report.blocks)
      assert.ok(height <= 500, `${id}: an unbreakable block ${height} px tall in print`);
    await context.close();
  });

  test('prints black on white from a dark system and from the dark toggle', async () => {
    const { page, context } = await openPage(site.browser, site.server.url, {
      viewport: A4,
      contextOptions: { colorScheme: 'dark' },
    });
    const colours = () =>
      page.evaluate(() => {
        const of = (selector, property) => getComputedStyle(document.querySelector(selector))[property];
        return {
          page: of('html', 'backgroundColor'),
          text: of('body', 'color'),
          link: of('main a[href]', 'color'),
          raised: getComputedStyle(document.documentElement).getPropertyValue('--bg-raised').trim(),
          stroke: getComputedStyle(document.documentElement).getPropertyValue('--diagram-stroke').trim(),
        };
      });
    const blackOnWhite = { page: 'rgb(255, 255, 255)', text: 'rgb(0, 0, 0)', link: 'rgb(0, 0, 0)' };
    await page.emulateMedia({ media: 'print' });
    for (const theme of [null, 'dark']) {
      if (theme) await page.evaluate((value) => document.documentElement.setAttribute('data-theme', value), theme);
      const seen = await colours();
      assert.deepEqual(
        { page: seen.page, text: seen.text, link: seen.link },
        blackOnWhite,
        `theme ${theme ?? 'system'}`,
      );
      assert.equal(seen.raised, '#fff', `theme ${theme ?? 'system'}: raised boxes print on the paper's white`);
      assert.equal(seen.stroke, '#000', `theme ${theme ?? 'system'}: diagram lines print in the text's black`);
    }
    await context.close();
  });
});
