// The benchmark and screenshot scripts' shared plumbing: the built site served on 127.0.0.1, Debian's
// Chromium launched with the browser suites' flags, and the loop over colour schemes and widths.
import { chromium } from 'playwright-core';
import { LAUNCH, serveAndLaunch as serveWithBrowser } from '../browser/helpers.mjs';

/** Serves `dist` on 127.0.0.1 (a random port) and launches Chromium: { server, browser, close() }. */
export function serveAndLaunch(dist) {
  return serveWithBrowser(dist, () => chromium.launch(LAUNCH));
}

/** The looks every screenshot set covers: light and dark at a phone's and a desktop's width. */
export const LOOKS = ['light', 'dark'].flatMap((theme) => [360, 1280].map((width) => ({ theme, width })));

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
