// Drawing check (not a test): the same steps on the same charts in two builds of the site, compared
// pixel for pixel, and screenshots of the new build's charts for a person to look at. For each look
// (light and dark, 360 and 1280 px wide) both builds load, take the same key presses on the
// sinusoidal heatmap, attention weights and context-extension charts, then the theme is switched
// (data-theme), the page resized to the other width and switched back, and the steps are taken
// again; after each phase every canvas of those charts is read back (getImageData) in both builds.
// Prints, and writes to build/screenshots/chart-pixels/pixels.json, how many pixels differ and by
// how much at most; screenshots of the new build go beside it.
//   node tests/bench/chart-pixels.mjs --baseline OLD_DIST [--dist dist] [--out build/screenshots/chart-pixels]
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { LAUNCH } from '../browser/helpers.mjs';
import { startServer } from '../../web/site-builder/serve.mjs';
import { LOOKS, screenshotArgs } from './browse.mjs';

const values = screenshotArgs('build/screenshots/chart-pixels', { baseline: { type: 'string' } });
if (!values.baseline) throw new Error('--baseline OLD_DIST is required');

const CHARTS = {
  'sinusoidal-heatmap': [
    ['[role="slider"][data-handle="position"]', ['ArrowDown', 'ArrowDown', 'PageDown']],
    ['[data-control="n-slider"]', ['ArrowRight', 'ArrowRight']],
  ],
  'attention-weights': [['[data-control="scheme"]', ['ArrowDown', 'ArrowDown']]],
  'context-extension': [['[role="slider"][data-handle="target"]', ['ArrowRight', 'ArrowRight', 'ArrowRight']]],
};

async function open(browser, url, { theme, width }) {
  const page = await browser.newPage({
    viewport: { width, height: 2000 },
    colorScheme: theme,
    deviceScaleFactor: width < 500 ? 2 : 1,
  });
  await page.goto(`${url}?charts=eager`);
  await page.waitForFunction(() => window.positionalCharts?.mounted.size > 0, null, { timeout: 60000 });
  await page.evaluate(() => window.positionalCharts.mountAll());
  for (const id of Object.keys(CHARTS))
    await page.waitForFunction((chart) => window.positionalCharts?.mounted.has(chart), id, { timeout: 30000 });
  return page;
}

async function steps(page) {
  for (const [id, list] of Object.entries(CHARTS)) {
    for (const [selector, keys] of list) {
      const target = page.locator(`[data-chart="${id}"] ${selector}`).first();
      await target.scrollIntoViewIfNeeded();
      await target.focus();
      for (const key of keys) {
        await page.keyboard.press(key);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      }
      await page.evaluate(() => document.activeElement?.blur());
    }
    await page.evaluate((chart) => window.positionalCharts.mounted.get(chart).flush?.(), id);
  }
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Every canvas of the charts: { id#index → { width, height, pixels (base64 RGBA) } }. */
const canvases = (page) =>
  page.evaluate((ids) => {
    const out = {};
    for (const id of ids) {
      document.querySelectorAll(`[data-chart="${id}"] canvas`).forEach((c, i) => {
        const bytes = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let s = '';
        for (let k = 0; k < bytes.length; k += 8192) s += String.fromCharCode(...bytes.subarray(k, k + 8192));
        out[`${id}#${i}`] = { width: c.width, height: c.height, pixels: btoa(s) };
      });
    }
    return out;
  }, Object.keys(CHARTS));

function compare(a, b) {
  const out = {};
  for (const key of Object.keys(b)) {
    if (!a[key] || a[key].width !== b[key].width || a[key].height !== b[key].height) {
      out[key] = {
        sizes_differ: true,
        old: a[key] && [a[key].width, a[key].height],
        new: [b[key].width, b[key].height],
      };
      continue;
    }
    const pa = Buffer.from(a[key].pixels, 'base64');
    const pb = Buffer.from(b[key].pixels, 'base64');
    let differing = 0;
    let most = 0;
    for (let i = 0; i < pa.length; i += 4) {
      const d = Math.max(
        Math.abs(pa[i] - pb[i]),
        Math.abs(pa[i + 1] - pb[i + 1]),
        Math.abs(pa[i + 2] - pb[i + 2]),
        Math.abs(pa[i + 3] - pb[i + 3]),
      );
      if (d) differing++;
      most = Math.max(most, d);
    }
    out[key] = { size: [b[key].width, b[key].height], pixels: pa.length / 4, differing, max_channel_difference: most };
  }
  return out;
}

async function shoot(page, name) {
  for (const id of Object.keys(CHARTS)) {
    const clip = await page.evaluate(async (chart) => {
      const slot = document.querySelector(`[data-chart="${chart}"]`);
      slot.scrollIntoView({ block: 'start' });
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const r = slot.getBoundingClientRect();
      return { x: r.left, y: r.top, width: r.width, height: Math.min(r.height, 1990) };
    }, id);
    await page.screenshot({ path: join(values.out, `${id}-${name}.png`), clip });
  }
}

const [oldServer, newServer] = await Promise.all(
  [values.baseline, values.dist].map((root) => startServer({ root: resolve(root), port: 0 })),
);
const browser = await chromium.launch(LAUNCH);
const report = {};
try {
  for (const look of LOOKS) {
    const name = `${look.theme}-${look.width}`;
    const pages = [await open(browser, oldServer.url, look), await open(browser, newServer.url, look)];
    for (const page of pages) await steps(page);
    const [a, b] = await Promise.all(pages.map(canvases));
    report[`${name}: after steps`] = compare(a, b);
    await shoot(pages[1], name);
    // The theme switched and the width changed and back, then more steps: no layer may survive from before.
    const other = look.theme === 'light' ? 'dark' : 'light';
    const otherWidth = look.width < 500 ? 1280 : 360;
    for (const page of pages) {
      await page.evaluate((theme) => document.documentElement.setAttribute('data-theme', theme), other);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.setViewportSize({ width: otherWidth, height: 2000 });
      await page.waitForTimeout(300);
      await page.setViewportSize({ width: look.width, height: 2000 });
      await page.waitForTimeout(300);
      await steps(page);
    }
    const [c, d] = await Promise.all(pages.map(canvases));
    report[`${name}: then ${other} theme, resized to ${otherWidth} px and back, more steps`] = compare(c, d);
    await shoot(pages[1], `${name}-then-${other}`);
    for (const page of pages) await page.close();
  }
} finally {
  await browser.close();
  await Promise.all([oldServer.close(), newServer.close()]);
}
writeFileSync(join(values.out, 'pixels.json'), `${JSON.stringify(report, null, 2)}\n`);
for (const [phase, result] of Object.entries(report)) {
  console.log(phase);
  for (const [canvas, r] of Object.entries(result)) console.log(`  ${canvas}: ${JSON.stringify(r)}`);
}
