// Screenshots of every live chart, light and dark, at 360 and 1280 px wide, into
// build/screenshots/charts/ (gitignored) for a person to look at. Serves dist/ on 127.0.0.1.
//   node tests/bench/chart-screenshots.mjs [--dist dist] [--out build/screenshots/charts] [--page zh-Hans/index.html]
import { join } from 'node:path';
import { pageSettled, screenshotArgs, screenshotEachLook } from './browse.mjs';

const values = screenshotArgs('build/screenshots/charts', { page: { type: 'string' } });
const { dist, out } = values;

await screenshotEachLook(
  dist,
  async (page, { theme, width, url }) => {
    await page.goto(`${url}${values.page ?? ''}?charts=eager`);
    await page.waitForFunction(() => window.positionalCharts?.mounted.size > 0, null, { timeout: 30000 });
    await page.evaluate(() => window.positionalCharts.mountAll());
    await pageSettled(page);
    const ids = await page.evaluate(() => [...window.positionalCharts.mounted.keys()]);
    for (const id of ids) {
      // Scrolled to by the page itself and cut from the viewport, which is tall enough for any figure:
      // Playwright's element screenshot (which waits for two frames with the same box) and full-page
      // captures of this 50,000 px page at 2× both stalled for 30 s at a time.
      const clip = await page.evaluate(async (chart) => {
        const slot = document.querySelector(`[data-chart="${chart}"]`);
        slot.scrollIntoView({ block: 'start' });
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const r = slot.getBoundingClientRect();
        return { x: r.left, y: r.top, width: r.width, height: r.height };
      }, id);
      await page.waitForTimeout(60);
      await page.screenshot({ path: join(out, `${id}-${theme}-${width}.png`), clip });
    }
  },
  { viewport: (width) => ({ width, height: 2000 }) },
);
console.log(`screenshots in ${out}`);
