#!/usr/bin/env node
// Saves PNGs of the lesson's plain pages (instructor guide, accessibility statement, third-party
// notices) at phone (360 px) and desktop (1280 px) widths, light and dark, into build/screenshots/.
//   node tests/bench/info-page-screenshots.mjs [--dist dist] [--out build/screenshots] [--full]
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { screenshotEachLook } from './browse.mjs';
import { INFO_PAGES } from '../../web/site-builder/info-pages.mjs';

const repo = new URL('../../', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: process.env.POSITIONAL_DIST ?? join(repo, 'dist') },
    out: { type: 'string', default: join(repo, 'build', 'screenshots') },
    full: { type: 'boolean', default: false },
  },
});
const out = resolve(values.out);
mkdirSync(out, { recursive: true });
await screenshotEachLook(
  values.dist,
  async (page, { theme, width, url }) => {
    for (const { file } of Object.values(INFO_PAGES)) {
      await page.goto(`${url}${file}`);
      const shot = join(out, `${file.replace(/\.html$/, '')}-${width}-${theme}.png`);
      await page.screenshot({ path: shot, fullPage: values.full });
      console.log(shot);
    }
  },
  { viewport: (width) => ({ width, height: width < 600 ? 780 : 900 }), phoneScale: 1 },
);
