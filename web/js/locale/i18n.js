// The interface's words in the page's language. The English text is the key: t('Play') is "Play"
// on the English page, and on another language's page whatever web/i18n/LANG/*.json maps "Play" to.
// The site build embeds that language's table in the page's <head> as
// <script type="application/json" id="ui-strings">, so every module reads it before it runs; the
// English page and Node (the build, the tests) carry no table and get the English back.
//
// Numbers go in as {placeholders}, formatted by the caller (format.js), so a translation can move
// them: t('Head {head} of {heads}', { head: 3, heads: grouped(8) }). One call per sentence: a
// sentence glued from translated pieces keeps English word order. tests/node/interface-strings
// lists every call's text and checks each language has it.

let table;
let givenLanguage = null; // the page's language, in a Worker the page told (useLanguage)

/** The page's language (its <html lang>), 'en' outside a page. */
export function pageLanguage() {
  return globalThis.document?.documentElement?.lang || givenLanguage || 'en';
}

/** The page's language and its table of interface words, to send to a Worker (which has no document to read them from). */
export function languageOfPage() {
  return { language: pageLanguage(), entries: strings() };
}

/** In a Worker, before any module of it calls t(): the page's language and table, as languageOfPage() gave them. */
export function useLanguage({ language, entries }) {
  givenLanguage = language;
  table = entries;
}

function strings() {
  if (table === undefined) {
    const element = globalThis.document?.getElementById?.('ui-strings');
    table = element ? JSON.parse(element.textContent) : {};
  }
  return table;
}

/** `text` with each {name} replaced by params[name]; an unknown name stays as written. */
export function interpolate(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// Chinese and Japanese put no space between words. A template keeps one after a placeholder that may
// be Latin ("{label} 必须…" for the label d), so where the placeholder turned out to be Chinese too
// ("基数"), the space between the two characters goes.
const WRITTEN_WITHOUT_SPACES = /^(zh|ja)\b/;
const SPACE_BETWEEN_HAN = /(?<=\p{Script=Han})[ \u00a0]+(?=\p{Script=Han})/gu;

/**
 * `english` in `language` from `entries` (English → translation; a translation may be an object of
 * plural forms, { one, other }, chosen by `count`), with the params filled in. The build calls this
 * with a language's table; the page's modules call t() and tn().
 */
export function translate(entries, language, english, params, count = 0) {
  let text = entries[english] ?? english;
  if (typeof text === 'object') {
    const form = new Intl.PluralRules(language).select(count);
    text = text[form] ?? text.other;
  }
  const filled = interpolate(text, params);
  return WRITTEN_WITHOUT_SPACES.test(language) ? filled.replace(SPACE_BETWEEN_HAN, '') : filled;
}

/** The interface text `english` in the page's language, with its {placeholders} filled from params. */
export function t(english, params) {
  return translate(strings(), pageLanguage(), english, params);
}

/**
 * A text read from the lesson's data (a preset's note in web/presets/index.json) in the page's
 * language: the one place a text is not written in the call. tests/node/interface-strings collects
 * these texts from the data files themselves.
 */
export function tData(english) {
  return translate(strings(), pageLanguage(), english);
}

/**
 * A text that depends on a number `count`, as English writes it: `one` when count is 1, `other`
 * otherwise. A translation is keyed by `other` (and may give plural forms of its own). {count} in
 * the text is the count as grouped digits unless params gives it.
 */
export function tn(one, other, count, params = {}) {
  const all = 'count' in params ? params : { count: countFormat().format(count), ...params };
  const entries = strings();
  if (other in entries) return translate(entries, pageLanguage(), other, all, count);
  return interpolate(count === 1 ? one : other, all);
}

// One grouping formatter per page language, made on first use (format.js imports this module, so
// tn() keeps its own rather than importing format.js's).
let counts;
function countFormat() {
  const language = pageLanguage();
  if (counts?.language !== language) counts = { language, format: new Intl.NumberFormat(language) };
  return counts.format;
}
