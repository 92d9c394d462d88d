// Time on task, estimated from the lesson's own text: the words a reader reads in each part of
// web/lesson/lesson.md at a steady reading pace, the lines of code at a slower one, and the
// self-test's questions, read and answered. The instructor guide prints the result; nothing is typed.
import { itemForAttempt, slotOf } from '../js/self-test/self-test-items.js';

/** Words a minute for prose, lines a minute for code and display formulas, minutes to work out a number. */
export const READING_PACE = { wordsPerMinute: 200, linesPerMinute: 10, minutesPerNumericCheck: 1 };

/** The text a marker shows: {{ref:ID|TEXT}} → TEXT, a live or derived number → one word. */
function markerText(markdown) {
  return markdown
    .replace(/\{\{(?:ref|link-only|part):[^|}]*\|([^}]*)\}\}/g, '$1')
    .replace(/\{\{(?:live|derived|param|echo):[^}]*\}\}/g, 'N');
}

/** Whether a token is a word: it holds a letter or a digit (punctuation and table rules are not). */
const isWord = (token) => /[\p{L}\p{N}]/u.test(token);

/**
 * The reading in `markdown` (a part of lesson.md): { words, codeLines, formulas }. Words are those
 * of the prose, headings, tables, asides and figure captions, with an inline formula as one word;
 * code lines are those of the snippets; each display formula counts as one line. HTML comments, tags,
 * link targets and the self-test's item placeholders are not read.
 */
export function readingOf(markdown) {
  let codeLines = 0;
  let formulas = 0;
  let text = markdown.replace(/<!--[\s\S]*?-->/g, ' ');
  // Fenced blocks: code is counted in lines; a chart's fence holds its caption, which is read; a diagram's is empty.
  text = text.replace(/^```(\w+)[^\n]*\n([\s\S]*?)^```\s*$/gm, (_, kind, body) => {
    if (kind === 'chart') return body;
    if (kind !== 'diagram') codeLines += body.split('\n').filter((l) => l.trim()).length;
    return ' ';
  });
  text = text.replace(/\$\$[\s\S]*?\$\$/g, () => {
    formulas += 1;
    return ' ';
  });
  text = text
    .replace(/\$[^$\n]+\$/g, 'X')
    .replace(/<div class="graded-item"[^>]*><\/div>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/\{#[\w-]+\}/g, ' ')
    .replace(/^:::\s*(walkthrough|step|question|aside|try|fold)?/gm, ' ');
  const words = markerText(text).split(/\s+/).filter(isWord).length;
  return { words, codeLines, formulas };
}

/** lesson.md cut at its level-2 headings (## …): [{ id, title, markdown }], the text before the first as id 'intro'. */
export function lessonParts(markdown) {
  const parts = [{ id: 'intro', title: '', markdown: '' }];
  for (const line of markdown.split('\n')) {
    const heading = /^## (.*?)\s*(?:\{#([\w-]+)\})?\s*$/.exec(line);
    if (heading) parts.push({ id: heading[2] ?? heading[1], title: heading[1], markdown: `${line}\n` });
    else parts[parts.length - 1].markdown += `${line}\n`;
  }
  return parts;
}

const minutesOf = ({ words, codeLines, formulas }) =>
  words / READING_PACE.wordsPerMinute + (codeLines + formulas) / READING_PACE.linesPerMinute;

/**
 * The minutes to read each section of `markdown` (lesson.md, the English the translations follow
 * section by section): { id → minutes } for every ## and ### heading with an {#id}, its subsections
 * included. Read from the English for every language's contents, so a section takes the same time
 * in each.
 */
export function sectionMinutes(markdown) {
  const lines = markdown.replace(/^<!--[\s\S]*?-->\s*/, '').split('\n');
  const headings = [];
  let inFence = false;
  lines.forEach((line, i) => {
    if (/^```/.test(line)) inFence = !inFence;
    const m = !inFence && /^(#{2,3}) .*?\{#([\w-]+)\}\s*$/.exec(line);
    if (m) headings.push({ level: m[1].length, id: m[2], start: i });
  });
  const minutes = {};
  headings.forEach((h, k) => {
    const end = headings.slice(k + 1).find((next) => next.level <= h.level)?.start ?? lines.length;
    minutes[h.id] = minutesOf(readingOf(lines.slice(h.start, end).join('\n')));
  });
  return minutes;
}

/** The self-test's items read (prompt, choices, tolerance) and answered: { items, words, numeric, minutes }. */
export function selfTestTime(bank) {
  // One attempt's items: a variant per slot (each slot's first; its others read about as long).
  const items = bank.filter((item) => slotOf(item) === item.id);
  const words = items
    // A numeric item's prompt as one attempt asks it: the draw changes its numbers, not its words.
    .map((item) => itemForAttempt(item, '00000000'))
    .map((item) => [item.prompt, item.toleranceText ?? '', ...(item.choices ?? []).map((c) => c.text)].join(' '))
    .join(' ')
    .split(/\s+/)
    .filter(isWord).length;
  const numeric = items.filter((item) => item.kind === 'numeric').length;
  return {
    items: items.length,
    words,
    numeric,
    minutes: words / READING_PACE.wordsPerMinute + numeric * READING_PACE.minutesPerNumericCheck,
  };
}

/**
 * The estimate for `markdown` (lesson.md) and the self-test's `items`: each part's reading and
 * minutes, and two paths: Level 1 alone (the opening, Level 1, the summary and the Level 1 check)
 * and both levels (everything but the reference lists, with every item). The papers and further
 * reading are left out: they are lists to come back to, not reading for the lesson.
 */
export function timeOnTask(markdown, items) {
  const parts = lessonParts(markdown).map((part) => {
    const reading = readingOf(part.markdown);
    return { ...part, ...reading, minutes: minutesOf(reading) };
  });
  const byId = Object.fromEntries(parts.map((p) => [p.id, p]));
  for (const id of ['intro', 'level-1', 'level-2', 'in-20-seconds', 'self-test'])
    if (!byId[id]) throw new Error(`time on task: lesson.md has no part "${id}" (a ## heading {#${id}})`);
  const reference = new Set(['papers', 'further-reading']);
  const level1Items = items.filter((item) => item.level === 1);
  const level1 =
    ['intro', 'level-1', 'in-20-seconds'].reduce((sum, id) => sum + byId[id].minutes, 0) +
    selfTestTime(level1Items).minutes;
  const read = parts.filter((p) => !reference.has(p.id));
  const both = read.reduce((sum, p) => sum + p.minutes, 0) + selfTestTime(items).minutes;
  return {
    pace: READING_PACE,
    parts: parts.map(({ id, title, words, codeLines, formulas, minutes }) => ({
      id,
      title,
      words,
      codeLines,
      formulas,
      minutes,
      reference: reference.has(id),
    })),
    selfTest: selfTestTime(items),
    level1Test: selfTestTime(level1Items),
    level1Minutes: level1,
    bothMinutes: both,
  };
}

/** A figure for people: whole minutes up to the next 5 ("about 35 minutes"). */
export function roundedMinutes(minutes) {
  return Math.max(5, Math.ceil(minutes / 5) * 5);
}
