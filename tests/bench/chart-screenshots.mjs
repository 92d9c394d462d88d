// Screenshots of every live chart, light and dark, at 360 and 1280 px wide, into
// build/screenshots/charts/ (gitignored) for a person to look at. Serves dist/ on 127.0.0.1.
//   node tests/bench/chart-screenshots.mjs [--dist dist] [--out build/screenshots/charts]
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { screenshotEachLook } from './browse.mjs';

const { values } = parseArgs({ options: { dist: { type: 'string' }, out: { type: 'string' } } });
const repo = new URL('../../', import.meta.url).pathname;
const dist = resolve(values.dist ?? process.env.POSITIONAL_DIST ?? join(repo, 'dist'));
const out = resolve(values.out ?? join(repo, 'build/screenshots/charts'));
mkdirSync(out, { recursive: true });

await screenshotEachLook(dist, async (page, { theme, width, url }) => {
  await page.goto(`${url}?charts=eager`);
  await page.waitForFunction(() => window.positionalCharts?.mounted.size > 0, null, { timeout: 30000 });
  await page.evaluate(() => window.positionalCharts.mountAll());
  const ids = await page.evaluate(() => [...window.positionalCharts.mounted.keys()]);
  for (const id of ids) {
    const slot = page.locator(`[data-chart="${id}"]`);
    await slot.scrollIntoViewIfNeeded();
    await page.waitForTimeout(60);
    await slot.screenshot({ path: join(out, `${id}-${theme}-${width}.png`) });
  }
});
console.log(`screenshots in ${out}`);
