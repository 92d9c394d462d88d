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
   cmi5 xAPI LMS API MathML PDF ID id GitHub MIT vLLM
   softmax Softmax sin cos exp log ln max min argmax cosine PE pos len logits factor
   Enter Page Up Down Home End Shift Tab Ctrl Esc Space
   dog bites man cat chased the mat sat on`.split(/\s+/),
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
      const { page, context, problems } = await openPage(site.browser, `${site.server.url}${language.dir}/index.html`, {
        viewport: { width: 1280, height: 900 },
        setup: (p) => p.addInitScript(recordCanvasText),
      });
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
  });
}
