// The page's fonts, chosen and cut at build time: of KaTeX's twenty faces only those the rendered
// maths uses, each subset (subset-font, HarfBuzz in wasm) to the characters it draws; the text face
// from @fontsource, subset to the characters the prose and the charts can show.
//
// Which KaTeX face draws which character is worked out from the rendered HTML and KaTeX's own
// stylesheet: a small cascade over the KaTeX rules that set font-family/style/weight (class and
// tag selectors, descendant and child combinators — all KaTeX uses), applied to every text node
// under .katex-html. The browser suite tests/browser/fonts.test.mjs checks the result against what
// Chromium actually drew with (no fallback font anywhere in the maths).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import subsetFont from 'subset-font';

const require = createRequire(import.meta.url);
export const KATEX_FONTS_DIR = join(dirname(require.resolve('katex/dist/katex.min.css')), 'fonts');

/** Languages whose prose web/css/base.css sets in the system's faces, not the text faces: their pages do not preload them. */
export const SYSTEM_TEXT_LANGUAGES = ['zh'];

/**
 * The page's own text faces (web/css/base.css names them): family, style, weight range and the
 * @fontsource file they are cut from. One variable file covers the regular and bold weights.
 */
export const TEXT_FACES = [
  {
    // The roman, variable in weight, cut to 400–600: regular text, strong and the headings.
    family: 'Source Serif 4',
    file: 'source-serif-4.woff2',
    source: '@fontsource-variable/source-serif-4/files/source-serif-4-latin-wght-normal.woff2',
    axes: { wght: { min: 400, max: 600 } },
    chars: 'text',
  },
  {
    // The italic, one static weight, cut to what the page sets in italic (em, i, cite).
    family: 'Source Serif 4',
    file: 'source-serif-4-italic.woff2',
    source: '@fontsource/source-serif-4/files/source-serif-4-latin-400-italic.woff2',
    chars: 'italic',
  },
];

// OpenType features the text needs (kerning, ligatures, tabular and lining figures; the page has no
// combining marks): keeping every feature would keep every alternate glyph they reach (small caps,
// old-style figures…). Kerning is the costly one (about 5 KB of the roman) and is kept.
const TEXT_FEATURES = ['kern', 'liga', 'tnum', 'lnum'];

// Characters the text face always carries, beyond those in the built HTML: what the scripts write
// at run time (numbers, chart labels, messages) is printable ASCII plus these.
const TEXT_EXTRA = ' –—‘’“”…×−·→←↑↓≈≤≥±°µπθλΔ√∞•×';
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(text) {
  return text.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, name) => {
    if (name[0] === '#')
      return String.fromCodePoint(
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10),
      );
    return ENTITIES[name] ?? whole;
  });
}

const fontWeight = (value) => (value === 'bold' ? 700 : value === 'normal' ? 400 : Number(value));

/** KaTeX's @font-face rules: { family, style, weight, file, rule }. */
export function katexFaces(css) {
  return [...css.matchAll(/@font-face\{[^}]*\}/g)].map(([rule]) => ({
    family: rule.match(/font-family:([^;}]+)/)[1].trim(),
    style: rule.match(/font-style:([^;}]+)/)[1].trim(),
    weight: fontWeight(rule.match(/font-weight:([^;}]+)/)[1].trim()),
    file: rule.match(/url\((?:[^)]*\/)?([\w-]+\.woff2)\)/)[1],
    rule,
  }));
}

