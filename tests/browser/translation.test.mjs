// Each translated page reads in its language: with every chart mounted, every disclosure open and
// the model card read, no Latin word is left in the page's text, its accessible names and values,
// or the text the charts draw on their canvases, outside code, maths, names, units and the English
// glosses a translation gives in parentheses at a term's first use.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lessonLanguages } from '../../web/site-builder/build-site.mjs';
import { mountAllCharts, openPage, startSite, twoFrames } from './helpers.mjs';

// Names, abbreviations and units a translation keeps as they are (the glossary's "not translated").
const KEPT = new Set(
  `RoPE ALiBi YaRN NTK NoPE PI GPT BERT Llama LLaMA Mistral Qwen Gemma Phi DeepSeek Falcon Hugging Face
   RoFormer Transformer XL T5 xPos LongRoPE TinyGPT JSON CSV PNG SVG URL HTML CSS JavaScript WebAssembly Wasm
   C++ Eigen Python NumPy numpy float float16 float32 float64 bfloat16 fp16 bf16 FP16 BF16 KaTeX Embind SCORM
   cmi5 xAPI LMS API MathML PDF ID id GitHub MIT vLLM GGUF llama.cpp Ollama Meta iRoPE Jamba Mamba MiniMax
   Gated DeltaNet CoPE PaTH FoPE DroPE SSMax RNoPE-SWA SWA StreamingLLM OLMo gpt-oss Flip-Flop Nakanishi
   softmax Softmax sin cos exp log ln max min argmax cosine PE pos len logits factor
   Enter Page Up Down Home End Shift Tab Ctrl Esc Space
   dog bites man cat chased the mat sat on The ran Birds`.split(/\s+/),
);

// The model presets' names (web/presets/index.json labels; their notes are translated).
const PRESETS = JSON.parse(readFileSync(new URL('../../web/presets/index.json', import.meta.url), 'utf8')).presets;
for (const { label } of PRESETS) for (const word of label.split(/[\s()]+/)) KEPT.add(word);

