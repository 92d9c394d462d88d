// What a translation of web/lesson/lesson.md must carry over unchanged: the inventory of a lesson's
// markers, figures, snippets, formulas and sections, and the comparison of a translation's inventory
// with the English one (used by tests/node/lesson-translations.test.mjs, later by per-language builds).

const HEADING = /^(#{1,3}) (.+?) \{#([a-z0-9-]+)\}\s*$/;
const CONTAINER = /^::: (walkthrough|step|question)\b/;
const MARKER = /\{\{(live|derived|lab|lab-setup|lab-table|ref|link-only|param|echo|part):([^|}]+)(?:\|([^}]+))?\}\}/g;
const INLINE_CODE = /(`+)([\s\S]*?)\1/g;
const INLINE_MATH = /\$([^$\n]+)\$/g;

/**
 * The ordered inventory of a lesson's markdown. Each entry is { key, section } where key is what
 * must match and section the id of the heading it sits under (for messages). Ordered lists:
 * sections (level and id), containers, numbers ({{live:…}} / {{derived:…}} with their format, and the
 * length lab's {{lab:…}} / {{lab-setup:…}} / {{lab-table:…}}),
 * references ({{ref:…}} / {{link-only:…}} ids; their text is translated), charts, diagrams, snippets
 * (info string), snippet code, display maths, graded items. Unordered (multisets, since a sentence
 * may put its parts in another order): inline maths, inline code, link targets. Unordered but held
 * to their section (a handle moves its own section's numbers and figure): prose parameters
 * ({{param:…}}, the handles), their echoes ({{echo:…}}) and words linked to a figure's part
 * ({{part:CHART/PART|…}}, the target; the words are translated).
 */
export function lessonInventory(markdown) {
  const inv = {
    sections: [],
    containers: [],
    numbers: [],
    references: [],
    charts: [],
    diagrams: [],
    snippets: [],
    snippetCode: [],
    displayMaths: [],
    gradedItems: [],
    inlineMaths: [],
    inlineCode: [],
    linkTargets: [],
    parameters: [],
    echoes: [],
    partLinks: [],
  };
  const lines = markdown.replace(/^<!--[\s\S]*?-->\s*/, '').split('\n');
  let section = 'top';
  const add = (list, key) => inv[list].push({ key, section });
  const prose = (text) => {
    for (const m of text.matchAll(MARKER)) {
      if (['live', 'derived', 'lab', 'lab-setup', 'lab-table'].includes(m[1]))
        add('numbers', `${m[1]}:${m[2]}${m[3] ? `|${m[3]}` : ''}`);
      else if (m[1] === 'param') add('parameters', m[2]);
      else if (m[1] === 'echo') add('echoes', m[2]);
      else if (m[1] === 'part') add('partLinks', m[2]);
      else add('references', `${m[1]}:${m[2]}`);
    }
    const withoutCode = text.replace(INLINE_CODE, (whole, ticks, code) => {
      add('inlineCode', code);
      return ' ';
    });
    for (const m of withoutCode.matchAll(INLINE_MATH)) add('inlineMaths', m[1]);
    for (const m of withoutCode.matchAll(/\]\(([^)\s]+)\)|<(https?:[^>\s]+)>|href="([^"]+)"/g)) {
      add('linkTargets', m[1] ?? m[2] ?? m[3]);
    }
    for (const m of text.matchAll(/data-item="([^"]+)"/g)) add('gradedItems', m[1]);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('```')) {
      const [lang, ...args] = line.slice(3).trim().split(/\s+/);
      const body = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      if (lang === 'chart') {
        add('charts', args[0]);
        prose(body.join('\n'));
      } else if (lang === 'diagram') add('diagrams', args[0]);
      else {
        add('snippets', line.slice(3).trim());
        add('snippetCode', body.join('\n'));
      }
      continue;
    }
    if (line.trim() === '$$') {
      const body = [];
      for (i++; i < lines.length && lines[i].trim() !== '$$'; i++) body.push(lines[i]);
      add('displayMaths', body.join('\n'));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      section = heading[3];
      add('sections', `h${heading[1].length}#${heading[3]}`);
      prose(heading[2]);
      continue;
    }
    const container = CONTAINER.exec(line);
    if (container) {
      add('containers', container[1]);
      prose(line.slice(container[0].length));
      continue;
    }
    prose(line);
  }
  return inv;
}

const ORDERED = [
  'sections',
  'containers',
  'numbers',
  'references',
  'charts',
  'diagrams',
  'snippets',
  'snippetCode',
  'displayMaths',
  'gradedItems',
];
const UNORDERED = ['inlineMaths', 'inlineCode', 'linkTargets'];
const IN_SECTION = ['parameters', 'echoes', 'partLinks'];

const show = ({ key, section }) => `${JSON.stringify(key.length > 60 ? `${key.slice(0, 57)}...` : key)} (#${section})`;

/**
 * Entries of `a` left over once each entry of `b` has cancelled one with the same key, pairing
 * entries of the same section first so that what is reported sits where the change was made.
 */
