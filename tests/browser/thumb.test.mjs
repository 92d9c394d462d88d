// Browser tests of the page under a finger and on a small screen: every target at least 24 × 24 CSS px
// (WCAG 2.2's 2.5.8) at 360 and 1,280 px in both languages, the RoPE clock's hands turned by a touch
// drag (CDP Input.dispatchTouchEvent: real touch input, which the browser may take for a scroll),
// each snippet's result readable without scrolling sideways at 360 px, and the figures as wide as the
// phone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE, mountAllCharts, openPage, startSite } from './helpers.mjs';

const PHONE = { width: 360, height: 780 };
const DESKTOP = { width: 1280, height: 900 };
const TOUCH_PHONE = { viewport: PHONE, contextOptions: { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } };

let site;
before(async () => {
  site = await startSite();
});
after(async () => site?.close());

/**
 * Every visible target on the page smaller than 24 × 24 CSS px, as "description w×h", less the
 * exceptions WCAG 2.5.8 makes: a target inside a sentence (an inline link or number in running text,
 * whose size the line sets) and one the browser draws itself at its default size.
 */
function smallTargets() {
  const TARGETS =
    'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="slider"], [role="tab"], [role="button"]';
  const inSentence = (el) => {
    if (!getComputedStyle(el).display.startsWith('inline')) return false;
    const block = el.parentElement.closest('p, li, td, th, dd, figcaption, label, span.chart-description');
    if (!block) return false;
    const text = block.textContent.replace(el.textContent, '').trim();
    return text.length > 0;
  };
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none' && el.checkVisibility?.() !== false;
  };
  const small = [];
  for (const el of document.querySelectorAll(TARGETS)) {
    if (!visible(el) || inSentence(el)) continue;
    // A radio or checkbox inside its label: the label is the target.
    const target = el.matches('input[type="radio"], input[type="checkbox"]') ? (el.closest('label') ?? el) : el;
    const box = target.getBoundingClientRect();
    if (box.width >= 23.5 && box.height >= 23.5) continue;
    const name = (el.getAttribute('aria-label') ?? el.textContent).trim().slice(0, 40);
    small.push(
      `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(' ')[0] : ''} "${name}" ${box.width.toFixed(1)}×${box.height.toFixed(1)}`,
    );
  }
  return small;
}

describe('targets', () => {
  for (const [lang, path] of [
    ['en', ''],
    ['zh-Hans', 'zh-Hans/'],
  ])
    for (const viewport of [PHONE, DESKTOP])
      test(`every target is at least 24 × 24 CSS px (${lang}, ${viewport.width} px)`, async () => {
        const { page, context, problems } = await openPage(site.browser, `${site.server.url}${path}`, { viewport });
        await mountAllCharts(page);
        // The contents are folded on phones: open them, as a reader reaching for a link would.
        await page.evaluate(() => {
          for (const details of document.querySelectorAll('details.toc')) details.open = true;
        });
        assert.deepEqual(await page.evaluate(smallTargets), []);
        assert.deepEqual(problems, []);
        await context.close();
      });
});

