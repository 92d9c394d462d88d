// The documentation as a newcomer meets it: a short README that reaches every page of docs/, and
// links (README, docs/, BENCHMARKS.md) that lead to files and headings that exist.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';

const repo = new URL('../../', import.meta.url).pathname;
const read = (path) => readFileSync(join(repo, path), 'utf8');
const DOCS = readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md'));
const PAGES = ['README.md', 'BENCHMARKS.md', ...DOCS.map((f) => `docs/${f}`)];

/** GitHub's anchor for a heading: lower case, punctuation but hyphens and underscores dropped, spaces as hyphens. */
const anchorOf = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of `markdown`'s headings (outside code fences). */
function anchors(markdown) {
  const found = new Set();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = !fence && /^#{1,6} (.+)$/.exec(line);
    if (m) found.add(anchorOf(m[1]));
  }
  return found;
}

/** Every relative link of `markdown` ([text](target) outside code): [{ target, file, anchor }]. */
function links(markdown) {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => {
      const [file, anchor] = target.split('#');
      return { target, file, anchor };
    });
}

test('the README is short and every page of docs/ is linked from it', () => {
  const readme = read('README.md');
  const lines = readme.split('\n').length;
  assert.ok(lines <= 200, `README.md has ${lines} lines`);
  for (const doc of DOCS) assert.ok(readme.includes(`(docs/${doc})`), `README.md does not link docs/${doc}`);
  assert.match(readme, /build-scripts\/run/);
  assert.match(readme, /build-scripts\/test/);
});

test('every relative link leads to a file, and every anchor to a heading in it', () => {
  const problems = [];
  for (const page of PAGES) {
    for (const { target, file, anchor } of links(read(page))) {
      const path = file ? normalize(join(dirname(page), file)) : page;
      if (!existsSync(join(repo, path))) {
        problems.push(`${page}: ${target} (no file ${path})`);
        continue;
      }
      if (anchor && path.endsWith('.md') && !anchors(read(path)).has(anchor))
        problems.push(`${page}: ${target} (no heading for #${anchor} in ${path})`);
    }
  }
  assert.deepEqual(problems, []);
});
