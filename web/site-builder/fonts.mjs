// The page's fonts, chosen and cut at build time: the maths face (DejaVu Math TeX Gyre, from Debian's
// fonts-dejavu-extra, a font with an OpenType MATH table that the browsers' MathML layout reads)
// subset to the characters the formulas draw, and its italic for one-letter variables (DejaVu Serif
// Italic, same package) cut to those letters; the text face from @fontsource, subset to the
// characters the prose and the charts can show (subset-font: HarfBuzz's hb-subset in wasm, which
// keeps the MATH table and the size variants and parts of stretchy operators it reaches).
//
// The formulas are MathML Core, laid out natively by Chromium, Firefox and WebKit. A one-letter <mi>
// is drawn in italic by swapping its letter for the Unicode mathematical-italic one (x becomes
// U+1D465): those letters are in the subset too. tests/browser/fonts.test.mjs checks the result
// against what Chromium actually drew with (no fallback font anywhere in the maths).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import subsetFont from 'subset-font';

const require = createRequire(import.meta.url);

/**
 * The maths face (web/css/lesson.css sets every <math> in it): family, the file the build writes and
 * the font it is cut from (Debian's fonts-dejavu-extra; build-scripts/install-deps installs it).
 */
export const MATH_FACE = {
  family: 'DejaVu Math TeX Gyre',
  file: 'math.woff2',
  source: '/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf',
};

/**
 * The italic the maths' one-letter variables are drawn in where the browser italicises them through
 * CSS (text-transform: math-auto, which web/css/lesson.css turns off there): DejaVu Serif Italic, the
 * italic DejaVu Math's own mathematical-italic letters were drawn from. The letters stay as written,
 * so the accessibility tree reads "P", not its Unicode mathematical-italic twin.
 */
export const MATH_ITALIC_FACE = {
  family: 'DejaVu Serif',
  file: 'math-italic.woff2',
  source: '/usr/share/fonts/truetype/dejavu/DejaVuSerif-Italic.ttf',
};

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
// old-style figures…). Kerning is the costly one and is kept (figures: BENCHMARKS.md, Measurements).
const TEXT_FEATURES = ['kern', 'liga', 'tnum', 'lnum'];

// Characters the text face always carries, beyond those in the built HTML: what the scripts write
// at run time (numbers, chart labels, messages) is printable ASCII plus these.
const TEXT_EXTRA = ' –—‘’“”…×−·→←↑↓≈≤≥±°µπθλΔ√∞•×';
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

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

/** Every character of the page's visible text (tags, comments, scripts, styles and formulas left out). */
export function textChars(html) {
  const visible = html
    .replace(/<(script|style|math)\b[\s\S]*?<\/\1>/gi, '')
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

// MathML Core's text-transform: math-auto, the Unicode mathematical-italic letters (U+1D434 on):
// the holes of that block are letters of the Letterlike Symbols block (h is U+210E, Planck's constant).
const MATH_ITALIC_LATIN = 0x1d434;
const MATH_ITALIC_GREEK = 0x1d6fc; // α; Α is U+1D6E2
const GREEK_LOWER = 'αβγδεζηθικλμνξοπρςστυφχψω';
const GREEK_UPPER = 'ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡ ΣΤΥΦΧΨΩ';

// The Greek variants and the partial sign, which follow ω in the mathematical-italic block.
const MATH_ITALIC_OTHER = {
  '∂': 0x1d715,
  ϵ: 0x1d716,
  ϑ: 0x1d717,
  ϰ: 0x1d718,
  ϕ: 0x1d719,
  ϱ: 0x1d71a,
  ϖ: 0x1d71b,
  ı: 0x1d6a4,
  ȷ: 0x1d6a5,
};

/** The mathematical-italic twin a browser draws for `ch` in a one-letter <mi>, or null. */
export function mathItalic(ch) {
  if (ch === 'h') return '\u210e';
  if (ch in MATH_ITALIC_OTHER) return String.fromCodePoint(MATH_ITALIC_OTHER[ch]);
  if (/[A-Z]/.test(ch)) return String.fromCodePoint(MATH_ITALIC_LATIN + ch.charCodeAt(0) - 65);
  if (/[a-z]/.test(ch)) return String.fromCodePoint(MATH_ITALIC_LATIN + 26 + ch.charCodeAt(0) - 97);
  const lower = GREEK_LOWER.indexOf(ch);
  if (lower >= 0) return String.fromCodePoint(MATH_ITALIC_GREEK + lower);
  const upper = GREEK_UPPER.indexOf(ch);
  if (upper >= 0 && ch !== ' ') return String.fromCodePoint(MATH_ITALIC_GREEK - 26 + upper);
  return null;
}

/** The one-letter <mi>s without a mathvariant in `html` (those a browser draws in italic): a Set of letters. */
export function italicVariables(html) {
  const letters = new Set();
  for (const [, text] of html.matchAll(/<mi>([^<]+)<\/mi>/g)) {
    const decoded = [...decodeEntities(text)];
    if (decoded.length === 1) letters.add(decoded[0]);
  }
  return letters;
}

/**
 * Every character the formulas in `html` draw in the maths face: the text of each <math> less its
 * TeX annotation, and for each one-letter <mi> without a mathvariant its mathematical-italic twin.
 */
export function mathChars(html) {
  const chars = new Set();
  for (const [formula] of html.matchAll(/<math\b[\s\S]*?<\/math>/g)) {
    const drawn = formula.replace(/<annotation\b[\s\S]*?<\/annotation>/g, '');
    // Spaces too: KaTeX writes \, and \; as thin and four-per-em spaces in an <mtext>.
    for (const ch of decodeEntities(drawn.replace(/<[^>]*>/g, ''))) if (ch !== '\n' && ch !== '\t') chars.add(ch);
  }
  for (const letter of italicVariables(html)) {
    const twin = mathItalic(letter);
    if (twin) chars.add(twin);
  }
  return chars;
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
 * The page's fonts for the lesson's `html` and `css`, the assembled site.css: { css (faces the build
 * did not write dropped), files: Map font file name → subset woff2 bytes, sources: Map font file
 * name → the font file it was cut from, report: [{ file, chars, before, after }] }.
 */
export async function pageFonts(html, css) {
  const files = new Map();
  const sources = new Map();
  const report = [];
  const maths = mathChars(html);
  if (maths.size) {
    const original = readFileSync(MATH_FACE.source);
    // Every layout feature kept: the MATH table's script-size alternates are reached through ssty.
    const bytes = await subsetWoff2(original, maths, { noHinting: true });
    files.set(MATH_FACE.file, bytes);
    sources.set(MATH_FACE.file, MATH_FACE.source);
    report.push({ file: MATH_FACE.file, chars: maths.size, before: original.length, after: bytes.length });
    const letters = italicVariables(html);
    const italic = readFileSync(MATH_ITALIC_FACE.source);
    const italicBytes = await subsetWoff2(italic, letters, { keepFeatures: ['kern'], noHinting: true });
    files.set(MATH_ITALIC_FACE.file, italicBytes);
    sources.set(MATH_ITALIC_FACE.file, MATH_ITALIC_FACE.source);
    report.push({ file: MATH_ITALIC_FACE.file, chars: letters.size, before: italic.length, after: italicBytes.length });
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
