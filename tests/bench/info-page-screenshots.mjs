#!/usr/bin/env node
// Saves PNGs of the lesson's plain pages (instructor guide, accessibility statement, third-party
// notices) at phone (360 px) and desktop (1280 px) widths, light and dark, into build/screenshots/.
//   node tests/bench/info-page-screenshots.mjs [--dist dist] [--out build/screenshots] [--full]
import { join } from 'node:path';
import { PAGE_VIEWPORT, screenshotArgs, screenshotEachLook } from './browse.mjs';
import { INFO_PAGES } from '../../web/site-builder/info-pages.mjs';

const { dist, out, full } = screenshotArgs('build/screenshots', { full: { type: 'boolean', default: false } });
await screenshotEachLook(
  dist,
  async (page, { theme, width, url }) => {
    for (const { file } of Object.values(INFO_PAGES)) {
      await page.goto(`${url}${file}`);
      const shot = join(out, `${file.replace(/\.html$/, '')}-${width}-${theme}.png`);
      await page.screenshot({ path: shot, fullPage: full });
      console.log(shot);
    }
  },
  PAGE_VIEWPORT,
);