describe('touch', { skip: ENGINE !== 'chromium' && 'CDP touch input is Chromium’s' }, () => {
  test('a finger on the RoPE clock turns a hand, and the page does not scroll', async () => {
    const { page, context, problems } = await openPage(site.browser, `${site.server.url}#rope`, TOUCH_PHONE);
    await mountAllCharts(page);
    const clock = page.locator('[data-chart="rope-clock"] .chart-canvas').first();
    await clock.scrollIntoViewIfNeeded();
    const read = () =>
      page.evaluate(() => {
        const chart = window.positionalCharts.mounted.get('rope-clock');
        return { m: chart.state.m, n: chart.state.n, tip: chart.tipOf('query'), face: chart.face() };
      });
    const before = await read();
    const box = await clock.boundingBox();
    const scrollBefore = await page.evaluate(() => window.scrollY);
    const cdp = await context.newCDPSession(page);
    const touch = (type, points) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: points.map(([x, y]) => ({ x: box.x + x, y: box.y + y, radiusX: 4, radiusY: 4, force: 1 })),
      });
    const { tip, face } = before;
    const reach = Math.hypot(tip.x - face.cx, tip.y - face.cy);
    const start = Math.atan2(-(tip.y - face.cy), tip.x - face.cx);
    const at = (a) => [face.cx + reach * Math.cos(a), face.cy - reach * Math.sin(a)];
    await touch('touchStart', [at(start)]);
    // A quarter turn back (clockwise) in eight moves: the q hand's position falls by about (π/2) / θ.
    for (let step = 1; step <= 8; step++) await touch('touchMove', [at(start - (step * Math.PI) / 16)]);
    await touch('touchEnd', []);
    const after = await read();
    const theta = await page.evaluate(() => window.positionalCharts.mounted.get('rope-clock').state.theta);
    assert.equal(after.n, before.n, 'the k hand stays');
    assert.ok(
      Math.abs(after.m - (before.m - Math.PI / 2 / theta)) <= 1,
      `m after a quarter turn back: ${after.m}, from ${before.m} at θ ${theta}`,
    );
    assert.equal(await page.evaluate(() => window.scrollY), scrollBefore, 'the page stayed where it was');
    const value = await page.locator('[data-chart="rope-clock"] [data-control="m"]').first().inputValue();
    assert.equal(Number(value), after.m, 'the m field shows the dragged position');
    const note = await page.locator('[data-chart="rope-clock"] .chart-note').first().textContent();
    assert.match(note, /^Touch: /, 'the help names the reader’s finger, not a keyboard');
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('a phone’s width', () => {
  test('every snippet’s result is readable without scrolling sideways at 360 px', async () => {
    const { page, context, problems } = await openPage(site.browser, site.server.url, { viewport: PHONE });
    const panels = await page.evaluate(() =>
      [...document.querySelectorAll('.snippet-panel')].map((panel) => {
        // Every panel, shown one at a time as its tab would.
        const hidden = panel.hidden;
        panel.hidden = false;
        const box = panel.getBoundingClientRect();
        const results = [...panel.querySelectorAll('.result-comment')].map((c) => c.getBoundingClientRect());
        const out = {
          id: panel.id,
          overflow: panel.scrollWidth - panel.clientWidth,
          results: results.length,
          outside: results.filter((r) => r.right > box.right + 0.5 || r.left < box.left - 0.5).length,
        };
        panel.hidden = hidden;
        return out;
      }),
    );
    assert.ok(panels.length >= 7, `snippet panels found: ${panels.length}`);
    assert.ok(panels.reduce((n, p) => n + p.results, 0) >= 7, 'the result comments are marked');
    for (const panel of panels) {
      assert.ok(panel.overflow <= 0, `${panel.id} scrolls sideways by ${panel.overflow} px`);
      assert.equal(panel.outside, 0, `${panel.id}: a result comment reaches out of the panel`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('at 360 px every figure’s plot spans at least 90% of the screen', async () => {
    const { page, context, problems } = await openPage(site.browser, site.server.url, { viewport: PHONE });
    await mountAllCharts(page);
    const widths = await page.evaluate(() =>
      [...document.querySelectorAll('.chart-slot:not([data-spy]) .chart-canvas')]
        .filter((c) => c.getBoundingClientRect().width > 0)
        .map((c) => ({ chart: c.closest('[data-chart]').dataset.chart, width: c.getBoundingClientRect().width })),
    );
    assert.ok(widths.length >= 13, `canvases found: ${widths.length}`);
    for (const { chart, width } of widths) assert.ok(width >= 324, `${chart}: a plot ${width.toFixed(0)} px wide`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width, 'no page overflow');
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('a prose number’s − and +', () => {
  // Near the bottom of the screen, where a pop-up has the least room: 30 px above it, and on its very
  // edge (where the browser's scroll-into-view leaves a number it brings in from below).
  for (const [viewport, options, above] of [
    [PHONE, TOUCH_PHONE, 30],
    [DESKTOP, { viewport: DESKTOP }, 30],
    [PHONE, TOUCH_PHONE, 0],
    [DESKTOP, { viewport: DESKTOP }, 0],
  ])
    test(`cover no text of the number’s line or the one above it (${viewport.width} px, ${above} px above the screen's bottom)`, async () => {
      const { page, context, problems } = await openPage(site.browser, site.server.url, options);
      // Once every block above has its height (the page lays them out a frame at a time as it loads).
      await page.waitForFunction(() => !document.documentElement.classList.contains('is-loading'));
      const number = page.locator('#extending-context [data-param="extension.trained"]').first();
      await number.scrollIntoViewIfNeeded();
      await page.evaluate((gap) => {
        const box = document
          .querySelector('#extending-context [data-param="extension.trained"]')
          .getBoundingClientRect();
        window.scrollBy({ top: box.bottom - document.documentElement.clientHeight + gap, behavior: 'instant' });
      }, above);
      if (options.contextOptions?.hasTouch) await number.tap();
      else await number.click();
      // Once the page holds still (a figure above may still mount and grow the page): the number's place
      // on the screen and the scroll the same over two frames.
      await page.evaluate(async () => {
        const frame = () => new Promise((r) => requestAnimationFrame(r));
        const where = () => `${document.activeElement.getBoundingClientRect().top} ${scrollY}`;
        for (let last = '', same = 0, frames = 0; same < 2 && frames < 300; frames++) {
          await frame();
          const now = where();
          same = now === last ? same + 1 : 0;
          last = now;
        }
      });
      const boxes = await page.evaluate(() => {
        const rect = (el) => el.getBoundingClientRect().toJSON();
        const handle = document.activeElement;
        const line = parseFloat(getComputedStyle(handle.parentElement).lineHeight);
        return {
          handle: rect(handle),
          line,
          column: rect(handle.closest('main')),
          pair: rect(document.querySelector('.param-steppers:not([hidden])')),
          height: window.innerHeight,
        };
      });
      const { handle, line, column, pair, height } = boxes;
      // The band of text being read: the number's line and the line above it, across the column.
      const band = { top: handle.top - line, bottom: handle.bottom, left: column.left, right: column.right };
      const overlaps =
        pair.left < band.right && pair.right > band.left && pair.top < band.bottom && pair.bottom > band.top;
      assert.equal(overlaps, false, `− and + at ${JSON.stringify(pair)} over ${JSON.stringify(band)}`);
      assert.ok(pair.top >= 0 && pair.bottom <= height, `on the screen: ${JSON.stringify({ pair, handle, height })}`);
      assert.ok(handle.top >= 0 && handle.bottom <= height, 'the number is on the screen');
      const before = await number.getAttribute('aria-valuenow');
      const plus = page.locator('.param-steppers:not([hidden]) .param-step[data-step="up"]');
      if (options.contextOptions?.hasTouch) await plus.tap();
      else await plus.click();
      assert.ok(Number(await number.getAttribute('aria-valuenow')) > Number(before), '+ moves the number');
      assert.deepEqual(problems, []);
      await context.close();
    });
});

describe('the first screen', () => {
  for (const [lang, path, reordered, other] of [
    ['en', '', /^Same words, new order\. Without positions: similarity 1\.000/, /^B has other words than A/],
    ['zh-Hans', 'zh-Hans/', /^同样的词，新的顺序。没有位置时：相似度 1\.000/, /^B 里的词与 A 不同/],
  ])
    for (const viewport of [PHONE, DESKTOP])
      test(`holds the first question, live and answered as the reader types (${lang}, ${viewport.width} px)`, async () => {
        const { page, context, problems } = await openPage(site.browser, `${site.server.url}${path}`, { viewport });
        const box = page.locator('[data-first-question]');
        const fields = box.locator('input');
        assert.equal(await fields.count(), 2);
        const bottom = await page.evaluate(() => {
          const verdict = document.querySelector('.first-question-verdict').getBoundingClientRect();
          const fieldBox = document.querySelector('.first-question-fields').getBoundingClientRect();
          return { fields: fieldBox.bottom, verdict: verdict.bottom };
        });
        assert.ok(bottom.fields <= viewport.height, `the fields end at ${bottom.fields} px`);
        const verdict = box.locator('.first-question-verdict');
        // The lesson's example is answered by the printed sentence, with the build's live numbers.
        assert.equal(await verdict.textContent(), '');
        assert.equal(await box.locator('p .live').first().isVisible(), true);
        // Retyped as a reader would: B becomes "bites dog man", the same words again.
        await fields.nth(1).click();
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.type('bites dog man');
        // The verdict is answered once per frame, and a loaded machine may take several: wait for the
        // verdict itself (each one carries a 0.ddd figure, so a figure alone says nothing), then check it.
        const verdictSays = (pattern) =>
          page
            .waitForFunction(
              (source) => new RegExp(source).test(document.querySelector('.first-question-verdict').textContent),
              pattern.source,
              { timeout: 10_000 },
            )
            .catch(() => {});
        await verdictSays(reordered);
        assert.match(await verdict.textContent(), reordered);
        await page.keyboard.type(' cat');
        await verdictSays(other);
        assert.match(await verdict.textContent(), other);
        // The reverse button puts A's words back in B, reversed.
        await box.locator('button').click();
        assert.equal(await fields.nth(1).inputValue(), 'man bites dog');
        assert.equal(await verdict.textContent(), '', 'the example again: the printed sentence answers it');
        assert.deepEqual(problems, []);
        await context.close();
      });
});

describe('long figure notes', () => {
  test('a note over 60 words shows its first sentence and unfolds the rest; a short one shows whole', async () => {
    const { page, context, problems } = await openPage(site.browser, site.server.url, { viewport: PHONE });
    const result = await page.evaluate(async () => {
      const { foldingNote } = await import('./js/chart-kit/define-chart.js');
      const box = document.createElement('div');
      document.querySelector('main').prepend(box);
      const note = foldingNote(box);
      const long = `First sentence, with 1.5 in it. ${'More words follow here. '.repeat(16)}`.trim();
      note.show(long);
      const paragraph = box.querySelector('.chart-note');
      const button = box.querySelector('.chart-note-more');
      const folded = { text: paragraph.innerText, whole: paragraph.textContent, button: !button.hidden };
      button.click();
      const open = { text: paragraph.innerText, expanded: button.getAttribute('aria-expanded') };
      note.show(`${long} One more.`);
      const kept = paragraph.innerText.endsWith('One more.');
      note.show('A short note.');
      const short = { text: paragraph.innerText, button: !button.hidden };
      box.remove();
      return { long, folded, open, kept, short };
    });
    assert.equal(result.folded.text, 'First sentence, with 1.5 in it.');
    assert.equal(result.folded.whole, result.long, 'the paragraph holds the whole note');
    assert.equal(result.folded.button, true);
    assert.equal(result.open.text, result.long);
    assert.equal(result.open.expanded, 'true');
    assert.equal(result.kept, true, 'an unfolded note stays unfolded when it changes');
    assert.deepEqual(result.short, { text: 'A short note.', button: false });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
