// Every translation of the lesson (web/lesson/lesson.<lang>.md) carries the English lesson's live
// numbers, references, charts, diagrams, snippets, formulas, graded items and sections, in the same
// order, and renders through the page's own renderer (known markers only, KaTeX without errors).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { renderLesson } from '../../web/site-builder/render-lesson.mjs';
import { extractCppSnippets } from '../../web/site-builder/cpp-snippets.mjs';
import { LIVE_CLAIMS, LIVE_PARAMETERS, LIVE_QUANTITIES, PARAMETER_ECHOES } from '../../web/js/prose/live-values.js';
import { CHARTS } from '../../web/js/charts/index.js';
import { chartParts } from '../../web/site-builder/chart-parts.mjs';
import { lessonLanguages } from '../../web/site-builder/build-site.mjs';
import {
  compareInventories,
  compareRendered,
  lessonInventory,
  proseNumbers,
  renderedInventory,
} from '../../web/i18n/lesson-inventory.mjs';

const LESSON_DIR = new URL('../../web/lesson/', import.meta.url);
const read = (name) => readFileSync(new URL(name, LESSON_DIR), 'utf8');
const english = read('lesson.md');
const translations = readdirSync(LESSON_DIR)
  .map((file) => /^lesson\.([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*)\.md$/.exec(file))
  .filter(Boolean)
  .map(([file, lang]) => ({ file, lang, markdown: read(file) }));

const options = {
  diagrams: JSON.parse(read('diagrams.json')),
  links: JSON.parse(readFileSync(new URL('../../web/site-config.json', import.meta.url), 'utf8')).links,
  cppSnippets: extractCppSnippets(new URL('../../cpp/src', import.meta.url).pathname),
  liveQuantities: Object.keys(LIVE_QUANTITIES),
  charts: Object.keys(CHARTS),
  liveParameters: LIVE_PARAMETERS,
  parameterEchoes: PARAMETER_ECHOES,
  liveClaims: LIVE_CLAIMS,
  chartParts: await chartParts(),
};
const renderedEnglish = renderLesson(english, options);
const explorable = (lesson) => renderedInventory(`${lesson.headerHtml}${lesson.bodyHtml}`);

/** What the renderer reports about a lesson's structure, for comparing two languages. */
const structure = (lesson) => ({
  liveNames: [...lesson.liveNames],
  chartIds: lesson.chartIds,
  diagramIds: lesson.diagramIds,
  snippetIds: lesson.snippetIds,
  headings: lesson.headings.map(({ id, level, dataLevel }) => `h${level}#${id} (level ${dataLevel})`),
  questionCount: lesson.questionCount,
  walkthroughSteps: lesson.walkthroughSteps,
});

/** The page's visible text outside code and maths: what a reader sees of the prose. */
const visibleProse = (html) =>
  html.replace(/<(code|pre|svg|math|annotation)\b[\s\S]*?<\/\1>/g, ' ').replace(/<[^>]+>/g, ' ');

/**
 * Quoted (not computed) figures a translation writes in its own units, by language: number → why.
 * Everything else typed in a translation's prose must be typed in the English too.
 */
const QUOTED_CONVERSIONS = {
  'zh-Hans': {
    1.24: "GPT-2's 124 million parameters, written 1.24 亿",
    '8,000': "Llama 3's 800B training tokens, written 8,000 亿（800B）",
  },
};

const CJK = '\\u3000-\\u303f\\u3400-\\u9fff\\uff00-\\uffef';

describe('lesson translations', () => {
  test('there is at least one translation to check', () => {
    assert.ok(translations.length > 0, 'no web/lesson/lesson.<lang>.md found');
  });

  for (const { file, lang, markdown } of translations) {
    describe(file, () => {
      test('carries the same markers, figures, snippets, formulas and sections as lesson.md, in order', () => {
        const problems = compareInventories(lessonInventory(english), lessonInventory(markdown));
        assert.deepEqual(problems, [], `${file} differs from lesson.md:\n  ${problems.join('\n  ')}`);
      });

      test('renders through render-lesson.mjs with the same structure as the English', () => {
        const lesson = renderLesson(markdown, options);
        assert.ok(lesson.title.trim(), `${file}: the page needs a title`);
        assert.ok(lesson.summaryText.trim(), `${file}: the first paragraph is the page's summary`);
        assert.deepEqual(structure(lesson), structure(renderedEnglish));
        assert.deepEqual(lesson.katexErrors, []);
        assert.deepEqual(lesson.missingSnippets, []);
      });

      test('lets the reader explore what the English does: the same live numbers, handles, echoes and links, section by section', () => {
        const englishItems = explorable(renderedEnglish);
        const problems = compareRendered(englishItems, explorable(renderLesson(markdown, options)));
        const counts = {};
        for (const { key } of englishItems) counts[key.split(':')[0]] = (counts[key.split(':')[0]] ?? 0) + 1;
        const summary = Object.entries(counts).map(([kind, n]) => `${n} ${kind}`);
        assert.deepEqual(
          problems,
          [],
          `${file}'s page differs from the English one (which has ${summary.join(', ')}):\n  ${problems.join('\n  ')}`,
        );
      });

      test('types no number the English does not type (computed numbers come from markers)', () => {
        const englishNumbers = proseNumbers(english);
        const allowed = QUOTED_CONVERSIONS[lang] ?? {};
        const typed = [...proseNumbers(markdown)].filter((n) => !englishNumbers.has(n) && !(n in allowed));
        assert.deepEqual(typed, [], `${file}: numbers typed in the prose that lesson.md does not have`);
      });

      test('no markdown syntax is left in the rendered text', () => {
        const lesson = renderLesson(markdown, options);
        const text = visibleProse(`${lesson.headerHtml}${lesson.bodyHtml}`);
        // In CJK text "**标签：**后文" and "*一致。*后文" are not closed by markdown's rules and show their asterisks.
        const leftovers = [...text.matchAll(/.{0,24}(\*|\{\{|\}\}|:::|\]\(|\$).{0,24}/g)].map((m) => m[0].trim());
        assert.deepEqual(leftovers, [], `${file}: markdown shown as text`);
      });

      if (/^(zh|ja)\b/.test(lang)) {
        test('paragraphs do not break a line between two CJK characters (the browser shows a space)', () => {
          const lines = markdown.split('\n');
          const broken = [];
          let inFence = false;
          for (let i = 0; i + 1 < lines.length; i++) {
            if (lines[i].startsWith('```')) inFence = !inFence;
            // Headings, containers, table rows and HTML end their line; only paragraph text continues.
            if (inFence || /^(<|#|:::|\|)/.test(lines[i]) || /^(:::|\||[-*] )/.test(lines[i + 1])) continue;
            if (new RegExp(`[${CJK}]$`).test(lines[i]) && new RegExp(`^[${CJK}]`).test(lines[i + 1])) {
              broken.push(`line ${i + 1}: …${lines[i].slice(-12)}⏎${lines[i + 1].slice(0, 12)}…`);
            }
          }
          assert.deepEqual(broken, [], `${file}: join these lines`);
        });
      }
    });
  }

  describe('the comparison itself', () => {
    const source = lessonInventory(english);
    const compare = (edited) => compareInventories(source, lessonInventory(edited));

    test('the English agrees with itself', () => {
      assert.deepEqual(compare(english), []);
    });

    test('a deleted live number is named with its section', () => {
      const edited = english.replace('{{live:ntk.slowest-after}}', '0.0000144');
      assert.deepEqual(compare(edited), ['numbers: missing "live:ntk.slowest-after" (#extending-context)']);
    });

    test('a changed number format is a missing and an extra entry', () => {
      const edited = english.replace('{{live:order.causal|fixed2}}', '{{live:order.causal}}');
      assert.deepEqual(compare(edited), [
        'numbers: missing "live:order.causal|fixed2" (#the-problem)',
        'numbers: extra "live:order.causal" (#the-problem)',
      ]);
    });

    test('two charts in swapped order are reported as an order difference', () => {
      const a = '```chart rope-relative\n';
      const b = '```chart rope-frequencies\n';
      const edited = english.replace(a, '@@A@@').replace(b, a).replace('@@A@@', b);
      const problems = compare(edited);
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0], /^charts: order differs at #\d+: the source has "rope-relative"/);
    });

    test('a renamed section, a dropped formula and an edited snippet are each named', () => {
      const edited = english
        .replace('{#causal-mask}', '{#causal}')
        .replace('$$\nx_{pos} = E_{token} + P_{pos}\n$$\n', '')
        .replace('pos * L_train / L_new  # → 4000.0', 'pos * L_train // L_new  # → 4000');
      const problems = compare(edited);
      assert.ok(problems.includes('sections: missing "h3#causal-mask" (#causal-mask)'), problems.join('\n'));
      assert.ok(problems.includes('sections: extra "h3#causal" (#causal)'), problems.join('\n'));
      assert.ok(
        problems.includes('displayMaths: missing "x_{pos} = E_{token} + P_{pos}" (#learned)'),
        problems.join('\n'),
      );
      assert.ok(
        problems.some((p) => p.startsWith('snippetCode: missing') && p.endsWith('(#extending-context)')),
        problems.join('\n'),
      );
    });

    test('a dropped figure link, an echo typed as its number and a handle moved to another section are named', () => {
      const edited = english
        .replace('{{part:rope-frequencies/fastest-pair|Pair 0}}', 'Pair 0')
        .replace('cos({{echo:rope.distance}})', 'cos(4)')
        .replace("| $m$ | the token's position | {{param:rope.query}} |", "| $m$ | the token's position | 3 |")
        .replace('**In words:** "the input vector', '**In words:** {{param:rope.query}} "the input vector');
      assert.deepEqual(compare(edited).sort(), [
        'echoes: missing "rope.distance" (#rope)',
        'parameters: extra "rope.query" (#learned)',
        'parameters: missing "rope.query" (#rope)',
        'partLinks: missing "rope-frequencies/fastest-pair" (#rope)',
      ]);
    });

    test('the rendered comparison names a figure link and a handle the translation lacks', () => {
      const englishItems = explorable(renderedEnglish);
      const edited = english
        .replace('{{part:context-extension/target|the target length}}', 'the target length')
        .replace(
          'Put {{part:rope-relative/query|the query}} at position {{param:rope.query}}',
          'Put the query at position 3',
        );
      assert.deepEqual(compareRendered(englishItems, explorable(renderLesson(edited, options))).sort(), [
        'missing "link:#fig-context-extension/target" (#extending-context)',
        'missing "link:#fig-rope-relative/query" (#rope)',
        'missing "param:rope.query" (#rope)',
      ]);
    });

    test('a computed number typed in place of its marker is caught', () => {
      const [first] = translations;
      const edited = first.markdown.replace('{{live:ntk.base}}', '82,685');
      const englishNumbers = proseNumbers(english);
      assert.ok(!englishNumbers.has('82,685'), 'the English types 82,685 nowhere');
      assert.ok(proseNumbers(edited).has('82,685'));
    });

    test('a mistyped marker in a translation fails the render, naming it', () => {
      const [first] = translations;
      const edited = first.markdown.replace('{{live:ntk.base}}', '{{live:ntk.bsae}}');
      assert.throws(() => renderLesson(edited, options), /unknown live number "ntk\.bsae"/);
    });
  });
});

describe('each language page has its interface strings', () => {
  const I18N = new URL('../../web/i18n/', import.meta.url);
  const strings = (code) => JSON.parse(readFileSync(new URL(`page.${code}.json`, I18N), 'utf8'));
  const keys = Object.keys(strings('en')).sort();

  test('the site build finds English and every translation, each with its page strings', () => {
    const codes = lessonLanguages().map((l) => l.code);
    assert.deepEqual(codes, ['en', ...translations.map((t) => t.lang)]);
  });

  for (const { lang: code } of translations) {
    test(`web/i18n/page.${code}.json: every key web/i18n/page.en.json has, none empty, none left in English`, () => {
      const own = strings(code);
      assert.deepEqual(Object.keys(own).sort(), keys);
      for (const key of keys) {
        assert.ok(own[key].trim(), `${key} is empty`);
        if (key !== 'name') assert.notEqual(own[key], strings('en')[key], `${key} is the English text`);
      }
    });
  }
});
