// The dark palettes, written once in web/css as the theme switch's rule: the build gives a dark
// system the same declarations wherever the reader has not chosen light.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { withSystemDarkTheme } from '../../web/site-builder/dark-theme.mjs';
import { distDir as dist } from './engine-loader.mjs';

const SYSTEM_DARK = /@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme='light'\]\) \{([^{}]*)\}/g;
const CHOSEN_DARK = /^:root\[data-theme='dark'\] \{([^{}]*)\}/gm;
/** The declarations of each rule `pattern` finds in `css`, white space folded. */
const declarations = (css, pattern) => [...css.matchAll(pattern)].map(([, body]) => body.replace(/\s+/g, ' ').trim());

test('withSystemDarkTheme puts the chosen dark declarations under the system dark scheme, in front', () => {
  const chosen = ":root[data-theme='dark'] {\n  color-scheme: dark;\n  --bg: #000;\n}\n";
  assert.equal(
    withSystemDarkTheme(`:root {\n  --bg: #fff;\n}\n${chosen}`),
    `:root {\n  --bg: #fff;\n}\n@media (prefers-color-scheme: dark) {\n  :root:not([data-theme='light']) {\n    color-scheme: dark;\n    --bg: #000;\n  }\n}\n\n${chosen}`,
  );
});

test('the site stylesheet gives a dark system each dark palette the theme switch gives', () => {
  const css = readFileSync(join(dist, 'css', 'site.css'), 'utf8');
  const chosen = declarations(css, CHOSEN_DARK);
  assert.equal(chosen.length, 2, 'the dark palettes of base.css and charts.css');
  assert.deepEqual(declarations(css, SYSTEM_DARK), chosen);
});