function leftOver(a, b) {
  const bySection = new Map();
  const byKey = new Map();
  for (const { key, section } of b) {
    bySection.set(`${section} ${key}`, (bySection.get(`${section} ${key}`) ?? 0) + 1);
  }
  const rest = a.filter(({ key, section }) => {
    const n = bySection.get(`${section} ${key}`) ?? 0;
    if (n) bySection.set(`${section} ${key}`, n - 1);
    return !n;
  });
  for (const [sectionKey, n] of bySection) {
    const key = sectionKey.slice(sectionKey.indexOf(' ') + 1);
    byKey.set(key, (byKey.get(key) ?? 0) + n);
  }
  return rest.filter(({ key }) => {
    const n = byKey.get(key) ?? 0;
    if (n) byKey.set(key, n - 1);
    return !n;
  });
}

/** Entries of `a` left over once each entry of `b` in the same section has cancelled one with the same key. */
function leftOverInSection(a, b) {
  const counts = new Map();
  for (const { key, section } of b) counts.set(`${section} ${key}`, (counts.get(`${section} ${key}`) ?? 0) + 1);
  return a.filter(({ key, section }) => {
    const n = counts.get(`${section} ${key}`) ?? 0;
    if (n) counts.set(`${section} ${key}`, n - 1);
    return !n;
  });
}

/**
 * Compares a translation's inventory with the source's. Returns a list of problems, each naming
 * the kind, what is missing or extra and the section it belongs to; empty when they agree.
 */
export function compareInventories(source, translation) {
  const problems = [];
  for (const kind of [...ORDERED, ...UNORDERED]) {
    const missing = leftOver(source[kind], translation[kind]);
    const extra = leftOver(translation[kind], source[kind]);
    for (const e of missing) problems.push(`${kind}: missing ${show(e)}`);
    for (const e of extra) problems.push(`${kind}: extra ${show(e)}`);
    if (missing.length || extra.length || !ORDERED.includes(kind)) continue;
    const at = source[kind].findIndex((e, i) => e.key !== translation[kind][i].key);
    if (at >= 0) {
      problems.push(
        `${kind}: order differs at #${at + 1}: the source has ${show(source[kind][at])}, the translation ${show(translation[kind][at])}`,
      );
    }
  }
  for (const kind of IN_SECTION) {
    for (const e of leftOverInSection(source[kind], translation[kind])) problems.push(`${kind}: missing ${show(e)}`);
    for (const e of leftOverInSection(translation[kind], source[kind])) problems.push(`${kind}: extra ${show(e)}`);
  }
  return problems;
}

/**
 * What a rendered lesson (render-lesson.mjs's headerHtml + bodyHtml) lets the reader explore, for
 * comparing two languages' pages: one entry per live number (`live:NAME|FORMAT`), handle
 * (`param:NAME`), echo (`echo:NAME`) and link (`link:TARGET`, a figure part's link as
 * `link:#fig-CHART/PART`), each as { key, section } with the id of the innermost section it sits in.
 */
export function renderedInventory(html) {
  const found = [];
  const sections = ['top'];
  const attr = (tag, name) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  for (const [tag] of html.matchAll(/<\/section>|<(?:section|span|a)\s[^>]*>/g)) {
    if (tag === '</section>') {
      if (sections.length > 1) sections.pop();
      continue;
    }
    const section = sections[sections.length - 1];
    if (tag.startsWith('<section')) sections.push(attr(tag, 'id') ?? section);
    else if (attr(tag, 'data-live'))
      found.push({
        key: `live:${attr(tag, 'data-live')}${attr(tag, 'data-format') ? `|${attr(tag, 'data-format')}` : ''}`,
        section,
      });
    else if (attr(tag, 'data-param')) found.push({ key: `param:${attr(tag, 'data-param')}`, section });
    else if (attr(tag, 'data-echo')) found.push({ key: `echo:${attr(tag, 'data-echo')}`, section });
    else if (tag.startsWith('<a') && attr(tag, 'href')) {
      const part = attr(tag, 'data-part');
      found.push({ key: `link:${attr(tag, 'href')}${part ? `/${part}` : ''}`, section });
    }
  }
  return found;
}

/** The entries of two renderedInventory() lists that the other lacks in the same section: a list of problems. */
export function compareRendered(source, translation) {
  return [
    ...leftOverInSection(source, translation).map((e) => `missing ${show(e)}`),
    ...leftOverInSection(translation, source).map((e) => `extra ${show(e)}`),
  ];
}

/**
 * The numbers typed in a lesson's prose (chart captions included): everything outside markers,
 * code, maths, HTML tags, URLs and section ids. A translation's typed numbers must all appear in
 * the English prose: a number the lesson computes comes from a {{live:…}} marker, never the keyboard.
 */
export function proseNumbers(markdown) {
  const numbers = new Set();
  let inFence = false;
  let inMath = false;
  let keepFence = false;
  for (const line of markdown.replace(/^<!--[\s\S]*?-->\s*/, '').split('\n')) {
    if (line.startsWith('```')) {
      inFence = !inFence;
      keepFence = inFence && line.startsWith('```chart');
      continue;
    }
    if (!inFence && line.trim() === '$$') {
      inMath = !inMath;
      continue;
    }
    if ((inFence && !keepFence) || inMath) continue;
    const text = line
      .replace(/\{\{[^}]*\}\}/g, ' ')
      .replace(INLINE_CODE, ' ')
      .replace(INLINE_MATH, ' ')
      .replace(/<[^>]*>|\]\([^)]*\)|\{#[^}]*\}|https?:\S+/g, ' ');
    for (const m of text.matchAll(/\d+(?:[.,]\d+)*/g)) numbers.add(m[0]);
  }
  return numbers;
}
