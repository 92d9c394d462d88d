// The single file's fonts in a browser, from file://: the maths (MathML) is drawn with the maths
// faces it carries, cut to the formulas' glyphs, and the prose with the page's text face — no
// character falls back to another font.
// Chromium says which platform fonts drew each node (CDP CSS.getPlatformFontsForNode); every
// engine also checks each character's advance with two different fallbacks behind the face: the
// same width both ways means the face itself has the glyph.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ENGINE, devtoolsNodes, launchBrowser, singleFile } from './helpers.mjs';

let browser;
let page;
const skip = !existsSync(singleFile) && 'no dist-single build';

before(async () => {
  if (skip) return;
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await page.goto(pathToFileURL(singleFile).href);
  await page.waitForFunction(() => document.documentElement.dataset.liveState, null, { timeout: 30000 });
  await page.evaluate(() => document.fonts.ready);
});

after(async () => {
  await browser?.close();
});

/** In the page: each text-bearing element matching `selector` → { family, style, weight, text }. */
function textRuns(selector) {
  const runs = [];
  for (const el of document.querySelectorAll(selector)) {
    const text = [...el.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.data)
      .join('')
      .replace(/\s/g, '');
    if (!text) continue;
    const cs = getComputedStyle(el);
    runs.push({
      family: cs.fontFamily.split(',')[0].trim().replace(/['"]/g, ''),
      style: cs.fontStyle,
      weight: cs.fontWeight,
      text,
    });
  }
  return runs;
}

/**
 * In the page: the characters of `runs` some face does not have (advance differs by fallback),
 * among those its @font-face's unicode-range gives it (outside it, the next family is meant to draw).
 */
function missingGlyphs(runs) {
  const ctx = document.createElement('canvas').getContext('2d');
  const missing = new Set();
  const ranges = new Map();
  for (const face of document.fonts) {
    const family = face.family.replace(/['"]/g, '');
    const parsed = face.unicodeRange.split(',').map((r) => {
      const [lo, hi = lo] = r.trim().replace(/^U\+/i, '').split('-');
      return [parseInt(lo, 16), parseInt(hi, 16)];
    });
    ranges.set(family, [...(ranges.get(family) ?? []), ...parsed]);
  }
  const covered = (family, ch) =>
    (ranges.get(family) ?? []).some(([lo, hi]) => ch.codePointAt(0) >= lo && ch.codePointAt(0) <= hi);
  const width = (font, ch) => {
    ctx.font = font;
    return ctx.measureText(ch).width;
  };
  for (const { family, style, weight, text } of runs)
    for (const ch of new Set(text)) {
      if (!covered(family, ch)) continue;
      const font = `${style} ${weight} 40px "${family}"`;
      if (Math.abs(width(`${font}, monospace`, ch) - width(`${font}, cursive`, ch)) > 0.01)
        missing.add(`${family}:${ch}`);
    }
  return [...missing];
}

/** The maths faces' families (web/site-builder/fonts.mjs: DejaVu Math TeX Gyre, and DejaVu Serif's italic for variables). */
const MATH_FAMILIES = /^DejaVu (Math TeX Gyre|Serif)$/;

test('the maths is drawn with the maths faces the single file carries, every glyph present', { skip }, async () => {
  const runs = await page.evaluate(textRuns, 'main math :not(annotation)');
  const families = new Set(runs.map((r) => r.family));
  assert.ok(runs.length > 100, `only ${runs.length} runs of maths text`);
  for (const family of families) assert.match(family, MATH_FAMILIES, `maths text in ${family}`);
  assert.ok(families.has('DejaVu Math TeX Gyre'), `maths families: ${[...families]}`);
  const loaded = await page.evaluate(() =>
    [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/['"]/g, '')),
  );
  for (const family of families) assert.ok(loaded.includes(family), `${family} not loaded (loaded: ${loaded})`);
  assert.deepEqual(await page.evaluate(missingGlyphs, runs), []);
});

test("the prose is drawn with the page's text face, every glyph present", { skip }, async () => {
  const runs = await page.evaluate(textRuns, 'main :is(p, li, h2, h3, em, strong):not(table *):not(.chart-slot *)');
  assert.ok(runs.length > 50, `only ${runs.length} runs of prose`);
  const faces = await page.evaluate(() => [...document.fonts].map((f) => f.family.replace(/['"]/g, '')));
  const text = runs.filter((r) => !MATH_FAMILIES.test(r.family));
  for (const { family } of text) assert.ok(faces.includes(family), `prose in ${family}, which the page does not carry`);
  assert.deepEqual(await page.evaluate(missingGlyphs, text), []);
});

test(
  'Chromium reports only embedded faces for the maths',
  { skip: skip || (ENGINE !== 'chromium' && "CDP is Chromium's") },
  async () => {
    const { cdp, nodeIds } = await devtoolsNodes(page, 'main math :not(annotation)', ['CSS']);
    const fonts = new Map();
    for (const nodeId of nodeIds) {
      const { fonts: used } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      for (const f of used) fonts.set(f.familyName, (fonts.get(f.familyName) ?? 0) + f.glyphCount);
    }
    assert.ok(fonts.size > 0, 'no fonts reported');
    for (const [family, glyphs] of fonts)
      assert.match(family, MATH_FAMILIES, `${glyphs} glyphs of the maths drawn in ${family}`);
    assert.ok(fonts.has('DejaVu Math TeX Gyre'), `fonts: ${[...fonts.keys()]}`);
  },
);