/** The Latin words in `text` a reader of a translated page would see as untranslated. */
export function untranslatedWords(text) {
  const stripped = text
    // An English gloss after a term, in full-width parentheses (which may close in the next text
    // node, after a code span): 位置编码（positional encoding）, 位置插值（position interpolation，PI）.
    .replace(/（[^（）]*(）|$)/g, (gloss) => gloss.replace(/[A-Za-z][A-Za-z\s'’.-]*/g, ''))
    // Authors cited: Liu 等人 (et al.).
    .replace(/[A-Z][a-z]+ 等人/g, ' ')
    // Identifiers: config fields (rope_theta), camelCase, file names, URL parameters, dotted names.
    .replace(/[\w.-]*[_/.=][\w./=-]*/g, ' ')
    .replace(/\b[a-z]+[A-Z]\w*/g, ' ');
  // Words of two or more letters; one with a digit is a name or a value (DeepSeek-V3, llama3, 2i+1).
  return (stripped.match(/[A-Za-z][\w'’+-]*[\w]/g) ?? []).filter(
    (word) => !/\d/.test(word) && !KEPT.has(word) && !KEPT.has(word.replace(/[’']s$/, '')),
  );
}

/**
 * In the page: every text node and every text an assistive technology announces (aria-label,
 * aria-valuetext, title, placeholder, alt, a button's value), outside code, maths and the parts
 * marked as another language, with where it is; and what the canvases drew (recorded by the init
 * script below).
 */
function pageTexts() {
  // Not read: code, maths, parts marked as another language, and the works the lesson cites (their
  // titles are names, in the two reading lists).
  const skip =
    'code, pre, kbd, samp, script, style, .katex, math, [translate="no"], [lang]:not([lang^="zh"]):not(html), #papers li, #further-reading li';
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement)
      parts.unshift(
        e.id
          ? `#${e.id}`
          : e.className && typeof e.className === 'string'
            ? `${e.localName}.${e.className.split(' ')[0]}`
            : e.localName,
      );
    return parts.join(' > ');
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest(skip)) continue;
    // A work's title, set in italics with no Chinese in it ("Lost in the Middle").
    if (el.closest('em, cite') && !/[\u3400-\u9fff]/.test(el.closest('em, cite').textContent)) continue;
    out.push([where(el), node.textContent]);
  }
  for (const el of document.querySelectorAll(
    '[aria-label], [aria-valuetext], [title], [placeholder], [alt], input[type="button"]',
  )) {
    if (el.closest(skip)) continue;
    for (const attribute of ['aria-label', 'aria-valuetext', 'title', 'placeholder', 'alt'])
      if (el.getAttribute(attribute)) out.push([`${where(el)} @${attribute}`, el.getAttribute(attribute)]);
  }
  out.push(['<title>', document.title]);
  for (const text of window.__canvasTexts ?? []) out.push(['canvas', text]);
  return out;
}

function recordCanvasText() {
  window.__canvasTexts = new Set();
  for (const method of ['fillText', 'strokeText']) {
    const draw = CanvasRenderingContext2D.prototype[method];
    CanvasRenderingContext2D.prototype[method] = function recorded(text, ...rest) {
      window.__canvasTexts.add(String(text));
      return draw.call(this, text, ...rest);
    };
  }
}

let site;
before(async () => {
  site = await startSite();
});
after(async () => site?.close());

test('untranslatedWords: keeps names, glosses and identifiers, finds English words', () => {
  assert.deepEqual(untranslatedWords('旋转位置编码 RoPE（rotary position embedding）在 rope_theta 下'), []);
  assert.deepEqual(untranslatedWords('头 3 of 8'), ['of']);
  assert.deepEqual(untranslatedWords('Download CSV'), ['Download']);
});

for (const language of lessonLanguages().filter((l) => l.code !== 'en')) {
  describe(`dist/${language.dir}/index.html reads in ${language.code}`, () => {
    test('no Latin word outside code, maths, names, units and glosses, in the text, the names or the charts', async () => {
      // The page paints its own canvases here (?paint=page), where its fillText calls can be recorded; the
      // chart Worker paints the same pixels (charts.test.mjs compares them, in every language).
      const { page, context, problems } = await openPage(
        site.browser,
        `${site.server.url}${language.dir}/index.html?paint=page`,
        {
          viewport: { width: 1280, height: 900 },
          setup: (p) => p.addInitScript(recordCanvasText),
        },
      );
      await mountAllCharts(page);
      // Every chart drew (a chart that failed shows a message, which would pass for text).
      const states = await page.evaluate(() =>
        [...document.querySelectorAll('[data-chart]')].map(
          (slot) => `${slot.dataset.chart}: ${slot.dataset.chartState}`,
        ),
      );
      assert.deepEqual(
        states.filter((s) => !s.endsWith(': mounted')),
        [],
      );
      assert.ok(states.length >= 11, states.join(', '));
      await page.evaluate(() => document.querySelectorAll('details:not([open])').forEach((d) => (d.open = true)));
      await twoFrames(page);
      // The canvases' words were seen (the recorder ran): every chart draws titles, axes and legends.
      const drawn = await page.evaluate(() => window.__canvasTexts.size);
      assert.ok(drawn > 100, `only ${drawn} texts recorded from the canvases`);
      const left = (await page.evaluate(pageTexts))
        .map(([where, text]) => [where, text, untranslatedWords(text)])
        .filter(([, , words]) => words.length)
        .map(([where, text, words]) => `${where}: ${words.join(' ')} ← ${JSON.stringify(text.trim().slice(0, 120))}`);
      assert.deepEqual(left, [], `${left.length} texts with English words`);
      assert.deepEqual(problems, []);
      await context.close();
    });

    test('every handle of the prose moves the same numbers and echoes as the English one, and resets', async () => {
      const open = (dir) =>
        openPage(site.browser, `${site.server.url}${dir}`, { viewport: { width: 1280, height: 900 } });
      const pages = { en: await open(''), [language.code]: await open(`${language.dir}/index.html`) };
      /** The first handle of each name in each section, and what its section shows: live numbers, handles, echoes. */
      const handlesOf = (page) =>
        page.evaluate(() => {
          const seen = new Set();
          for (const h of document.querySelectorAll('[data-param]')) {
            const key = `${h.closest('section').id} ${h.dataset.param}`;
            if (seen.has(key)) continue;
            seen.add(key);
            h.dataset.qaFirst = key;
          }
          // A sentence may name them in another order: the same set is what counts.
          return [...seen].sort();
        });
      const shown = (page, key) =>
        page.evaluate((k) => {
          const section = document.querySelector(`[data-qa-first="${k}"]`).closest('section');
          return [...section.querySelectorAll('[data-live], [data-param], [data-echo]')]
            .map((e) => `${e.dataset.live ?? e.dataset.param ?? e.dataset.echo} ${e.textContent}`)
            .sort();
        }, key);
      const keys = await handlesOf(pages.en.page);
      assert.deepEqual(await handlesOf(pages[language.code].page), keys, 'the same handles in the same sections');
      const moved = [];
      for (const key of keys) {
        const results = {};
        for (const [code, { page }] of Object.entries(pages)) {
          const handle = page.locator(`[data-qa-first="${key}"]`);
          await handle.scrollIntoViewIfNeeded();
          const before = await shown(page, key);
          await handle.focus();
          await handle.press('ArrowRight');
          await handle.press('ArrowRight');
          await twoFrames(page);
          results[code] = await shown(page, key);
          if (JSON.stringify(results[code]) === JSON.stringify(before)) moved.push(`${key} did not move in ${code}`);
          await page
            .locator(`[data-qa-first="${key}"]`)
            .evaluate((h) => h.closest('section').querySelector('.param-reset').click());
          await twoFrames(page);
          assert.deepEqual(await shown(page, key), before, `${key} in ${code}: back to the lesson's numbers`);
        }
        assert.deepEqual(results[language.code], results.en, `${key}: the numbers after two steps`);
      }
      assert.deepEqual(moved, []);
      for (const { problems, context } of Object.values(pages)) {
        assert.deepEqual(problems, []);
        await context.close();
      }
    });

    test('a name such as GPT-2 keeps its hyphen and number on one line in the headings and the contents, at 360 and 1600 px', async () => {
      for (const width of [360, 1600]) {
        const { page, context, problems } = await openPage(
          site.browser,
          `${site.server.url}${language.dir}/index.html`,
          {
            viewport: { width, height: 900 },
          },
        );
        await page.evaluate(() =>
          document.querySelectorAll('.toc details, details.toc').forEach((d) => (d.open = true)),
        );
        const names = await page.evaluate(() => {
          const found = [];
          for (const el of document.querySelectorAll('.toc a, .lesson-section > :is(h2, h3)')) {
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              for (const m of node.data.matchAll(/[A-Za-z][A-Za-z0-9]*-[0-9][A-Za-z0-9]*/g)) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                // One line: every box the name's text occupies shares the first box's top.
                const tops = [...range.getClientRects()].map((r) => Math.round(r.top));
                found.push({
                  name: m[0],
                  where: el.closest('.toc') ? 'contents' : 'heading',
                  lines: new Set(tops).size,
                });
              }
            }
          }
          return found;
        });
        assert.ok(names.filter((n) => n.where === 'contents').length >= 1, `${width} px: no such name in the contents`);
        const broken = names.filter((n) => n.lines !== 1).map((n) => `${n.name} in the ${n.where} on ${n.lines} lines`);
        assert.deepEqual(broken, [], `${width} px`);
        assert.deepEqual(problems, []);
        await context.close();
      }
    });
  });
}
