#!/usr/bin/env node
// Saves PNGs of the built lesson at phone (360 px) and desktop (1280 px) widths, light and dark,
// into build/screenshots/ (gitignored) for a person to look at.
//   node tests/bench/screenshots.mjs [--dist dist] [--out build/screenshots] [--full] [--sections a,b,…]
//     [--page zh-Hans/index.html]   (a translation's page; its files are named lesson-zh-Hans-…)
import { join } from 'node:path';
import { PAGE_VIEWPORT, pageSettled, screenshotArgs, screenshotEachLook } from './browse.mjs';

const values = screenshotArgs('build/screenshots', {
  full: { type: 'boolean', default: false },
  page: { type: 'string', default: '' },
  sections: {
    type: 'string',
    default: 'top,your-options,the-problem,sinusoidal,rope,extending-context,walkthrough,self-test',
  },
});
const { out } = values;
const prefix = values.page ? `lesson-${values.page.split('/')[0]}` : 'lesson';
await screenshotEachLook(
  values.dist,
  async (page, { theme: scheme, width, url }) => {
    await page.goto(`${url}${values.page}`);
    await pageSettled(page);
    if (values.full) {
      const file = join(out, `${prefix}-${width}-${scheme}-full.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
    }
    for (const section of values.sections.split(',')) {
      // Scroll the section's heading under the sticky bar, then capture one screenful.
      await page.evaluate((id) => document.getElementById(id).scrollIntoView(), section);
      const file = join(out, `${prefix}-${width}-${scheme}-${section}.png`);
      await page.screenshot({ path: file });
      console.log(file);
    }
  },
  PAGE_VIEWPORT,
);
