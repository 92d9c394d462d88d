// The lesson's plain pages beside it (instructor guide, accessibility statement, third-party
// notices): their shared shell and stylesheet, in two forms. On the site the page links
// css/pages.css (the site's policy allows its own styles only); in the course packages and beside
// the single files, where nothing but HTML travels, the same style is inline and allowed by its hash.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cspHash } from './serve.mjs';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The pages, by name: their files, at the root of the site, the course content and dist-single/. */
export const INFO_PAGES = {
  guide: {
    file: 'instructor-guide.html',
    title: 'Instructor guide',
    description:
      'For course authors: what the lesson teaches, how long it takes, how its self-test is graded and reported, and how to set it up in Moodle.',
  },
  accessibility: {
    file: 'accessibility.html',
    title: 'Accessibility statement',
    description:
      'The lesson’s accessibility target (WCAG 2.2 AA), what is tested with which tools and browsers, and what is not.',
  },
  notices: {
    file: 'third-party-notices.html',
    title: 'Third-party notices',
    description: 'The licences of the fonts, libraries and tools whose work the lesson ships.',
  },
};

export const escapeHtml = (s) =>
  String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The body of the first block of base.css that `opener` opens, or a build error naming the block:
 * the pages take the lesson's colours, links and focus ring from there rather than a copy.
 */
function cssBlock(css, opener) {
  const start = css.indexOf(opener);
  if (start < 0)
    throw new Error(
      `web/css/base.css has no block "${opener.trim()}": web/site-builder/info-pages.mjs reads the plain pages' style from it`,
    );
  const open = css.indexOf('{', start + opener.length - 1);
  const close = css.indexOf('}', open);
  return css.slice(open + 1, close).trim();
}

/** The rules of base.css the pages share with the lesson, by selector: links and the focus ring. */
const SHARED_RULES = ['a', 'a:visited', ':focus-visible', 'main:focus'];

/**
 * The pages' stylesheet: the lesson's light and dark colours, links and focus ring (from base.css),
 * then web/css/pages.css.
 */
export function pagesCss() {
  const base = readFileSync(join(WEB, 'css', 'base.css'), 'utf8');
  const light = cssBlock(base, ':root {');
  // The plain pages have no theme switch: the dark colours follow the system's scheme.
  const dark = cssBlock(base, ":root[data-theme='dark'] {").replace(/\n/g, '\n  ');
  return [
    "/* The lesson's plain pages: colours, links and focus ring from web/css/base.css, then web/css/pages.css (assembled by web/site-builder/info-pages.mjs). */",
    `:root {\n  ${light}\n}`,
    `@media (prefers-color-scheme: dark) {\n  :root {\n    ${dark}\n  }\n}`,
    ...SHARED_RULES.map((selector) => `${selector} {\n  ${cssBlock(base, `\n${selector} {`)}\n}`),
    readFileSync(join(WEB, 'css', 'pages.css'), 'utf8'),
  ].join('\n');
}

/** The policy of a page: its own stylesheet ('self'), or its one inline style by hash; no script at all. */
export function infoPagePolicy(inlineStyle = null) {
  return [
    "default-src 'none'",
    `style-src ${inlineStyle === null ? "'self'" : cspHash(inlineStyle)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    "require-trusted-types-for 'script'",
  ].join('; ');
}

/**
 * One page. `name` (a key of INFO_PAGES), `description` (text; INFO_PAGES' by default), `body` (HTML, every outside text
 * already escaped), `variant` 'site' (links css/pages.css) or 'inline' (style inside), and
 * `lesson`: where the lesson is from the page (index.html on the site, positional-lesson.html beside
 * the single files and in the packages).
 */
export function infoPage({
  name,
  description = INFO_PAGES[name]?.description,
  body,
  variant,
  lesson,
  css = pagesCss(),
}) {
  const page = INFO_PAGES[name];
  if (!page) throw new Error(`info-pages: no page "${name}"`);
  const style = `\n${css}\n`;
  const head =
    variant === 'site'
      ? `<meta http-equiv="Content-Security-Policy" content="${infoPagePolicy()}">`
      : `<meta http-equiv="Content-Security-Policy" content="${infoPagePolicy(style)}">`;
  const stylesheet = variant === 'site' ? '<link rel="stylesheet" href="css/pages.css">' : `<style>${style}</style>`;
  const links = Object.entries(INFO_PAGES)
    .map(([key, p]) =>
      key === name
        ? `<li><a href="${p.file}" aria-current="page">${escapeHtml(p.title)}</a></li>`
        : `<li><a href="${p.file}">${escapeHtml(p.title)}</a></li>`,
    )
    .join('');
  return `<!doctype html>
<!-- ${escapeHtml(page.title)} of the lesson on positional information, written by the site build
     (web/site-builder/info-pages.mjs and the module of the page); not edited by hand. -->
<html lang="en">
<head>
<meta charset="utf-8">
${head}
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${escapeHtml(page.title)}: Positional information in transformers</title>
<meta name="description" content="${escapeHtml(description)}">
${stylesheet}
</head>
<body>
<a class="skip-link" href="#main">Skip to the content</a>
<header class="page-bar"><a href="${escapeHtml(lesson)}">Positional information: the lesson</a></header>
<main id="main" tabindex="-1">
<h1>${escapeHtml(page.title)}</h1>
${body}
</main>
<footer class="page-footer"><nav aria-label="About this lesson"><ul><li><a href="${escapeHtml(lesson)}">The lesson</a></li>${links}</ul></nav></footer>
</body>
</html>
`;
}

/** A table with a caption inside a scrolling box: `head` and `rows` are arrays of HTML cells. */
export function htmlTable(caption, head, rows, { numeric = [] } = {}) {
  const cell = (tag, html, i) =>
    `<${tag}${tag === 'th' ? ' scope="col"' : ''}${numeric.includes(i) ? ' class="number"' : ''}>${html}</${tag}>`;
  // The box scrolls a table too wide for a phone: the keyboard must reach it to scroll it.
  return `<div class="table-wrap" tabindex="0" role="region" aria-label="${escapeHtml(caption.replace(/<[^>]*>/g, ''))}"><table>
<caption>${caption}</caption>
<thead><tr>${head.map((h, i) => cell('th', h, i)).join('')}</tr></thead>
<tbody>
${rows.map((row) => `<tr>${row.map((c, i) => cell('td', c, i)).join('')}</tr>`).join('\n')}
</tbody>
</table></div>`;
}
