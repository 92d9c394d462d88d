// Build-time checks of the lesson's text and drawings: captions and "Reading it" paragraphs say
// what their charts show and agree with the engine, diagrams keep edges clear of boxes, symbols
// are decoded at first use, references read as sentences with no link set, formula boxes and
// prose tables are ready for phones before any script runs, and docs/engine.md's examples are right.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import { renderDiagramSvg } from '../../web/site-builder/diagrams.mjs';
import { FORMULA_LABEL, mathmlForCore, renderLesson } from '../../web/site-builder/render-lesson.mjs';
import { extractCppSnippets } from '../../web/site-builder/cpp-snippets.mjs';
import {
  computeEngineResults,
  LIVE_PARAMETERS,
  LIVE_QUANTITIES,
  liveText,
  PARAMETER_ECHOES,
  LIVE_CLAIMS,
} from '../../web/js/prose/live-values.js';
import { CHARTS } from '../../web/js/charts/index.js';
import { chartParts } from '../../web/site-builder/chart-parts.mjs';

const CHART_PARTS = await chartParts();
import { edgePoints, nodeBoxes } from './diagram-geometry.mjs';
import { loadEngine } from './engine-loader.mjs';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const lessonSource = read('web/lesson/lesson.md');
const diagrams = JSON.parse(read('web/lesson/diagrams.json'));
const configuredLinks = JSON.parse(read('web/site-config.json')).links;
const cppSnippets = extractCppSnippets(new URL('../../cpp/src', import.meta.url).pathname);
const render = (links) =>
  renderLesson(lessonSource, {
    diagrams,
    links,
    cppSnippets,
    liveQuantities: Object.keys(LIVE_QUANTITIES),
    charts: Object.keys(CHARTS),
    liveParameters: LIVE_PARAMETERS,
    parameterEchoes: PARAMETER_ECHOES,
    liveClaims: LIVE_CLAIMS,
    chartParts: CHART_PARTS,
  });
const noLinks = Object.fromEntries(Object.keys(configuredLinks).map((k) => [k, null]));
const allLinks = Object.fromEntries(Object.keys(configuredLinks).map((k) => [k, `https://course.example/${k}.html`]));

/** The lesson's prose split into paragraphs (blank-line separated), code fences left out. */
function paragraphs(markdown) {
  const out = [];
  let inFence = false;
  let current = [];
  for (const line of markdown.replace(/^<!--[\s\S]*?-->/, '').split('\n')) {
    if (line.startsWith('```')) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    // A container's own line (::: aside, ::: question …, :::) is not prose: it ends a paragraph.
    if (!line.trim() || /^:::/.test(line)) {
      if (current.length) out.push(current.join(' '));
      current = [];
    } else current.push(line.trim());
  }
  if (current.length) out.push(current.join(' '));
  return out;
}
const prose = paragraphs(lessonSource);

/** Each ```chart block: { id, caption, after } where after is the first paragraph that follows. */
function charts(markdown) {
  return [...markdown.matchAll(/^```chart ([a-z0-9-]+)\n([\s\S]*?)\n```\n\n((?:[^\n]+\n?)*)/gm)].map((m) => ({
    id: m[1],
    caption: m[2],
    after: m[3].replace(/\s+/g, ' '),
  }));
}

let engine;
let results;
before(async () => {
  engine = await loadEngine();
  results = computeEngineResults(engine);
});