/** Rules that set the font: { selectors: [[{ tag, classes, combinator }]], decl, order, specificity }. */
function fontRules(css) {
  const rules = [];
  let order = 0;
  for (const [, selectorText, body] of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    if (selectorText.trim().startsWith('@')) continue;
    const decl = {};
    for (const part of body.split(';')) {
      const [prop, ...rest] = part.split(':');
      const value = rest.join(':').trim();
      if (prop.trim() === 'font-family') decl.family = value.split(',')[0].trim().replace(/['"]/g, '');
      else if (prop.trim() === 'font-style') decl.style = value;
      else if (prop.trim() === 'font-weight') decl.weight = fontWeight(value);
      else if (prop.trim() === 'font') {
        // The shorthand KaTeX uses: [style] [weight] size family-list.
        const m = value.match(/^(.*?)\s*[\d.]+(?:em|rem|px|%)(?:\/\S+)?\s+(.+)$/);
        if (!m) continue;
        decl.family = m[2].split(',')[0].trim().replace(/['"]/g, '');
        decl.style = /italic/.test(m[1]) ? 'italic' : 'normal';
        decl.weight = /bold|700/.test(m[1]) ? 700 : 400;
      }
    }
    if (!Object.keys(decl).length) continue;
    order += 1;
    for (const selector of selectorText.split(',')) {
      if (/[:[\]#*+~]/.test(selector)) continue;
      const steps = [];
      let combinator = null;
      for (const token of selector
        .trim()
        .replace(/\s*>\s*/g, ' > ')
        .split(/\s+/)) {
        if (token === '>') {
          combinator = '>';
          continue;
        }
        const [tag, ...classes] = token.split('.');
        steps.push({ tag: tag || null, classes, combinator });
        combinator = ' ';
      }
      const specificity = steps.reduce((n, s) => n + s.classes.length * 1000 + (s.tag ? 1 : 0), 0);
      rules.push({ steps, decl, order, specificity });
    }
  }
  return rules.sort((a, b) => a.specificity - b.specificity || a.order - b.order);
}

function matches(steps, chain) {
  // chain: ancestors, outermost first; the last is the element itself.
  const fits = (step, el) => (!step.tag || step.tag === el.tag) && step.classes.every((c) => el.classes.has(c));
  let i = chain.length - 1;
  if (!fits(steps[steps.length - 1], chain[i])) return false;
  for (let s = steps.length - 2; s >= 0; s -= 1) {
    const child = steps[s + 1].combinator === '>';
    i -= 1;
    if (child) {
      if (i < 0 || !fits(steps[s], chain[i])) return false;
    } else {
      while (i >= 0 && !fits(steps[s], chain[i])) i -= 1;
      if (i < 0) return false;
    }
  }
  return true;
}

function faceFor(faces, { family, style, weight }) {
  const candidates = faces.filter((f) => f.family === family);
  if (!candidates.length) return null;
  const sameStyle = candidates.filter((f) => f.style === style);
  const pool = sameStyle.length ? sameStyle : candidates;
  return pool.reduce((best, f) => (Math.abs(f.weight - weight) < Math.abs(best.weight - weight) ? f : best));
}

/**
 * Which KaTeX face draws which characters in `html`: Map file → Set of characters. Only text under
 * .katex-html counts (the MathML copy is for assistive technology and drawn clipped to nothing).
 */
export function katexCharsByFace(html, css) {
  const faces = katexFaces(css);
  const rules = fontRules(css);
  const used = new Map();
  const chain = [];
  const fonts = [];
  let inHtml = 0;
  for (const [, comment, close, tag, attrs, text] of html.matchAll(
    /(<!--[\s\S]*?-->)|<(\/?)([a-zA-Z][\w-]*)([^>]*)>|([^<]+)/g,
  )) {
    if (comment) continue;
    if (text !== undefined) {
      if (!inHtml || !text.trim()) continue;
      const face = faceFor(faces, fonts[fonts.length - 1]);
      if (!face) continue;
      if (!used.has(face.file)) used.set(face.file, new Set());
      for (const ch of decodeEntities(text)) if (ch.trim()) used.get(face.file).add(ch);
      continue;
    }
    const name = tag.toLowerCase();
    if (close) {
      while (chain.length) {
        const el = chain.pop();
        fonts.pop();
        if (el.katexHtml) inHtml -= 1;
        if (el.tag === name) break;
      }
      continue;
    }
    if (VOID.has(name) || attrs.trim().endsWith('/')) continue;
    const classes = new Set((attrs.match(/\bclass="([^"]*)"/)?.[1] ?? '').split(/\s+/).filter(Boolean));
    const el = { tag: name, classes, katexHtml: classes.has('katex-html') };
    chain.push(el);
    const font = { ...(fonts[fonts.length - 1] ?? { family: null, style: 'normal', weight: 400 }) };
    for (const rule of rules) if (matches(rule.steps, chain)) Object.assign(font, rule.decl);
    fonts.push(font);
    if (el.katexHtml) inHtml += 1;
  }
  return used;
}

/** Every character of the page's visible text (tags, comments, scripts and styles left out). */
export function textChars(html) {
  const visible = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]*>/g, '');
  return new Set([...decodeEntities(visible), ...ASCII, ...TEXT_EXTRA].filter((ch) => ch !== '\n' && ch !== '\t'));
}

/**
 * Every character the page sets in italic: the text of its em, i and cite elements, and the
 * figures and signs a live number inside them could show.
 */
export function italicChars(html) {
  const chars = new Set('0123456789.,−-+ ');
  for (const [, , inner] of html.matchAll(/<(em|i|cite)\b[^>]*>([\s\S]*?)<\/\1>/gi))
    for (const ch of decodeEntities(inner.replace(/<[^>]*>/g, ''))) if (ch !== '\n' && ch !== '\t') chars.add(ch);
  return chars;
}

/**
 * KaTeX's stylesheet less the rules for markup the page does not contain: a selector stays when
 * every class it names occurs in `html` (KaTeX's markup is all built into the HTML; no script
 * renders maths later). @font-face rules are left to dropUnusedFaces.
 */
export function pruneKatexCss(css, html) {
  const classes = new Set([...html.matchAll(/\bclass="([^"]*)"/g)].flatMap((m) => m[1].split(/\s+/)));
  return css.replace(/([^{}]+)\{([^{}]*)\}/g, (rule, selectorText, body) => {
    if (selectorText.trim().startsWith('@')) return rule;
    const kept = selectorText
      .split(',')
      .filter((sel) => [...sel.matchAll(/\.([\w-]+)/g)].every(([, c]) => classes.has(c)));
    return kept.length ? `${kept.join(',')}{${body}}` : '';
  });
}

/** `css` without the @font-face rules whose file is not in `keep`. */
export function dropUnusedFaces(css, keep) {
  return css.replace(/@font-face\s*\{[^}]*\}/g, (rule) => {
    const file = rule.match(/url\((?:[^)]*\/)?([\w-]+\.woff2)\)/)?.[1];
    return !file || keep.has(file) ? rule : '';
  });
}

/** Subsets a woff2 font to `chars`; returns woff2 bytes. */
export async function subsetWoff2(bytes, chars, options = {}) {
  return subsetFont(bytes, [...chars].join(''), { targetFormat: 'woff2', ...options });
}

/**
 * The page's fonts for the lesson's `html` (KaTeX's faces found by KaTeX's own stylesheet) and
 * `css`, the assembled site.css: { css (unused KaTeX faces dropped), files: Map font file name →
 * subset woff2 bytes, sources: Map font file name → the font file it was cut from, report: [{ file,
 * chars, before, after }] }.
 */
export async function pageFonts(html, css) {
  const files = new Map();
  const sources = new Map();
  const report = [];
  const katexCss = readFileSync(require.resolve('katex/dist/katex.min.css'), 'utf8');
  for (const [file, chars] of katexCharsByFace(html, katexCss)) {
    const original = readFileSync(join(KATEX_FONTS_DIR, file));
    const bytes = await subsetWoff2(original, chars);
    files.set(file, bytes);
    sources.set(file, join(KATEX_FONTS_DIR, file));
    report.push({ file, chars: chars.size, before: original.length, after: bytes.length });
  }
  const sets = { text: textChars(html), italic: italicChars(html) };
  for (const face of TEXT_FACES) {
    const original = readFileSync(require.resolve(face.source));
    sources.set(face.file, require.resolve(face.source));
    const chars = sets[face.chars];
    const bytes = await subsetWoff2(original, chars, {
      keepFeatures: TEXT_FEATURES,
      noHinting: true,
      ...(face.axes && { variationAxes: face.axes }),
    });
    files.set(face.file, bytes);
    report.push({ file: face.file, chars: chars.size, before: original.length, after: bytes.length });
  }
  return { css: dropUnusedFaces(css, new Set(files.keys())), files, sources, report };
}
