// Number formatting for the page: the lesson's own print formats (fixed decimals, thousands
// separators, the true minus sign U+2212) and Python's repr, used to check the snippets' claims.

import { pageLanguage } from './i18n.js';

const MINUS = '\u2212';

// Grouping and decimals in the page's language (Intl), each formatter made once: the lesson's own
// rules (the true minus, no exponent in prose) stay the same in every language.
const formatters = new Map();
function numberFormat(options) {
  const key = JSON.stringify(options);
  if (!formatters.has(key)) formatters.set(key, new Intl.NumberFormat(pageLanguage(), options));
  return formatters.get(key);
}

/** x in the page's locale with Intl.NumberFormat `options`, its minus sign the true one. */
export function localeNumber(x, options = {}) {
  return trueMinus(numberFormat(options).format(x));
}
const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** Replaces ASCII hyphen-minus signs with U+2212 (and drops the sign of a rounded −0). */
export function trueMinus(text) {
  const s = /^-0(\.0+)?$/.test(text) ? text.slice(1) : text;
  return s.replace(/-/g, MINUS);
}

/** A number's text with its whole part grouped in threes: "-12345.678" → "-12,345.678". */
const groupWholePart = (text) =>
  text.replace(/^(-?)(\d+)/, (_, sign, whole) => sign + whole.replace(/\B(?=(\d{3})+$)/g, ','));

/** x with `digits` decimals, grouped, as the lesson prints it: "−0.416", "1.000", "−99,993.000". */
export function fixed(x, digits) {
  return trueMinus(groupWholePart(x.toFixed(digits)));
}

/** `items` (texts, or numbers as written) as a list in the page's language: "0, 4, 12" in English, "0、4、12" in Chinese. */
let listFormat;
export function listed(items) {
  listFormat ??= new Intl.ListFormat(pageLanguage(), { type: 'conjunction', style: 'narrow' });
  return listFormat.format(items.map(String));
}

/**
 * Sentences joined as the page's language writes them: a space between, none after a sentence that ends
 * in a Chinese full stop ("…评分。每个模型…"). Empty parts are left out.
 * @param {...string} parts
 */
export function sentences(...parts) {
  return parts
    .filter(Boolean)
    .reduce((text, part) => (text === '' || /[。！？]$/.test(text) ? text + part : `${text} ${part}`), '');
}

// The page languages in which Intl writes a whole number as ASCII digits grouped in threes by
// commas ("82,685"). For them grouped() places the commas itself: the page's first
// Intl.NumberFormat loads the locale's number data, a part of a throttled phone's load the live
// numbers would wait for (figures: BENCHMARKS.md, Measurements). tests/node/interface-strings holds the two to
// agreement.
export const COMMA_GROUPED_LANGUAGES = new Set(['en', 'zh-Hans']);

/** An integer with thousands separators: 82685.4 → "82,685". */
export function grouped(x) {
  const n = Math.round(x);
  if (!Number.isSafeInteger(n) || !COMMA_GROUPED_LANGUAGES.has(pageLanguage())) return localeNumber(n);
  return trueMinus(String(n).replace(/\B(?=(\d{3})+$)/g, ','));
}

/** Up to `maxDigits` decimals (at least `minDigits`), with thousands separators: 12345.678 → "12,345.68". */
export function decimal(x, maxDigits = 2, minDigits = 0) {
  return localeNumber(x, { minimumFractionDigits: minDigits, maximumFractionDigits: maxDigits });
}

/** Up to `digits` significant digits with thousands separators: 10000 → "10,000", 0.0001 → "0.0001". */
export function significant(x, digits = 6) {
  return localeNumber(x, { maximumSignificantDigits: digits });
}

/** A value's text with its unit: "4,096 tokens", "4,096 个词元"; a sign such as × attaches: "8×". */
export function withUnit(text, unit) {
  if (!unit) return text;
  return /^\p{L}/u.test(unit) ? `${text} ${unit}` : `${text}${unit}`;
}

/** A number's text as a factor in a written-out product: in parentheses when it is negative ("(−0.911)"). */
export function factor(text) {
  return text.startsWith(MINUS) ? `(${text})` : text;
}

/** Up to `digits` decimals with trailing zeros dropped, grouped: 0.7071 → "0.707", 1.0 → "1", 65536 → "65,536". */
export function trimmed(x, digits = 3) {
  const text = x.toFixed(digits);
  // Only zeros after a decimal point go: 40 with no decimals stays "40".
  return trueMinus(groupWholePart((digits > 0 ? text.replace(/\.?0+$/, '') : text) || '0'));
}

