// Screenshots of every live chart, light and dark, at 360 and 1280 px wide, into
// build/screenshots/charts/ (gitignored) for a person to look at. Serves dist/ on 127.0.0.1.
//   node tests/bench/chart-screenshots.mjs [--dist dist] [--out build/screenshots/charts]
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/build/serve.mjs';

const { values } = parseArgs({ options: { dist: { type: 'string' }, out: { type: 'string' } } });
const repo = new URL('../../', import.meta.url).pathname;
const dist = resolve(values.dist ?? process.env.POSITIONAL_DIST ?? join(repo, 'dist'));
const out = resolve(values.out ?? join(repo, 'build/screenshots/charts'));
mkdirSync(out, { recursive: true });

const server = await startServer({ root: dist, port: 0 });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const problems = [];
try {
  for (const theme of ['light', 'dark']) {
    for (const width of [360, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: theme, deviceScaleFactor: width < 500 ? 2 : 1 });
      page.on('console', (m) => m.type() === 'error' && problems.push(`${theme} ${width}: ${m.text()}`));
      page.on('pageerror', (e) => problems.push(`${theme} ${width}: ${e.message}`));
      await page.goto(`${server.url}?charts=eager`);
      await page.waitForFunction(() => window.positionalCharts?.mounted.size > 0, null, { timeout: 30000 });
      await page.evaluate(() => window.positionalCharts.mountAll());
      const ids = await page.evaluate(() => [...window.positionalCharts.mounted.keys()]);
      for (const id of ids) {
        const slot = page.locator(`[data-chart="${id}"]`);
        await slot.scrollIntoViewIfNeeded();
        await page.waitForTimeout(60);
        await slot.screenshot({ path: join(out, `${id}-${theme}-${width}.png`) });
      }
      await page.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`screenshots in ${out}`);
if (problems.length) {
  console.log(problems.join('\n'));
  process.exitCode = 1;
}
