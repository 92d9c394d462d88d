// The lesson renderer refuses names the page does not know: a {{live:…}} number missing from
// web/js/prose/live-values.js, a ```chart fence missing from web/js/charts/index.js, a ```diagram fence
// missing from web/lesson/diagrams.json. The real lesson renders with the real registries.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { buildLesson } from '../../web/site-builder/build-site.mjs';
import { renderLesson } from '../../web/site-builder/render-lesson.mjs';
import { LIVE_QUANTITIES } from '../../web/js/prose/live-values.js';
import { CHARTS } from '../../web/js/charts/index.js';
import { SELF_TEST_ITEMS } from '../../web/js/self-test/self-test-items.js';

const known = {
  diagrams: { 'causal-mask': { kind: 'mask', size: 3 } },
  links: {},
  cppSnippets: new Map(),
  liveQuantities: ['ntk.base'],
  charts: ['alibi'],
};
const lesson = (body) => `# A lesson {#top}\n\nIntro.\n\n## One {#one}\n\n${body}\n`;

describe('lesson names checked at build time', () => {
  test('known live numbers and charts render as slots', () => {
    const { bodyHtml, liveNames, chartIds } = renderLesson(
      lesson('The base is {{live:ntk.base}}.\n\n```chart alibi\nA caption.\n```'),
      known,
    );
    assert.match(bodyHtml, /<span class="live" data-live="ntk\.base">/);
    assert.match(bodyHtml, /data-chart="alibi"/);
    assert.deepEqual([...liveNames], ['ntk.base']);
    assert.deepEqual(chartIds, ['alibi']);
  });

  test('an unknown live number fails with its name and where names live', () => {
    assert.throws(() => renderLesson(lesson('The base is {{live:ntk.bsae}}, {{live:ntk.base}}.'), known), {
      message: 'lesson.md: unknown live number "ntk.bsae" (not in LIVE_QUANTITIES, web/js/prose/live-values.js)',
    });
  });

  test('an unknown derived number fails the same way', () => {
    assert.throws(() => renderLesson(lesson('{{derived:gpt2.params}}'), known), /unknown live number "gpt2\.params"/);
  });

  test('an unknown chart fails with its id', () => {
    assert.throws(() => renderLesson(lesson('```chart alibj\nA caption.\n```'), known), {
      message: 'lesson.md: unknown chart "alibj" (not in CHARTS, web/js/charts/index.js)',
    });
  });

  test('every unknown name is listed at once', () => {
    assert.throws(() => renderLesson(lesson('{{live:a}} {{live:b}}\n\n```chart c\nCaption.\n```'), known), {
      message: /"a".*; unknown live number "b".*; unknown chart "c"/,
    });
  });

  test('an unknown diagram fails with its id', () => {
    assert.throws(() => renderLesson(lesson('```diagram causal-mask-2\n```'), known), {
      message: 'lesson.md: diagram causal-mask-2 is not described in diagrams.json',
    });
  });

  test('rendering without the registries is refused rather than left unchecked', () => {
    const { liveQuantities, charts, ...rest } = known;
    assert.throws(() => renderLesson(lesson('Text.'), rest), /pass liveQuantities .* and charts/);
  });

  test('the real lesson uses only registered live numbers and charts, and every registered one', () => {
    const { lesson: real } = buildLesson();
    const registered = new Set(Object.keys(LIVE_QUANTITIES));
    for (const name of real.liveNames) assert.ok(registered.has(name), name);
    assert.deepEqual(new Set(real.chartIds), new Set(Object.keys(CHARTS)));
    // A registered number neither a marker nor a self-test reveal ({ live: name }) uses is dead code in the page.
    const inSelfTest = new Set();
    const walk = (value) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        if (typeof value.live === 'string') inSelfTest.add(value.live);
        Object.values(value).forEach(walk);
      }
    };
    walk(SELF_TEST_ITEMS);
    for (const name of inSelfTest) assert.ok(registered.has(name), `the self-test's ${name}`);
    assert.deepEqual(
      [...registered].filter((name) => !real.liveNames.has(name) && !inSelfTest.has(name)),
      [],
    );
  });
});
