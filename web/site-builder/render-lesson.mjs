// Renders web/lesson/lesson.md to the page's HTML at build time: markdown-it for the text, KaTeX
// for the math (MathML Core only, which the browsers lay out themselves, with its TeX as annotation), highlight.js for the snippets, the build-time diagrams, chart
// slots, live-number placeholders, and section/level structure with a table of contents.
import MarkdownIt from 'markdown-it';
import katex from 'katex';
import hljs from 'highlight.js/lib/core';
import python from 'highlight.js/lib/languages/python';
import cpp from 'highlight.js/lib/languages/cpp';
import { escapeXml, renderDiagramFigure } from './diagrams.mjs';
import { firstQuestionFieldsHtml } from '../js/page/first-question.js';
import { decodeEntities } from './fonts.mjs';
import { formatValue, withUnit } from '../js/locale/format.js';
import { translate } from '../js/locale/i18n.js';
import { expandLabMarkers, hasLabMarkers, loadLabResults } from './lab-results.mjs';

hljs.registerLanguage('python', python);
hljs.registerLanguage('cpp', cpp);

/** The accessible name of a display formula's box, which may scroll sideways, in English (mathPlugin
 * writes it in the page's language). */
export const FORMULA_LABEL = 'Formula (scrolls sideways)';

/** Tables whose cells average more characters than this are prose: narrow screens stack their rows. */
const PROSE_CELL_CHARS = 24;

/** The placeholder text a live number shows until the engine fills it. */
export const LIVE_PLACEHOLDER = '…';

