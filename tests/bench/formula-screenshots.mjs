#!/usr/bin/env node
// Every formula of the built lesson (display and inline, in the order of the text) cropped from the
// page in one engine at one width, and laid out on contact sheets beside the same formula from
// another build (--before), for a person to compare: build/formula-screenshots/ (gitignored).
//   POSITIONAL_BROWSER=chromium|firefox|webkit node tests/bench/formula-screenshots.mjs
//     [--dist dist] [--before other/dist] [--out build/formula-screenshots] [--widths 360,1280]
//     [--page zh-Hans/index.html] [--per-sheet 24]
// --zoom N magnifies the crops (default 2); --only 3,9,41 shoots those formulas only (numbers as on the sheets).
// WebKit's MiniBrowser window is never narrower than WEBKIT_MIN_WIDTH: a narrower width is shot there.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { screenshotArgs } from './browse.mjs';
import { ENGINE, WEBKIT_MIN_WIDTH, launchBrowser } from '../browser/helpers.mjs';
import { startServer } from '../../web/site-builder/serve.mjs';

const values = screenshotArgs('build/formula-screenshots', {
  before: { type: 'string' },
  widths: { type: 'string', default: '360,1280' },
  page: { type: 'string', default: '' },
  'per-sheet': { type: 'string', default: '24' },
  zoom: { type: 'string', default: '2' },
  only: { type: 'string', default: '' },
});
const ZOOM = Number(values.zoom);
const only = values.only ? new Set(values.only.split(',').map(Number)) : null;
const { out } = values;
const widths = values.widths
  .split(',')
  .map((w) => (ENGINE === 'webkit' ? Math.max(Number(w), WEBKIT_MIN_WIDTH) : Number(w)));
const builds = [['after', values.dist], ...(values.before ? [['before', values.before]] : [])];
const PAD = 6;

/** In-page: every formula of the lesson (not the table of contents), as [display?, TeX]. */
function formulaList() {
  return [...document.querySelectorAll('main .katex')].map((el) => {
    const display = Boolean(el.closest('.math-display'));
    const tex = el.querySelector('annotation')?.textContent ?? '';
    return [display, tex];
  });
}

/** In-page: scrolls formula `i` into the middle of the view and returns its box (the display box for a display formula). */
function placeFormula(i) {
  const el = document.querySelectorAll('main .katex')[i];
  const box = el.closest('.math-display') ?? el;
  box.scrollIntoView({ block: 'center', inline: 'nearest' });
  const r = box.getBoundingClientRect();
  const scroller = el.closest('.math-display');
  return {
    x: r.left,
    y: r.top,
    width: r.width,
    height: r.height,
    clipped: scroller ? scroller.scrollWidth > scroller.clientWidth + 1 : false,
  };
}

/** A PNG of the viewport as bytes. */
async function viewportPng(page) {
  if (ENGINE === 'webkit') return Buffer.from(await page.cmd('GET', '/screenshot'), 'base64');
  return page.screenshot();
}

async function shootBuild(browser, dist, label, width) {
  const server = await startServer({ root: dist, port: 0 });
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  try {
    await page.goto(`${server.url}${values.page}`);
    await page.waitForFunction(
      () => document.documentElement.dataset.liveState && !document.documentElement.classList.contains('is-loading'),
      null,
      { timeout: 60000 },
    );
    await page.evaluate(() => document.fonts.ready.then(() => true));
    const formulas = await page.evaluate(formulaList);
    const shots = [];
    for (let i = 0; i < formulas.length; i++) {
      if (only && !only.has(i)) {
        shots.push(null);
        continue;
      }
      const box = await page.evaluate(placeFormula, i);
      await page.waitForTimeout(30);
      const file = `${ENGINE}-${width}-${label}-${String(i).padStart(3, '0')}.png`;
      writeFileSync(join(out, file), await viewportPng(page));
      shots.push({ file, box, display: formulas[i][0], tex: formulas[i][1] });
    }
    return shots;
  } finally {
    await page.close();
    await server.close();
  }
}

const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** One crop of a viewport shot, as a div showing that part of the PNG at ZOOM×. */
function crop(shot) {
  if (!shot) return '<div class="none">—</div>';
  const { x, y, width, height } = shot.box;
  const w = Math.ceil(width + 2 * PAD);
  const h = Math.ceil(height + 2 * PAD);
  return `<div class="crop" style="width:${w * ZOOM}px;height:${h * ZOOM}px;background-image:url(${shot.file});background-position:${-(x - PAD) * ZOOM}px ${-(y - PAD) * ZOOM}px"></div>${shot.box.clipped ? '<b>scrolls</b>' : ''}`;
}

const browser = await launchBrowser();
// The contact sheets are drawn in Chromium whatever engine shot the formulas.
const sheetBrowser =
  ENGINE === 'chromium'
    ? browser
    : await chromium.launch({
        executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
      });
try {
  for (const width of widths) {
    const shots = {};
    for (const [label, dist] of builds) shots[label] = await shootBuild(browser, dist, label, width);
    writeFileSync(join(out, `shots-${ENGINE}-${width}.json`), JSON.stringify(shots, null, 1));
    const count = shots.after.length;
    if (shots.before && shots.before.length !== count)
      console.log(`${ENGINE} ${width}: ${count} formulas after, ${shots.before.length} before`);
    const per = Number(values['per-sheet']);
    for (let start = 0; start < count; start += per) {
      const rows = shots.after
        .slice(start, start + per)
        .map(
          (a, k) =>
            a &&
            `<tr><td>${start + k}${a.display ? ' D' : ''}<br><code>${escape(a.tex).slice(0, 80)}</code></td>` +
              `<td>${crop(shots.before?.[start + k])}</td><td>${crop(a)}</td></tr>`,
        )
        .filter(Boolean)
        .join('\n');
      if (!rows) continue;
      const html = `<!doctype html><meta charset="utf-8"><style>
        body{font:12px sans-serif;margin:8px} td{border-top:1px solid #ccc;vertical-align:top;padding:4px}
        td:first-child{width:220px;word-break:break-all} .crop{image-rendering:pixelated;background-size:${width * ZOOM}px auto;outline:1px dashed #f0a}
        b{color:#c00}</style>
        <h1>${ENGINE}, ${width} px: before | after</h1><table>${rows}</table>`;
      const sheet = join(out, `sheet-${ENGINE}-${width}-${String(start).padStart(3, '0')}.html`);
      writeFileSync(sheet, html);
      const widest = Math.max(
        ...[...shots.after, ...(shots.before ?? [])]
          .slice(start, start + per)
          .filter(Boolean)
          .map((shot) => shot.box.width),
      );
      const page = await sheetBrowser.newPage({
        viewport: { width: Math.ceil(300 + 2 * ZOOM * (widest + 2 * PAD)), height: 600 },
      });
      await page.goto(`file://${sheet}`);
      await page.screenshot({ path: sheet.replace(/\.html$/, '.png'), fullPage: true });
      await page.close();
      console.log(sheet.replace(/\.html$/, '.png'));
    }
  }
} finally {
  if (sheetBrowser !== browser) await sheetBrowser.close();
  await browser.close();
}
