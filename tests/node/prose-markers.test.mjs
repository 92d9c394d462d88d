// The prose's live parameters and figure links at build time: render-lesson.mjs turns {{param:NAME}}
// into a slider holding the lesson's value and {{part:CHART/PART|TEXT}} into linked words, and
// refuses, naming it, a parameter LIVE_PARAMETERS lacks or a part the chart does not declare. The
// registry side: each parameter's dependents and the rules a moved value passes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { renderLesson } from '../../web/site-builder/render-lesson.mjs';
import { chartParts } from '../../web/site-builder/chart-parts.mjs';
import {
  dependentsOf,
  LIVE_PARAMETERS,
  LIVE_QUANTITIES,
  PARAMETER_ECHOES,
  LIVE_CLAIMS,
  parameterText,
  validateParameter,
} from '../../web/js/prose/live-values.js';
import { CHART_DECLARATIONS } from '../../web/js/charts/declarations.js';

const CHART_PARTS = await chartParts();
const known = {
  diagrams: {},
  links: {},
  cppSnippets: new Map(),
  liveQuantities: Object.keys(LIVE_QUANTITIES),
  charts: ['precision', 'context-extension'],
  liveParameters: LIVE_PARAMETERS,
  parameterEchoes: PARAMETER_ECHOES,
  liveClaims: LIVE_CLAIMS,
  chartParts: CHART_PARTS,
};
const lesson = (body) => `# A lesson {#top}\n\nIntro.\n\n## One {#one}\n\n${body}\n`;
const withChart = (body) => lesson(`${body}\n\n\`\`\`chart precision\nA caption.\n\`\`\``);
/** Asserts that rendering `markdown` with the registries above throws `expected` (a pattern or { message }). */
const assertRenderRefuses = (markdown, expected) => assert.throws(() => renderLesson(markdown, known), expected);

describe('prose markers at build time', () => {
  test('a parameter renders as a slider with the lesson value, its range and its label', () => {
    const { bodyHtml } = renderLesson(lesson('Trained on {{param:extension.trained}} tokens.'), known);
    const p = LIVE_PARAMETERS['extension.trained'];
    const handle = /<span class="param"[^>]*>([^<]*)<\/span>/.exec(bodyHtml);
    assert.ok(handle, bodyHtml);
    assert.equal(handle[1], '4,096');
    for (const attribute of [
      'role="slider"',
      'tabindex="0"',
      'data-param="extension.trained"',
      `aria-label="${p.label}"`,
      `aria-valuemin="${p.min}"`,
      `aria-valuemax="${p.max}"`,
      'aria-valuenow="4096"',
      'aria-valuetext="4,096 tokens"',
    ])
      assert.ok(handle[0].includes(attribute), `${attribute} in ${handle[0]}`);
  });

  // Markers the render refuses, each naming what is wrong: [the test's name, the lesson, the error it throws].
  const refusals = [
    [
      'an unknown parameter fails the render, naming it and where parameters live',
      lesson('{{param:extension.traned}} and {{param:extension.d}}'),
      {
        message:
          'lesson.md: unknown live parameter "extension.traned" (not in LIVE_PARAMETERS, web/js/prose/live-values.js)',
      },
    ],
    [
      'a parameter with text or a format is refused: it prints its own value',
      lesson('{{param:extension.d|128}}'),
      /\{\{param:extension\.d\|128\}\}: a parameter prints its own value/,
    ],
    [
      'a link to an unknown part fails the render, naming the part and the chart’s parts',
      withChart('{{part:precision/slow-pair|the slowest pair}}'),
      {
        message:
          'lesson.md: unknown part "slow-pair" of chart "precision" (its parts: fastest-pair, slowest-pair, position)',
      },
    ],
    [
      'a link to a chart the lesson does not place fails, naming it',
      withChart('{{part:alibi/head|the head}}'),
      /\{\{part:alibi\/head\}\} links to chart "alibi", which the lesson does not place/,
    ],
  ];
  for (const [name, markdown, expected] of refusals) test(name, () => assertRenderRefuses(markdown, expected));

  test('an echo repeats a parameter or a position derived from the reader’s, and an unknown one is named', () => {
    const { bodyHtml } = renderLesson(lesson('cos({{echo:rope.distance}}) at {{echo:rope.query-later}}'), known);
    assert.match(bodyHtml, /<span class="param-echo" data-echo="rope\.distance">4<\/span>/);
    assert.match(bodyHtml, /<span class="param-echo" data-echo="rope\.query-later">103<\/span>/);
    assertRenderRefuses(lesson('{{echo:rope.distanse}}'), {
      message: 'lesson.md: unknown echo "rope.distanse" (not in PARAMETER_ECHOES, web/js/prose/live-values.js)',
    });
  });

  test('a link to a declared part renders as a link to the figure naming the chart and part', () => {
    const { bodyHtml } = renderLesson(withChart('{{part:precision/slowest-pair|the slowest pair}} turns.'), known);
    assert.match(
      bodyHtml,
      /<a class="part-link" href="#fig-precision" data-part-chart="precision" data-part="slowest-pair">the slowest pair<\/a>/,
    );
  });

  test('a link without words, or without a part, is refused with the form it needs', () => {
    assertRenderRefuses(withChart('{{part:precision/slowest-pair}}'), /must read \{\{part:CHART\/PART\|TEXT\}\}/);
    assertRenderRefuses(withChart('{{part:precision|words}}'), /must read \{\{part:CHART\/PART\|TEXT\}\}/);
  });

  test('a lesson with parameters or links cannot be rendered without their registries', () => {
    const { liveParameters, parameterEchoes, chartParts: parts, ...rest } = known;
    assert.throws(
      () => renderLesson(lesson('{{param:extension.d}}'), { ...rest, chartParts: parts }),
      /pass liveParameters/,
    );
    assert.throws(
      () => renderLesson(withChart('{{part:precision/slowest-pair|it}}'), { ...rest, liveParameters }),
      /pass chartParts/,
    );
  });
});