const HEADING = /^(#{1,3}) (.+?) \{#([a-z0-9-]+)\}\s*$/;
const CONTAINER_OPEN = /^::: (walkthrough|step|question|aside|try|fold)(?: (.+))?$/;
const CONTAINER_CLOSE = /^:::\s*$/;
const FENCE = /^```/;

/**
 * A translated interface text for HTML text or a double-quoted attribute: & < > " escaped, and the
 * apostrophe kept (the English texts' own apostrophes were written as they are).
 */
const escapeText = (text) =>
  String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

// ---- markdown-it with the lesson's inline syntax -----------------------------------------

// KaTeX writes x' as a superscript prime (TeX's ^\prime). A MathML Core font's U+2032 is drawn
// already raised and small, for the baseline: as a script it shrank to a speck (its larger script
// form is behind the ssty feature, which Chromium did not apply even when asked in CSS). A prime
// on a one-letter or one-name base is written beside the base, where the glyph is the right size.
const PRIME = '<mo([^>]*)>\u2032</mo>';
const NAME = '<mi[^>]*>[^<]*</mi>';
const SCRIPT = '<mrow>(?:(?!<mrow>)[\\s\\S])*?</mrow>|<m[in][^>]*>[^<]*</m[in]>';
const PRIME_REWRITES = [
  // x' → x′
  [new RegExp(`<msup>(${NAME})${PRIME}</msup>`, 'g'), '<mrow>$1<mo$2>\u2032</mo></mrow>'],
  // x'_{2i} → x′ with the subscript after it
  [
    new RegExp(`<msubsup>(${NAME})(${SCRIPT})${PRIME}</msubsup>`, 'g'),
    '<msub><mrow>$1<mo$3>\u2032</mo></mrow>$2</msub>',
  ],
  // base'^{0} → base′ with the rest as its superscript
  [
    new RegExp(`<msup>(${NAME})<mrow>${PRIME}([\\s\\S]*?)</mrow></msup>`, 'g'),
    '<msup><mrow>$1<mo$2>\u2032</mo></mrow><mrow>$3</mrow></msup>',
  ],
];

/**
 * KaTeX's MathML made to read well in MathML Core's layout (Chromium, Firefox, WebKit):
 * - every <mi> of more than one character (KaTeX's \sin, \cos) marked mathvariant="normal":
 *   MathML draws such a name upright anyway, and the mark lets web/css/lesson.css italicise exactly
 *   the one-letter variables (mi:not([mathvariant])) in a face of its own;
 * - a function name followed by its argument without brackets (\cos m\theta) gets TeX's thin
 *   space after the invisible function application, which MathML Core gives none;
 * - primes written beside their base (PRIME_REWRITES);
 * - one element per formula fewer where nothing reads it: KaTeX's <span class="katex"> around the
 *   <math> (its class moves onto the <math>), and the <mrow> around a formula that is one element
 *   already (MathML Core lays out an <mrow> of one child as that child), unless that element is an
 *   operator, whose spacing depends on the row it is in (a lone + drew 2 px to the right without it).
 */
export function mathmlForCore(mathml) {
  let out = mathml.replace(/<mi>([^<]+)<\/mi>/g, (whole, text) =>
    [...decodeEntities(text)].length > 1 ? `<mi mathvariant="normal">${text}</mi>` : whole,
  );
  out = out.replace(/<mo>\u2061<\/mo>(?=<(?:mi|mn|msub|msup|msubsup)\b)/g, '<mo rspace="0.1667em">\u2061</mo>');
  for (const [pattern, replacement] of PRIME_REWRITES) out = out.replace(pattern, replacement);
  return unwrapLoneRow(
    out.replace(/^<span class="katex"><math\b([^>]*)>([\s\S]*)<\/math><\/span>$/, '<math class="katex"$1>$2</math>'),
  );
}

/**
 * `<semantics><mrow>X</mrow>` → `<semantics>X` when X is one element (tags counted, not parsed:
 * KaTeX's MathML has no comments, CDATA or bare text between elements).
 */
function unwrapLoneRow(mathml) {
  const open = '<semantics><mrow>';
  const close = '</mrow>';
  const start = mathml.indexOf(open);
  const inner = start + open.length;
  // An operator (or one carrying scripts) takes its spacing from its place in a row: kept in it.
  if (start < 0 || /^(?:<(?:msub|msup|msubsup|munder|mover|munderover)>\s*)?<mo\b/.test(mathml.slice(inner)))
    return mathml;
  const tag = /<(\/?)[a-z]+\b[^>]*?(\/?)>/g;
  tag.lastIndex = inner;
  let depth = 0;
  let children = 0;
  for (let m = tag.exec(mathml); m; m = tag.exec(mathml)) {
    const [, closing, selfClosing] = m;
    if (closing && depth === 0) {
      // The <mrow>'s own end.
      if (children !== 1 || !mathml.startsWith(close, m.index)) return mathml;
      return (
        mathml.slice(0, start) + '<semantics>' + mathml.slice(inner, m.index) + mathml.slice(m.index + close.length)
      );
    }
    if (closing) depth--;
    else {
      if (depth === 0) children++;
      if (!selfClosing) depth++;
    }
  }
  return mathml;
}

function mathPlugin(md, context) {
  const { katexErrors, t } = context;
  const renderMath = (tex, displayMode) => {
    try {
      return mathmlForCore(
        katex.renderToString(tex, { output: 'mathml', displayMode, throwOnError: true, strict: 'error' }),
      );
    } catch (error) {
      katexErrors.push(`${error.message} in: ${tex}`);
      return `<code class="math-error">${escapeXml(tex)}</code>`;
    }
  };
  md.inline.ruler.before('escape', 'math_inline', (state, silent) => {
    const src = state.src;
    const start = state.pos;
    if (src[start] !== '$' || src[start + 1] === '$') return false;
    const end = src.indexOf('$', start + 1);
    if (end < 0 || end === start + 1) return false;
    if (!silent) {
      const token = state.push('math_inline', 'math', 0);
      token.content = src.slice(start + 1, end);
    }
    state.pos = end + 1;
    return true;
  });
  md.block.ruler.before('fence', 'math_block', (state, startLine, endLine, silent) => {
    const first = state.src.slice(state.bMarks[startLine] + state.tShift[startLine], state.eMarks[startLine]);
    if (first.trim() !== '$$') return false;
    let line = startLine + 1;
    const lines = [];
    for (; line < endLine; line++) {
      const text = state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
      if (text.trim() === '$$') break;
      lines.push(text);
    }
    if (line >= endLine) return false;
    if (!silent) {
      const token = state.push('math_block', 'math', 0);
      token.content = lines.join('\n');
      token.map = [startLine, line + 1];
    }
    state.line = line + 1;
    return true;
  });
  md.renderer.rules.math_inline = (tokens, idx) => renderMath(tokens[idx].content, false);
  // Focusable from the first paint: on a phone a wide formula scrolls sideways before any script
  // runs, and the keyboard must reach it then. scroll-regions.js drops the tab stop where it fits.
  md.renderer.rules.math_block = (tokens, idx) =>
    `<div class="math-display" tabindex="0" role="group" aria-label="${escapeText(t('Formula (scrolls sideways)'))}" data-scroll-region>${renderMath(tokens[idx].content, true)}</div>\n`;
}

function markerPlugin(md, context) {
  const { t } = context;
  md.inline.ruler.before('escape', 'lesson_marker', (state, silent) => {
    if (!state.src.startsWith('{{', state.pos)) return false;
    const end = state.src.indexOf('}}', state.pos);
    if (end < 0) return false;
    const body = state.src.slice(state.pos + 2, end);
    // {{else}} and {{end}} close a {{when:CLAIM}}: they carry no name.
    const match =
      /^(live|derived|ref|link-only|param|echo|part|when):([^|]+)(?:\|(.+))?$/.exec(body) ??
      /^(else|end)()()$/.exec(body);
    if (!match) throw new Error(`lesson.md: unknown marker {{${body}}}`);
    if (!silent) {
      const token = state.push('lesson_marker', '', 0);
      token.meta = { kind: match[1], name: match[2], extra: match[3] };
    }
    state.pos = end + 2;
    return true;
  });
  md.renderer.rules.lesson_marker = (tokens, idx) => {
    const { kind, name, extra } = tokens[idx].meta;
    const printing = { param: 'a parameter', echo: 'an echo' }[kind];
    if (printing && extra)
      throw new Error(
        `lesson.md: {{${kind}:${name}|${extra}}}: ${printing} prints its own value, with no text or format`,
      );
    if (kind === 'when' || kind === 'else' || kind === 'end') return renderClaimBranch(context, kind, name);
    if (kind === 'param') return renderParameterHandle(context, name);
    if (kind === 'echo') return renderParameterEcho(context, name);
    if (kind === 'part') return renderPartLink(context, name, extra);
    if (kind === 'ref' || kind === 'link-only') {
      if (!(name in context.links))
        throw new Error(`lesson.md: {{${kind}:${name}}} is not listed in site-config.json "links"`);
      const url = context.links[name];
      const text = escapeXml(extra ?? name);
      if (url) return `<a class="ref" data-ref="${escapeXml(name)}" href="${escapeXml(url)}">${text}</a>`;
      // A link-only sentence says nothing without its link, so it is left out.
      return kind === 'link-only' ? '' : `<span class="ref" data-ref="${escapeXml(name)}">${text}</span>`;
    }
    context.liveNames.add(name);
    const fmt = extra ? ` data-format="${escapeXml(extra)}"` : '';
    const derived =
      kind === 'derived'
        ? ` data-derived="true" title="${escapeText(t('Computed in the page from the quoted facts'))}"`
        : '';
    const { text, prerendered } = liveDefaultText(context, name, extra);
    const mark = prerendered ? ' data-prerendered=""' : '';
    return `<span class="live" data-live="${escapeXml(name)}"${fmt}${derived}${mark}>${escapeXml(text)}</span>`;
  };
}

/**
 * A sentence that depends on a claim, {{when:CLAIM}}…{{else}}…{{end}}: two spans, the first shown
 * while the claim (LIVE_CLAIMS, web/js/prose/live-values.js) holds for the section's values and the
 * second otherwise (prose-params.js switches them as the reader moves a handle). The lesson's own
 * values make every claim hold (tests/node/text-sweep checks it), so the built page shows the first.
 */
function renderClaimBranch(context, kind, name) {
  const open = context.openClaims;
  if (kind === 'when') {
    context.claimNames.push(name);
    open.push({ name, otherwise: false });
    return `<span class="claim-branch" data-when="${escapeXml(name)}">`;
  }
  const current = open.at(-1);
  if (!current) throw new Error(`lesson.md: {{${kind}}} without a {{when:…}} before it`);
  if (kind === 'else') {
    if (current.otherwise) throw new Error(`lesson.md: {{when:${current.name}}} has two {{else}}`);
    current.otherwise = true;
    return `</span><span class="claim-branch" data-unless="${escapeXml(current.name)}" hidden>`;
  }
  open.pop();
  return '</span>';
}

/**
 * A live parameter of the prose, {{param:NAME}}: the lesson's value as text in a slider the reader
 * can move (web/js/prose/prose-params.js), described from its LIVE_PARAMETERS entry. An unknown name is
 * collected for checkKnownNames and rendered as plain text meanwhile.
 */
function renderParameterHandle(context, name) {
  context.parameterNames.push(name);
  const p = context.liveParameters?.[name];
  if (!p) return escapeXml(name);
  const text = formatValue(p.value, p.format);
  // The label and unit in the page's language (live-values.js writes them in English for Node).
  const unit = p.unit && context.translateData(p.unit);
  const valueText = withUnit(text, unit);
  return (
    `<span class="param" role="slider" tabindex="0" data-param="${escapeXml(name)}" aria-label="${escapeXml(context.translateData(p.label))}" ` +
    `aria-valuemin="${p.min}" aria-valuemax="${p.max}" aria-valuenow="${p.value}" aria-valuetext="${escapeXml(valueText)}">${escapeXml(text)}</span>`
  );
}

/**
 * The text repeating a parameter (or a position derived from the reader's), {{echo:NAME}}: the
 * lesson's value, rewritten by prose-params.js when its section's parameter moves.
 */
function renderParameterEcho(context, name) {
  context.echoNames.push(name);
  const echo = context.parameterEchoes?.[name];
  if (!echo) return escapeXml(name);
  const defaults = Object.fromEntries(Object.entries(context.liveParameters ?? {}).map(([n, p]) => [n, p.value]));
  return `<span class="param-echo" data-echo="${escapeXml(name)}">${escapeXml(formatValue(echo.value(defaults), echo.format))}</span>`;
}

/**
 * A term linked to a part of a chart, {{part:CHART/PART|TEXT}}: a link to the figure; pointing at
 * it or focusing it highlights that part of the figure, and the figure's own `chart-part` events mark the term
 * (web/js/prose/prose-links.js). The chart and part are checked by checkKnownNames.
 */
function renderPartLink(context, target, text) {
  const [chart, part, ...rest] = target.split('/');
  if (!chart || !part || rest.length || !text)
    throw new Error(`lesson.md: {{part:${target}|${text ?? ''}}} must read {{part:CHART/PART|TEXT}}`);
  context.partLinks.push({ chart, part });
  // A link to the figure: it has a role and a name, and following it shows the part it names.
  return (
    `<a class="part-link" href="#fig-${escapeXml(chart)}" data-part-chart="${escapeXml(chart)}" data-part="${escapeXml(part)}">` +
    `${escapeXml(text)}</a>`
  );
}

/**
 * What a chart slot says where scripts do not run (the page without JavaScript, some readers and
 * search engines): the caption below describes the figure; the text's numbers are printed in full.
 * Inside <noscript>, so with scripts on it is neither rendered nor counted as elements.
 */
function chartNoScriptNote(t) {
  // One literal: tests/node/interface-strings.test.mjs reads the text from the call.
  const note = t(
    'This figure is drawn in your browser by the lesson’s engine, which needs JavaScript. Its caption below says what it shows; every number in the text is printed in full.',
  );
  return `<noscript><p class="chart-noscript">${escapeText(note)}</p></noscript>`;
}

/**
 * The text a live number has in the built page: the build engine's value in the page's own format
 * (context.liveText(name, format), see build-site.mjs) so a reader without JavaScript, a printout
 * and a search engine get the number; the browser recomputes it and compares. Without a build
 * engine (or for a name the registry lacks, which checkKnownNames reports) the placeholder.
 */
function liveDefaultText(context, name, format) {
  if (!context.liveText || !context.liveQuantities?.includes(name))
    return { text: LIVE_PLACEHOLDER, prerendered: false };
  try {
    return { text: context.liveText(name, format), prerendered: true };
  } catch (error) {
    throw new Error(`lesson.md: the live number "${name}" could not be computed for the page: ${error.message}`);
  }
}

/** The texts a {{lab-table:…}} writes (lab-results.mjs), in the page's language. */
function labTableWords(t) {
  return {
    scheme: t('scheme'),
    variants: {
      none: t('no positions'),
      learned: t('learned table'),
      sinusoidal: t('sinusoidal'),
      rope: 'RoPE',
      'rope+pi': t('RoPE, interpolated'),
      'rope+ntk': t('RoPE, NTK-aware base'),
      'rope+yarn': t('RoPE, YaRN'),
      alibi: 'ALiBi',
    },
    tasks: { lookup: t('lookup'), copy: t('copy'), 'last-write': t('last-write') },
    cell: (median, quartiles) => t('{median} ({quartiles})', { median, quartiles }),
    caption: (facts) =>
      t(
        'Accuracy on the {task} task at {first}× to {last}× the trained length of {length} tokens: the median of {seeds} seeds, with the quartiles in brackets; model width {width}, {steps} training steps, native build. Written by `{command}`.',
        facts,
      ),
  };
}

function createMarkdown(context) {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
  const { t } = context;
  mathPlugin(md, context);
  markerPlugin(md, context);
  const tableLabels = new Map();
  // Each table's scroll box is a named region (landmark names must differ): named by its columns.
  md.renderer.rules.table_open = (tokens, idx) => {
    const headers = [];
    for (let i = idx + 1; i < tokens.length && tokens[i].type !== 'thead_close'; i++) {
      if (tokens[i].type === 'inline') headers.push(tokens[i].content.replace(/[*`$\\]/g, '').trim());
    }
    let heading = '';
    for (let i = idx - 1; i >= 0 && !heading; i--)
      if (tokens[i].type === 'heading_open')
        heading = tokens[i + 1].content
          .replace(/\s*\{#[^}]*\}\s*$/, '')
          .replace(/[*`$\\]/g, '')
          .trim();
    const named = headers.filter(Boolean);
    const columns = named.length
      ? named.reduce((list, item) => t('{list}, {item}', { list, item }))
      : t('lesson table');
    const base = heading ? t('Table: {columns} ({heading})', { columns, heading }) : t('Table: {columns}', { columns });
    const seen = (tableLabels.get(base) ?? 0) + 1;
    tableLabels.set(base, seen);
    const label = seen > 1 ? t('{label}, {count}', { label: base, count: seen }) : base;
    // Each body cell carries its column's heading, which a stacked row shows beside the value.
    let column = 0;
    let cells = 0;
    let chars = 0;
    for (let i = idx + 1; i < tokens.length && tokens[i].type !== 'table_close'; i++) {
      if (tokens[i].type === 'tr_open') column = 0;
      if (tokens[i].type === 'td_open') {
        tokens[i].attrSet('data-label', headers[column++] ?? '');
        chars += tokens[i + 1].content.length;
        cells++;
      }
    }
    const stacked = headers.length >= 4 && cells && chars / cells > PROSE_CELL_CHARS ? ' table-stack' : '';
    return `<div class="table-wrap${stacked}" role="region" aria-label="${escapeXml(label)}" tabindex="0"><table>\n`;
  };
  md.renderer.rules.table_close = () => '</table></div>\n';
  md.renderer.rules.fence = (tokens, idx) => renderFence(tokens[idx], context, md);
  const defaultLink =
    md.renderer.rules.link_open ?? ((tokens, idx, options, env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const href = tokens[idx].attrGet('href') ?? '';
    if (/^https?:/.test(href)) tokens[idx].attrSet('rel', 'noopener');
    return defaultLink(tokens, idx, options, env, self);
  };
  return md;
}

// ---- fences: diagrams, chart slots, checked snippets --------------------------------------

function renderFence(token, context, md) {
  const { t } = context;
  const [lang, ...args] = token.info.trim().split(/\s+/);
  if (lang === 'diagram') {
    const id = args[0];
    const spec = context.diagrams[id];
    if (!spec) throw new Error(`lesson.md: diagram ${id} is not described in diagrams.json`);
    context.diagramIds.push(id);
    return renderDiagramFigure(id, spec, { t, translateData: context.translateData });
  }
  if (lang === 'chart') {
    const id = args[0];
    if (!/^[a-z0-9-]+$/.test(id ?? '')) throw new Error(`lesson.md: a chart fence needs an id, got "${token.info}"`);
    context.chartIds.push(id);
    const caption = md.renderInline(token.content.trim());
    return (
      `<figure class="chart-slot" id="fig-${id}" data-chart="${id}">` +
      `<div class="chart-mount" data-chart-mount="${id}">${chartNoScriptNote(t)}</div>` +
      `<figcaption>${caption}</figcaption></figure>\n`
    );
  }
  if (lang === 'python')
    return renderSnippet(token.content, Object.fromEntries(args.map((a) => a.split('='))), context);
  const language = hljs.getLanguage(lang) ? lang : 'plaintext';
  const body = language === 'plaintext' ? escapeXml(token.content) : hljs.highlight(token.content, { language }).value;
  // tabindex: a code block that scrolls sideways must be reachable from the keyboard.
  return `<pre tabindex="0" role="region" aria-label="${escapeText(t('Code'))}"><code class="hljs language-${language}">${body}</code></pre>\n`;
}

/** The comments a Python snippet explains itself with: each `# …` but the claims (`# → …`). */
export function snippetComments(code) {
  return [...code.matchAll(/#[ \t]*(?![ \t→])([^\n]+)$/gm)].map((m) => m[1].trim());
}

/**
 * A highlighted snippet's explaining comments in the page's language (translateData: the lesson's
 * data texts; interface-strings.test.mjs holds every language to them); the claims stay as written.
 */
function translateComments(html, context) {
  const decode = (text) =>
    text.replace(/&(#x[\da-f]+|lt|gt|amp|quot);/gi, (_, name) =>
      name[0] === '#'
        ? String.fromCodePoint(parseInt(name.slice(2), 16))
        : { lt: '<', gt: '>', amp: '&', quot: '"' }[name.toLowerCase()],
    );
  return html.replace(
    /<span class="hljs-comment"># (?!→)([^<]*)<\/span>/g,
    (_, text) => `<span class="hljs-comment"># ${escapeXml(context.translateData(decode(text).trim()))}</span>`,
  );
}

// The claim after "# → " in each line becomes a span the page compares with the engine; its comment
// is marked as a result (on a phone it starts a line of its own, lesson.css).
function markClaims(html) {
  let index = 0;
  const out = html.replace(
    /<span class="hljs-comment">(# → )(.*?)(<\/span>)/g,
    (_, open, claim, close) =>
      `<span class="hljs-comment result-comment">${open}<span class="claim" data-claim-index="${index++}">${claim}</span>${close}`,
  );
  return { html: out, count: index };
}

function renderSnippet(code, options, context) {
  const { t } = context;
  const id = options.check;
  if (!id) throw new Error('lesson.md: every python snippet needs check=ID');
  if (context.snippetIds.includes(id)) throw new Error(`lesson.md: snippet id ${id} is used twice`);
  context.snippetIds.push(id);
  const { html, count } = markClaims(translateComments(hljs.highlight(code, { language: 'python' }).value, context));
  if (count === 0) throw new Error(`lesson.md: snippet ${id} has no "# → " claim to check`);
  const functions = options.cpp ? options.cpp.split(',') : [];
  const tabs = [
    {
      key: 'python',
      label: t('Python (the lesson)'),
      body: `<pre><code class="hljs language-python">${html}</code></pre>`,
    },
  ];
  if (functions.length) {
    const blocks = functions.map((name) => {
      const snippet = context.cppSnippets.get(name);
      if (!snippet) {
        context.missingSnippets.push(name);
        const missing = t('{function}: source not found in cpp/src when the site was built.', {
          function: `positional::${name}`,
        });
        return `<p class="snippet-source">${escapeXml(missing)}</p>`;
      }
      const source = hljs.highlight(snippet.code, { language: 'cpp' }).value;
      const where = t('{function} in {file}', {
        function: `<code>positional::${escapeXml(name)}</code>`,
        file: `<code>${escapeXml(snippet.file)}</code>`,
      });
      return `<p class="snippet-source">${where}</p><pre><code class="hljs language-cpp">${source}</code></pre>`;
    });
    tabs.push({ key: 'cpp', label: t('C++ (the engine)'), body: blocks.join('') });
  }
  const tablist = tabs
    .map(
      (tab, i) =>
        `<button type="button" role="tab" id="tab-${id}-${tab.key}" aria-controls="panel-${id}-${tab.key}" aria-selected="${i === 0}" tabindex="${i === 0 ? 0 : -1}">${escapeText(tab.label)}</button>`,
    )
    .join('');
  // A panel other than the first is hidden until its tab is chosen, so its code goes in a <template>
  // (reading-controls.js puts it in the page then): hidden, its 50-130 elements of highlighted code
  // were laid out for no one, and a page without scripts never shows it either.
  const panels = tabs
    .map(
      (tab, i) =>
        `<div class="snippet-panel" role="tabpanel" id="panel-${id}-${tab.key}" aria-labelledby="tab-${id}-${tab.key}" tabindex="0"${i === 0 ? `>${tab.body}` : ` hidden><template>${tab.body}</template>`}</div>`,
    )
    .join('');
  return (
    `<div class="snippet" id="snippet-${id}" data-check="${id}" data-claims="${count}">` +
    `<div class="snippet-bar"><div class="snippet-tabs" role="tablist" aria-label="${escapeText(t("Code: the lesson's Python and the engine's C++"))}">${tablist}</div>` +
    `<span class="check-badge" data-check-status="pending">${escapeText(t('not checked yet'))}</span></div>${panels}</div>\n`
  );
}

// ---- structure: sections, containers, table of contents ------------------------------------

/** Splits markdown into lines grouped under headings, keeping code fences intact. */
function parseSections(markdown) {
  const root = { level: 0, id: 'top', title: '', lines: [], children: [] };
  const stack = [root];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    const m = !inFence && HEADING.exec(line);
    if (m) {
      const level = m[1].length;
      const node = { level, title: m[2], id: m[3], lines: [], children: [] };
      while (stack.at(-1).level >= level) stack.pop();
      stack.at(-1).children.push(node);
      stack.push(node);
    } else stack.at(-1).lines.push(line);
  }
  return root;
}

/** Renders a section body, turning ::: containers into the walkthrough, the self-test blocks and the margin notes. */
function renderBody(lines, md, context) {
  const out = [];
  let buffer = [];
  let inFence = false;
  const stack = [];
  const flush = () => {
    const text = buffer.join('\n');
    buffer = [];
    if (!text.trim()) return;
    const html = md.render(text);
    if (stack.length) stack.at(-1).parts.push(html);
    else out.push(html);
  };
  for (const line of lines) {
    if (FENCE.test(line)) inFence = !inFence;
    const open = !inFence && CONTAINER_OPEN.exec(line);
    if (open) {
      flush();
      stack.push({ kind: open[1], title: open[2] ?? '', parts: [] });
      continue;
    }
    if (!inFence && CONTAINER_CLOSE.test(line) && stack.length) {
      flush();
      const node = stack.pop();
      const html = renderContainer(node, md, context);
      if (stack.length) stack.at(-1).parts.push({ node, html });
      else out.push(html);
      continue;
    }
    buffer.push(line);
  }
  flush();
  if (stack.length) throw new Error(`lesson.md: ::: ${stack.at(-1).kind} is never closed`);
  return out.join('');
}

function renderContainer(node, md, context) {
  const { t } = context;
  const text = (parts) => parts.map((p) => (typeof p === 'string' ? p : p.html)).join('');
  if (node.kind === 'question') {
    context.questionCount++;
    return `<details class="self-test"><summary>${md.renderInline(node.title)}</summary><div class="self-test-answer">${text(node.parts)}</div></details>\n`;
  }
  if (node.kind === 'step') return text(node.parts);
  // The lesson's first question as something to do (web/js/page/first-question.js adds its fields
  // once the engine is in); its text, live numbers included, reads whole without them.
  if (node.kind === 'try') {
    if (!node.title) throw new Error('lesson.md: ::: try needs a title');
    return `<div class="first-question" data-first-question role="group" aria-label="${escapeXml(node.title)}"><p class="first-question-title">${md.renderInline(node.title)}</p>${text(node.parts)}${firstQuestionFieldsHtml(t, escapeText)}</div>\n`;
  }
  // Text a reader may skip, folded under its title.
  if (node.kind === 'fold') {
    if (!node.title) throw new Error('lesson.md: ::: fold needs a title');
    return `<details class="fold"><summary>${md.renderInline(node.title)}</summary>${text(node.parts)}</details>\n`;
  }
  // An aside (a symbol table, a pointer elsewhere): in the text on narrow screens, in the margin
  // beside it on wide ones. role="note": parenthetic to the text, and not a landmark of its own.
  if (node.kind === 'aside') {
    const title = node.title ? `<p class="margin-note-title">${md.renderInline(node.title)}</p>` : '';
    return `<div class="margin-note" role="note"${node.title ? ` aria-label="${escapeXml(node.title)}"` : ''}>${title}${text(node.parts)}</div>\n`;
  }
  // walkthrough: its children are steps
  const steps = node.parts.filter((p) => typeof p !== 'string');
  const total = steps.length;
  context.walkthroughSteps = total;
  const body = steps
    .map(({ node: step, html }, i) => {
      const n = i + 1;
      return `<section class="walkthrough-step" id="walkthrough-step-${n}" data-step="${n}" aria-labelledby="walkthrough-step-${n}-title"><h4 id="walkthrough-step-${n}-title"><span class="walkthrough-count">${escapeText(t('Step {step} of {steps}.', { step: n, steps: total }))}</span> ${md.renderInline(step.title)}</h4>${html}</section>`;
    })
    .join('');
  return (
    `<div class="walkthrough" data-walkthrough>` +
    `<div class="walkthrough-controls" hidden><button type="button" data-walk="prev">${escapeText(t('← Previous'))}</button>` +
    `<span class="walkthrough-status" aria-live="polite">${escapeText(t('Step {step} of {steps}', { step: 1, steps: total }))}</span>` +
    `<button type="button" data-walk="next">${escapeText(t('Next →'))}</button></div>${body}</div>\n`
  );
}

function permalink(id, title, t) {
  return `<a class="permalink" href="#${id}" aria-label="${escapeXml(t('Link to this section: {title}', { title }))}">#</a>`;
}

/**
 * A heading's HTML with each name made of a word, a hyphen and a number (GPT-2, Llama-3.1) in a
 * span that never wraps: browsers may break a line after the hyphen, which in a Chinese heading or
 * the contents leaves "（GPT-" over "2、BERT）". Text inside tags is left alone; a heading with
 * maths is left as it is.
 */
export function keepNamesWhole(html) {
  if (html.includes('katex')) return html;
  return html.replace(/(<[^>]*>)|([A-Za-z][A-Za-z0-9]*(?:-[0-9](?:[A-Za-z0-9]|\.[0-9])*)+)/g, (whole, tag, name) =>
    tag ? tag : `<span class="keep-whole">${name}</span>`,
  );
}

function renderSection(node, md, context, levelAttr) {
  const level = node.id === 'level-1' ? '1' : node.id === 'level-2' ? '2' : levelAttr;
  const titleHtml = keepNamesWhole(md.renderInline(node.title));
  context.headings.push({ id: node.id, level: node.level, title: node.title, titleHtml, dataLevel: level });
  const tag = `h${node.level}`;
  const children = node.children.map((c) => renderSection(c, md, context, level)).join('');
  return (
    `<section id="${node.id}" class="lesson-section depth-${node.level}" data-level="${level}" aria-labelledby="${node.id}-title">` +
    `<${tag} id="${node.id}-title">${titleHtml} ${permalink(node.id, node.title, context.t)}</${tag}>` +
    (context.levelTimes?.[node.id]
      ? `<div class="section-time">${escapeText(context.levelTimes[node.id])}</div>`
      : '') +
    `${renderBody(node.lines, md, context)}${children}</section>\n`
  );
}

/**
 * The contents, a list of the sections' links; with `minutes` (section id → minutes to read it,
 * subsections included), each link says how long its section takes.
 */
function renderToc(headings, minutes, t) {
  const items = headings.filter((h) => h.level >= 2);
  const time = (id) =>
    minutes?.[id] === undefined
      ? ''
      : ` <span class="toc-time">${escapeText(t('{minutes} min', { minutes: Math.max(1, Math.round(minutes[id])) }))}</span>`;
  let html = '';
  let open = 0;
  for (let i = 0; i < items.length; i++) {
    const h = items[i];
    const next = items[i + 1];
    html += `<li data-level="${h.dataLevel}"><a href="#${h.id}">${h.titleHtml}</a>${time(h.id)}`;
    if (next && next.level > h.level) {
      html += '<ol>';
      open++;
    } else {
      html += '</li>';
      if (next && next.level < h.level && open) {
        html += '</ol></li>';
        open--;
      }
    }
  }
  while (open-- > 0) html += '</ol></li>';
  return `<ol>${html}</ol>`;
}

/** The problems with {{param:…}} and {{echo:…}} names: each one LIVE_PARAMETERS (PARAMETER_ECHOES) lacks. */
function unknownParameters(context, liveParameters, parameterEchoes) {
  return [
    ...[...new Set(context.parameterNames)]
      .filter((name) => !Object.hasOwn(liveParameters ?? {}, name))
      .map((name) => `unknown live parameter "${name}" (not in LIVE_PARAMETERS, web/js/prose/live-values.js)`),
    ...[...new Set(context.echoNames)]
      .filter((name) => !Object.hasOwn(parameterEchoes ?? {}, name))
      .map((name) => `unknown echo "${name}" (not in PARAMETER_ECHOES, web/js/prose/live-values.js)`),
  ];
}

/** The problems with {{part:CHART/PART}} links: a chart the lesson does not place, or a part it does not draw. */
function unknownParts(context, chartParts) {
  const problems = [];
  for (const { chart, part } of context.partLinks) {
    if (!context.chartIds.includes(chart))
      problems.push(`{{part:${chart}/${part}}} links to chart "${chart}", which the lesson does not place`);
    else if (!(chartParts?.[chart] ?? []).includes(part))
      problems.push(
        `unknown part "${part}" of chart "${chart}" (its parts: ${(chartParts?.[chart] ?? []).join(', ') || 'none'})`,
      );
  }
  return problems;
}

/**
 * Throws, naming every offender, when the lesson uses a live number or a chart the page does not
 * have: the page would otherwise show a dash or an empty figure.
 */
function checkKnownNames(context, { liveQuantities, charts, liveParameters, parameterEchoes, chartParts, liveClaims }) {
  if (!liveQuantities || !charts)
    throw new Error('renderLesson: pass liveQuantities (live-values.js) and charts (charts/index.js)');
  if ((context.parameterNames.length || context.echoNames.length) && (!liveParameters || !parameterEchoes))
    throw new Error(
      'renderLesson: the lesson has {{param:…}} or {{echo:…}} markers: pass liveParameters and parameterEchoes (live-values.js)',
    );
  if (context.partLinks.length && !chartParts)
    throw new Error(
      'renderLesson: the lesson has {{part:…}} markers: pass chartParts (web/site-builder/chart-parts.mjs)',
    );
  const live = new Set(liveQuantities);
  const chartIds = new Set(charts);
  const problems = [
    ...[...context.liveNames]
      .filter((name) => !live.has(name))
      .map((name) => `unknown live number "${name}" (not in LIVE_QUANTITIES, web/js/prose/live-values.js)`),
    ...context.chartIds
      .filter((id) => !chartIds.has(id))
      .map((id) => `unknown chart "${id}" (not in CHARTS, web/js/charts/index.js)`),
    ...unknownParameters(context, liveParameters, parameterEchoes),
    ...unknownParts(context, chartParts),
    ...[...new Set(context.claimNames)]
      .filter((name) => !Object.hasOwn(liveClaims ?? {}, name))
      .map((name) => `unknown claim "${name}" (not in LIVE_CLAIMS, web/js/prose/live-values.js)`),
    ...context.openClaims.map(({ name }) => `{{when:${name}}} has no {{end}}`),
  ];
  if (problems.length) throw new Error(`lesson.md: ${problems.join('; ')}`);
}

/**
 * Renders the lesson. Returns { title, summaryHtml, headerHtml, bodyHtml, tocHtml } plus the
 * inventory the tests and the builder check (liveNames, diagramIds, chartIds, snippetIds, …).
 * Throws on an unknown marker, live number, chart, diagram, link id or a KaTeX error. With
 * liveText(name, format) every live number's text is written into the page (else a placeholder).
 * `language` ({ code, interface }, from build-site.mjs's lessonLanguages()) is the page's language:
 * the texts the renderer itself writes (labels, captions, the walkthrough's controls) come from its
 * interface table, web/i18n/CODE/*.json. English by default. `labResults` is the length lab's results
 * for the {{lab:…}}, {{lab-setup:…}} and {{lab-table:…}} markers (lab-results.mjs), read from the
 * committed file when not given and the lesson has such a marker. `readingMinutes` (section id →
 * minutes, time-on-task.mjs's sectionMinutes) puts each section's reading time in the contents;
 * `levelMinutes` ({ 'level-1', 'level-2' }: whole minutes) is said under each level's heading.
 */
export function renderLesson(
  markdown,
  {
    diagrams,
    links,
    cppSnippets,
    liveQuantities,
    charts,
    liveText,
    liveParameters,
    parameterEchoes,
    chartParts,
    liveClaims,
    labResults,
    readingMinutes,
    levelMinutes,
    language = { code: 'en', interface: {} },
  },
) {
  const t = (english, params) => translate(language.interface ?? {}, language.code, english, params);
  // The lesson's data in the page's language (diagram titles and labels from diagrams.json): texts
  // read from a file, not written in a call, which tests/node/interface-strings collects from there.
  const translateData = (english) => translate(language.interface ?? {}, language.code, english);
  const context = {
    t,
    translateData,
    // How long each level takes (levelMinutes: { 'level-1', 'level-2' } in whole minutes), said under its heading.
    levelTimes: levelMinutes && {
      'level-1': t('About {minutes} minutes on its own, with the summary and the Level 1 questions.', {
        minutes: levelMinutes['level-1'],
      }),
      'level-2': t('About {minutes} minutes to read.', { minutes: levelMinutes['level-2'] }),
    },
    liveText,
    liveQuantities,
    liveParameters,
    parameterEchoes,
    parameterNames: [],
    echoNames: [],
    claimNames: [],
    openClaims: [],
    partLinks: [],
    diagrams,
    links,
    cppSnippets,
    liveNames: new Set(),
    diagramIds: [],
    chartIds: [],
    snippetIds: [],
    missingSnippets: [],
    katexErrors: [],
    headings: [],
    questionCount: 0,
    walkthroughSteps: 0,
  };
  const md = createMarkdown(context);
  // The lab's numbers are text like any other by the time markdown-it reads them (a table marker
  // becomes a markdown table); the opening comment, which names the markers, is gone first.
  const commentless = markdown.replace(/^<!--[\s\S]*?-->\s*/, '');
  const source = hasLabMarkers(commentless)
    ? expandLabMarkers(commentless, labResults ?? loadLabResults(), labTableWords(t))
    : commentless;
  const root = parseSections(source);
  const top = root.children[0];
  if (!top || top.level !== 1) throw new Error('lesson.md: must start with one "# Title {#top}" heading');
  const headerHtml = renderBody(top.lines, md, context);
  // Each self-test item is drawn by web/js/self-test/self-test.js; until it is (or where scripts never run) its place says so.
  const fallback = `<p class="graded-fallback">${escapeText(t('This question is answered and checked by the page’s scripts, which have not run here.'))}</p>`;
  const sections = top.children
    .map((c) => renderSection(c, md, context, 'all'))
    .join('')
    .replace(/(<div class="graded-item" data-item="[A-Za-z0-9_.]+">)(<\/div>)/g, `$1${fallback}$2`);
  if (context.katexErrors.length) throw new Error(`lesson.md: KaTeX failed:\n${context.katexErrors.join('\n')}`);
  checkKnownNames(context, { liveQuantities, charts, liveParameters, parameterEchoes, chartParts, liveClaims });
  // The lede: the header's first paragraph of its own (not the first question's, inside its box).
  const firstParagraph = /<p>([\s\S]*?)<\/p>/.exec(
    headerHtml.replace(/<div class="first-question"[\s\S]*?<\/div>\n/, ''),
  );
  return {
    title: top.title,
    titleHtml: md.renderInline(top.title),
    summaryText: firstParagraph ? firstParagraph[1].replace(/<[^>]+>/g, '') : '',
    headerHtml,
    bodyHtml: sections,
    tocHtml: renderToc(context.headings, readingMinutes, t),
    ...context,
  };
}

/**
 * Moves every style="…" attribute into a generated class (KaTeX emits them; the page's CSP
 * forbids them). Declarations get !important so they keep the precedence an inline style had.
 * Returns { html, css }; the classes are `prefix`0, `prefix`1 … (each language's page has its own prefix).
 */
export function hoistInlineStyles(html, prefix = 'ks') {
  const classes = new Map();
  const out = html.replace(
    /<([a-zA-Z][\w:-]*)(\s[^<>]*?)?\sstyle="([^"]*)"([^<>]*)>/g,
    (whole, tag, before = '', style, after) => {
      const decls = style
        .split(';')
        .map((d) => d.trim())
        .filter(Boolean)
        .map((d) => `${d} !important`)
        .join(';');
      if (!classes.has(decls)) classes.set(decls, `${prefix}${classes.size}`);
      const cls = classes.get(decls);
      let attrs = `${before}${after}`;
      if (/\sclass="/.test(attrs)) attrs = attrs.replace(/\sclass="([^"]*)"/, (_, c) => ` class="${c} ${cls}"`);
      else attrs = ` class="${cls}"${attrs}`;
      return `<${tag}${attrs}>`;
    },
  );
  if (/\sstyle="/.test(out)) throw new Error('hoistInlineStyles: a style attribute survived');
  const css = [...classes].map(([decls, cls]) => `.${cls}{${decls}}`).join('\n');
  return { html: out, css };
}