describe('captions and reading text', () => {
  test('every chart is followed by a "Reading it" paragraph', () => {
    const found = charts(lessonSource);
    assert.ok(found.length >= 11, `found ${found.length} charts`);
    for (const { id, after } of found)
      assert.match(after, /^\*\*Reading it:\*\*/, `chart ${id} has no Reading it paragraph after it`);
  });

  test("the attention-weights caption describes the demo layer on the typed sentence, at the engine's width", () => {
    const { caption } = charts(lessonSource).find((c) => c.id === 'attention-weights');
    // The chart shows engine.demoAttention on any sentence, scheme and mask: nothing in the caption
    // may be true of the three-word worked example only.
    assert.doesNotMatch(caption, /worked example|three keys|\{\{live:attn\./);
    assert.match(caption, /demo layer/);
    assert.match(caption, /typed/);
    assert.match(caption, /reversed/);
    const width = Number(/(\d+)-number word vectors/.exec(caption)?.[1]);
    assert.equal(width, engine.wordVector('dog', width).length);
    assert.equal(engine.demoAttention('dog bites man', 'none', false).outputs?.cols ?? width, width);
  });

  test('walkthrough step 2 names the d of its dot products, and the printed values fit that d', () => {
    const step = prose.find((p) => p.includes('PE(10)·PE(13)'));
    const d = Number(/d = (\d+)/.exec(step)?.[1]);
    assert.ok(d > 4, `step 2 must name the code width of its dot products, got: ${step}`);
    // Two sinusoidal codes of width d have d/2 (sin, cos) pairs, each contributing at most 1.
    for (const [name, a, b] of [
      ['sin.dot-10-13', 10, 13],
      ['sin.dot-70-73', 70, 73],
    ]) {
      assert.ok(step.includes(`{{live:${name}}}`));
      const shown = Number(liveText(name, results).replace('−', '-'));
      const expected = engine.sinusoidalDot(a, b, d);
      // fixed4: the page prints 4 decimals, so it agrees to half a unit in the last place.
      assert.ok(
        Math.abs(shown - expected) <= 0.5e-4 + 1e-12,
        `${name}: page ${shown}, engine at d = ${d}: ${expected}`,
      );
      assert.ok(Math.abs(shown) <= d / 2);
    }
  });

  test('the precision chart says which error it plots, and the ALiBi caption names the bound it draws', () => {
    const precision = charts(lessonSource).find((c) => c.id === 'precision');
    assert.match(precision.caption, /float32/);
    assert.match(precision.caption, /float64/);
    // The engine's rotation_error: max(|cos_f32 − cos|, |sin_f32 − sin|) of the angle m·θ_i.
    assert.match(
      precision.after,
      /the larger of the gaps between the float32 and float64 cosines and between the sines/,
    );
    const alibi = charts(lessonSource).find((c) => c.id === 'alibi');
    assert.doesNotMatch(alibi.caption, /on average/);
    assert.match(alibi.caption, /RoFormer paper's bound/);
  });

  test('no reading text gives a drawing direction, since a diagram draws top to bottom on phones', () => {
    for (const m of lessonSource.matchAll(/^```diagram ([a-z0-9-]+)\n```\n\n([^\n]*(?:\n[^\n]+)*)/gm)) {
      assert.doesNotMatch(m[2], /left to right|right to left|top to bottom|bottom to top/i, `diagram ${m[1]}`);
    }
  });

  test('the opening says what is computed and explains the mark once, with an example', () => {
    const opening = prose.find((p) => p.startsWith('**How to open it.**'));
    assert.doesNotMatch(opening, /every number on this page/i);
    assert.match(opening, /faint tint, like this [^:]*: \{\{live:[a-z.-]+\}\}/);
    assert.match(opening, /quoted/);
    assert.equal(prose.filter((p) => /faint tint/.test(p)).length, 1, 'the mark is explained once');
  });
});

describe('symbols decoded at first use', () => {
  // symbol (as it first appears in prose) → words that decode it in that same paragraph. The
  // opening's list of the notation the primer teaches is a list, not a use.
  const DECODED = [
    [/128K/, /K for thousand/],
    [/800B/, /800 billion/],
    [/cosine similarity/, /1 when two vectors point the same way/],
    [/dot product/, /multiply matching numbers/],
    [/W_q/, /weight grids/],
    [/√2/, /square root/],
    [/softmax/i, /add\s+up to 1/],
    [/radian/, /unit of angle/],
    [/max_len/, /rows/],
    [/vocab\b/, /vocabulary/],
    [/θ_i|\\theta_i/, /turning speed/],
    [/token i\b/, /counting from 0/],
    [/float32/, /significant binary digits/],
    [/\bPI\b/, /position interpolation, PI/],
    [/raise e\b|\be\^/, /e ≈ 2\.718/],
  ];
  const uses = prose.filter((p) => !p.startsWith('New to the notation'));
  for (const [symbol, gloss] of DECODED) {
    test(symbol.source, () => {
      const first = uses.find((p) => symbol.test(p));
      assert.ok(first, `${symbol} does not appear`);
      assert.match(first, gloss, `${symbol} is not decoded where it first appears: ${first.slice(0, 200)}`);
    });
  }
});

describe('references with and without links', () => {
  const textOf = (html) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

  test('with no link configured every reference still reads as part of a sentence', () => {
    const lesson = render(noLinks);
    const html = lesson.headerHtml + lesson.bodyHtml;
    assert.doesNotMatch(html, /<a class="ref"/);
    // A reference alone in a list item or paragraph tail ("… built here. annotated companion") is
    // text that says nothing; link-only references leave no trace.
    assert.doesNotMatch(textOf(html), /annotated companion/);
    assert.doesNotMatch(textOf(html), /the course's/i);
    for (const m of html.matchAll(/([^.>]{0,40})<span class="ref"[^>]*>([^<]*)<\/span>([^<]{0,3})/g)) {
      assert.ok(m[1].trim().length > 0 || /^[A-Z]/.test(m[2]), `a reference stands alone: "${m[2]}"`);
    }
  });

  test('with links configured every reference, link-only ones too, is a link', () => {
    const lesson = render(allLinks);
    const html = lesson.headerHtml + lesson.bodyHtml;
    for (const id of Object.keys(allLinks)) {
      if (lessonSource.includes(`:${id}|`))
        assert.match(html, new RegExp(`<a class="ref" data-ref="${id.replace(/\./g, '\\.')}" href=`), id);
    }
    assert.match(textOf(html), /Read it with the annotated companion\./);
  });
});

describe('ready for phones before any script runs', () => {
  const lesson = render(configuredLinks);

  test('every display formula is a focusable, named box from the build', () => {
    const boxes = [...lesson.bodyHtml.matchAll(/<div class="math-display"([^>]*)>/g)].map((m) => m[1]);
    assert.equal(boxes.length, (lessonSource.match(/^\$\$$/gm) ?? []).length / 2);
    for (const attrs of boxes) {
      assert.match(attrs, /tabindex="0"/);
      assert.match(attrs, /role="group"/);
      assert.ok(attrs.includes(`aria-label="${FORMULA_LABEL}"`));
    }
  });

  test('each formula is one <math> and nothing around it, its row unwrapped only where it holds one element', () => {
    const math = (inner) =>
      `<span class="katex"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics>${inner}` +
      '<annotation encoding="application/x-tex">x</annotation></semantics></math></span>';
    const core = (inner) =>
      `<math class="katex" xmlns="http://www.w3.org/1998/Math/MathML"><semantics>${inner}` +
      '<annotation encoding="application/x-tex">x</annotation></semantics></math>';
    // One element in the row: the row goes.
    assert.equal(mathmlForCore(math('<mrow><mi>x</mi></mrow>')), core('<mi>x</mi>'));
    assert.equal(
      mathmlForCore(math('<mrow><msub><mi>x</mi><mrow><mn>2</mn><mi>i</mi></mrow></msub></mrow>')),
      core('<msub><mi>x</mi><mrow><mn>2</mn><mi>i</mi></mrow></msub>'),
    );
    assert.equal(mathmlForCore(math('<mrow><mspace width="1em"/></mrow>')), core('<mspace width="1em"/>'));
    // An operator, bare or with scripts, keeps its row (its spacing depends on it).
    assert.equal(mathmlForCore(math('<mrow><mo>+</mo></mrow>')), core('<mrow><mo>+</mo></mrow>'));
    assert.equal(
      mathmlForCore(math('<mrow><msub><mo>∑</mo><mi>i</mi></msub></mrow>')),
      core('<mrow><msub><mo>∑</mo><mi>i</mi></msub></mrow>'),
    );
    // Two elements (one of them empty or self-closing): the row stays.
    assert.equal(mathmlForCore(math('<mrow><mi>x</mi><mo>=</mo></mrow>')), core('<mrow><mi>x</mi><mo>=</mo></mrow>'));
    assert.equal(
      mathmlForCore(math('<mrow><mrow></mrow><mspace width="1em"/></mrow>')),
      core('<mrow><mrow></mrow><mspace width="1em"/></mrow>'),
    );
    // The built lesson: no wrapper around any formula, and every formula keeps its TeX.
    assert.doesNotMatch(lesson.bodyHtml, /<span class="katex">/);
    const formulas = lesson.bodyHtml.match(/<math class="katex"/g) ?? [];
    assert.ok(formulas.length > 50);
    assert.equal((lesson.bodyHtml.match(/<annotation encoding="application\/x-tex">/g) ?? []).length, formulas.length);
  });

  test('prose tables stack on phones, each cell labelled with its column; number grids do not', () => {
    const tables = [...lesson.bodyHtml.matchAll(/<div class="table-wrap([^"]*)"[^>]*><table>([\s\S]*?)<\/table>/g)];
    const options = tables.find((t) => t[2].includes('What it gives you'));
    assert.equal(options[1], ' table-stack');
    const headers = [...options[2].matchAll(/<th>([\s\S]*?)<\/th>/g)].map((m) => m[1]);
    const rows = [...options[2].matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1);
    assert.ok(rows.length >= 7);
    for (const row of rows)
      assert.deepEqual(
        [...row[1].matchAll(/<td data-label="([^"]*)"/g)].map((m) => m[1]),
        headers,
      );
    const grid = tables.find((t) => t[2].includes('sin(pos·1)'));
    assert.equal(grid[1], '');
  });

  test("the contents carry the headings' own numbers only", () => {
    // The contents are an <ol> whose markers base.css turns off; each entry's text is its heading.
    const entries = [...lesson.tocHtml.matchAll(/<a href="#[^"]+">([\s\S]*?)<\/a>/g)].map((m) => m[1]);
    assert.ok(entries.includes('4. Extending context after training'));
    assert.match(read('web/css/base.css'), /\.toc ol \{[^}]*list-style: none/);
  });
});

describe('diagrams', () => {
  for (const [id, spec] of Object.entries(diagrams).filter(([k]) => !k.startsWith('$'))) {
    test(`${id}: no edge runs through a box it does not join, in either direction`, () => {
      for (const direction of ['LR', 'TB']) {
        const svg = renderDiagramSvg(spec, direction, 't');
        const boxes = nodeBoxes(svg);
        const edges = edgePoints(svg);
        assert.equal(boxes.length, spec.nodes.length);
        assert.equal(edges.length, spec.edges.length);
        const index = new Map(spec.nodes.map((n, i) => [n.id, i]));
        spec.edges.forEach((edge, k) => {
          const ends = new Set([index.get(edge.from), index.get(edge.to)]);
          boxes.forEach((box, i) => {
            if (ends.has(i)) return;
            // 2 px: a line drawn at the edge of a box reads as touching it.
            const inside = edges[k].find(
              (p) => p.x > box.x0 - 2 && p.x < box.x1 + 2 && p.y > box.y0 - 2 && p.y < box.y1 + 2,
            );
            assert.equal(
              inside,
              undefined,
              `${direction}: ${edge.from} → ${edge.to} passes through ${spec.nodes[i].id}`,
            );
          });
        });
      }
    });
  }
});

describe('docs/engine.md', () => {
  test('the ntkScaledBase examples print what the engine returns', () => {
    const readme = read('docs/engine.md');
    const value = engine.ntkScaledBase(10000, 8, 128);
    const js = /ntkScaledBase\(10000, 8, 128\);\s*\/\/ ([\d.,]+)…/.exec(readme)?.[1];
    const cpp = /ntk_scaled_base\(10000, 8, 128\);\s*\/\/ ([\d.,]+)…/.exec(readme)?.[1];
    for (const shown of [js, cpp]) {
      assert.ok(shown, 'example not found');
      const digits = shown.replace(/,/g, '');
      // "…" means truncated: the engine's value starts with the digits shown.
      const decimals = digits.split('.')[1]?.length ?? 0;
      assert.equal(
        Math.trunc(value * 10 ** decimals) / 10 ** decimals,
        Number(digits),
        `docs/engine.md shows ${shown}, the engine returns ${value}`,
      );
    }
  });
});

// A text that counts its kinds names each of them: the self-test's introduction once said "Two
// kinds of question. The first kind…" and never named the second. In every language.
test('an enumeration of kinds names every kind it counts (the self-test introduction)', () => {
  const cases = [
    {
      file: 'web/lesson/lesson.md',
      count: /\bTwo kinds of question\b/,
      names: [/\bThe first kind\b/, /\bThe second\s+kind\b/],
    },
    { file: 'web/lesson/lesson.zh-Hans.md', count: /题目有两类/, names: [/第一类/, /第二类/] },
  ];
  for (const { file, count, names } of cases) {
    const section = read(file)
      .split(/\n## /)
      .find((s) => count.test(s));
    assert.ok(section, `${file}: the self-test introduction counts its kinds`);
    const paragraph = section.split(/\n\s*\n/).find((p) => count.test(p));
    for (const name of names) assert.match(paragraph, name, `${file}: the paragraph names ${name}`);
  }
});
