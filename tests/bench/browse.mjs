// The benchmark and screenshot scripts' shared plumbing: the built site served on 127.0.0.1, Debian's
// Chromium launched with the browser suites' flags, the screenshot scripts' arguments, and the loop over
// colour schemes and widths.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { LAUNCH, serveAndLaunch as serveWithBrowser } from '../browser/helpers.mjs';

/**
 * Serves `dist` on 127.0.0.1 (a random port) and launches Chromium: { server, browser, close() }.
 * `headed`: a window on the X display $DISPLAY (run under `xvfb-run -a`) instead of headless.
 */
export function serveAndLaunch(dist, { headed = false } = {}) {
  if (headed && !process.env.DISPLAY) throw new Error('headed: no X display in DISPLAY (run under xvfb-run -a)');
  return serveWithBrowser(dist, () => chromium.launch({ ...LAUNCH, headless: !headed }));
}

const repo = new URL('../../', import.meta.url).pathname;

/**
 * A screenshot script's arguments: `--dist` (default $POSITIONAL_DIST, else dist/), `--out` (default
 * `defaultOut` below the repository; made if missing) and the script's own `options` (parseArgs's form).
 * Returns every value, with dist and out as absolute paths.
 */
export function screenshotArgs(defaultOut, options = {}) {
  const { values } = parseArgs({ options: { dist: { type: 'string' }, out: { type: 'string' }, ...options } });
  const dist = resolve(values.dist ?? process.env.POSITIONAL_DIST ?? join(repo, 'dist'));
  const out = resolve(values.out ?? join(repo, defaultOut));
  mkdirSync(out, { recursive: true });
  return { ...values, dist, out };
}

/**
 * Waits until the page has loaded as a reader sees it: its live numbers in and every block laid out.
 * Until then, blocks above a figure still take their height, so a figure's box read earlier can be
 * where it no longer is by the time the screenshot is taken (a precision shot came out blank).
 */
export function pageSettled(page, timeout = 60000) {
  return page.waitForFunction(
    () => document.documentElement.dataset.liveState && !document.documentElement.classList.contains('is-loading'),
    null,
    { timeout },
  );
}

/** The looks every screenshot set covers: light and dark at a phone's and a desktop's width. */
export const LOOKS = ['light', 'dark'].flatMap((theme) => [360, 1280].map((width) => ({ theme, width })));

/** screenshotEachLook's options for screenshots of a page: a phone's or a desktop's screenful, at 1× pixels. */
export const PAGE_VIEWPORT = { viewport: (width) => ({ width, height: width < 600 ? 780 : 900 }), phoneScale: 1 };

/**
 * Opens a page for each look in LOOKS and runs `shoot(page, { theme, width, url })` on it (url: the
 * served site). `viewport(width)` gives the page size; phone widths render at 2× pixels unless
 * `phoneScale` is 1. Console and page errors are printed, and make the process exit non-zero.
 */
export async function screenshotEachLook(
  dist,
  shoot,
  { viewport = (width) => ({ width, height: 900 }), phoneScale = 2 } = {},
) {
  const site = await serveAndLaunch(dist);
  const problems = [];
  try {
    for (const { theme, width } of LOOKS) {
      const page = await site.browser.newPage({
        viewport: viewport(width),
        colorScheme: theme,
        deviceScaleFactor: width < 500 ? phoneScale : 1,
      });
      page.on('console', (m) => m.type() === 'error' && problems.push(`${theme} ${width}: ${m.text()}`));
      page.on('pageerror', (e) => problems.push(`${theme} ${width}: ${e.message}`));
      await shoot(page, { theme, width, url: site.server.url });
      await page.close();
    }
  } finally {
    await site.close();
  }
  if (problems.length) {
    console.log(problems.join('\n'));
    process.exitCode = 1;
  }
}