/** Python's f"{x:.Ne}": 1.1548e-4 → "1.15e-04" (ASCII, as Python prints). */
export function pyExponent(x, digits) {
  const [mantissa, exponent] = x.toExponential(digits).split('e');
  const sign = exponent.startsWith('-') ? '-' : '+';
  return `${mantissa}e${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
}

/** Scientific notation for prose: 1.1548e-4 → "1.15 × 10⁻⁴". */
export function sciUnicode(x, digits = 2) {
  const [mantissa, exponent] = x.toExponential(digits).split('e');
  const sup = String(Number(exponent)).replace(/./g, (c) => SUPERSCRIPT[c]);
  return `${trueMinus(mantissa)} × 10${sup}`;
}

/** 10 to the integer power e with a superscript exponent: −3 → "10⁻³". */
export function powerOfTen(e) {
  return `10${String(e).replace(/./g, (c) => SUPERSCRIPT[c])}`;
}

/** Python's "%.2g" (as the lesson's legends use): 0.000115 → "0.00012", 1 → "1", 1e-5 → "1e-05". */
export function formatG2(x) {
  if (x === 0) return '0';
  const exponent = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(2)))));
  if (exponent < -4 || exponent >= 2) {
    const [m, e] = x.toExponential(1).split('e');
    const mant = m.replace(/\.0$/, '');
    const sign = e.startsWith('-') ? '-' : '+';
    return `${mant}e${sign}${e.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  return String(Number(x.toPrecision(2)));
}

/** Two significant digits for prose: "%.2g" where that has no exponent (0.075, 0.00012), else "1.0 × 10⁻⁹". */
export function twoSignificant(x) {
  const text = formatG2(x);
  return /e/.test(text) ? sciUnicode(x, 1) : trueMinus(text);
}

/** Python's repr of a float: 4000 → "4000.0", 0.802 → "0.802". */
export function pyFloat(x) {
  if (Number.isInteger(x)) return `${x}.0`;
  return String(x);
}

/** Python's round(x, n) for a float, as a JavaScript number. */
export function pyRound(x, digits) {
  return Number(x.toFixed(digits));
}

/** Python's repr of a str holding no quotes or backslashes. */
export function pyStr(s) {
  return `'${s}'`;
}

/** Python's repr of a list or tuple of already-repr'd items. */
export function pyList(items) {
  return `[${items.join(', ')}]`;
}
export function pyTuple(items) {
  return `(${items.join(', ')})`;
}

/**
 * The named formats a data-live element can ask for (data-format), each turning the
 * quantity's value into the text the lesson prints.
 */
export const FORMATS = {
  fixed1: (x) => fixed(x, 1),
  fixed2: (x) => fixed(x, 2),
  fixed3: (x) => fixed(x, 3),
  fixed4: (x) => fixed(x, 4),
  decimal1: (x) => decimal(x, 1, 1),
  // Up to two decimals, grouped: "4,000", "3,879.06", "0.49".
  decimal2: (x) => decimal(x, 2),
  // A factor of a written-out product: a negative one in parentheses, "(−0.990)·(−0.911)".
  'fixed3-factor': (x) => factor(fixed(x, 3)),
  int: (x) => grouped(x),
  // A whole number written as code writes it (no grouping): for a value typed beside Python.
  'int-plain': (x) => trueMinus(String(Math.round(x))),
  trimmed: (x) => trimmed(x, 3),
  'trimmed-list': (xs) => Array.from(xs, (x) => trimmed(x, 3)).join(', '),
  'fixed3-list': (xs) => Array.from(xs, (x) => fixed(x, 3)).join(', '),
  'fixed3-tuple': (xs) => `(${Array.from(xs, (x) => fixed(x, 3)).join(', ')})`,
  'sci1-py': (x) => trueMinus(pyExponent(x, 1)),
  'sci-unicode': (x) => sciUnicode(x, 2),
  // A ratio below 1 as one over its inverse ("1/8", "1/65,536"); 1 or more as itself ("32", not
  // "1/0.031"). A ratio just below 1 keeps the decimals that tell it from 1 ("1/1.0002", never "1/1").
  fraction: (x) => (x >= 1 ? decimal(x, 3) : `1/${decimalsBeyondOne(1 / x)}`),
  // Up to 12 decimals, trailing zeros dropped, grouped: a number already rounded to the digits it needs.
  'trimmed-exact': (x) => decimal(x, 12),
  // A real parameter the reader sets (a base of 1.5, 1,001.5 or 10,000): grouped, up to six decimals.
  real: (x) => decimal(x, 6),
  // A stretch factor: "8", or enough decimals to tell a stretch just above 1 from 1 ("1.0002").
  stretch: (x) => (x === 1 ? '1' : decimalsBeyondOne(x)),
  // A RoPE base: a whole number from 1,000 up ("82,685"), below that with up to two decimals ("1.5", "12.4").
  base: (x) => (Math.abs(x) >= 1000 ? grouped(x) : decimal(x, 2)),
};

/** x > 1 with three decimals, or as many more (up to eight) as tell it from 1. */
function decimalsBeyondOne(x) {
  for (let digits = 3; digits < 8; digits++) {
    const text = decimal(x, digits);
    if (Number(x.toFixed(digits)) !== 1) return text;
  }
  return decimal(x, 8);
}

/** Formats `value` with the named format; throws for an unknown name. */
export function formatValue(value, format) {
  const fn = FORMATS[format];
  if (!fn) throw new Error(`unknown number format "${format}"`);
  return fn(value);
}