describe('the parameter registry', () => {
  test('every quantity names only known parameters, and each parameter has dependents', () => {
    for (const [name, quantity] of Object.entries(LIVE_QUANTITIES))
      for (const input of quantity.inputs ?? []) assert.ok(LIVE_PARAMETERS[input], `${name} reads unknown ${input}`);
    for (const name of Object.keys(LIVE_PARAMETERS)) assert.ok(dependentsOf(name).length > 0, name);
    assert.throws(() => dependentsOf('extension.bsae'), /unknown live parameter "extension\.bsae"/);
  });

  test('a parameter tied to a chart control has that control’s range and rules', () => {
    for (const [name, p] of Object.entries(LIVE_PARAMETERS)) {
      if (!p.chart) continue;
      const control = CHART_DECLARATIONS[p.chart.id].controls[p.chart.key];
      assert.ok(control, `${name} → ${p.chart.id}.${p.chart.key}`);
      assert.equal(p.min, control.min, name);
      assert.equal(p.max, control.max, name);
      assert.equal(p.even, control.even ?? false, name);
      assert.equal(p.above, control.above, name);
      assert.ok(p.value >= p.min && p.value <= p.max, `${name}: the lesson's value is in range`);
    }
  });

  test('values are clamped, rounded and made even by the engine’s rules, each saying why', () => {
    // [validateParameter's arguments, the value it gives, why]
    const cases = [
      [['extension.d', 129], 130, 'Head width d must be even (dimensions come in pairs); using 130.'],
      [['extension.d', 1000], 512, 'Head width d is at most 512; using 512.'],
      [['extension.trained', 4096.6], 4097, 'Trained length must be a whole number; rounded to 4,097.'],
      [['extension.trained', 4], 16, 'Trained length must be at least 16; using 16.'],
      [['extension.base', 1, 20000], 20000, 'RoPE base must be greater than 1; kept 20,000.'],
      [['extension.scale', 'x', 8], 8, 'Stretch factor s must be a number; kept 8.'],
      [['rope.query', 3], 3, ''],
      // Positions in a sequence start at 0.
      [['rope.query', -3], 0, 'Query position m must be at least 0; using 0.'],
    ];
    for (const [args, value, why] of cases)
      assert.deepEqual(validateParameter(...args), { value, why }, args.join(' '));
    assert.equal(parameterText('extension.target', 65536), '65,536');
  });
});
