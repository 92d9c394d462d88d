// How long each function of the page's modules, the site builder and the engine is, in lines from
// its first line (the signature) to its last (the closing brace), nested functions included: a
// function holding closures is as long as all of them. JavaScript is read with ESLint's parser,
// espree (pinned in package.json); C++ (clang-formatted: functions open at a namespace's level) by
// matching braces outside comments, strings and character literals.
// Usage: node tests/function-lengths.mjs [LIMIT]   (lists the functions over LIMIT lines, default 150)
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as espree from 'espree';

const repo = fileURLToPath(new URL('../', import.meta.url));

/** The folders read, and the file names they hold. */
export const SOURCES = [
  ['web/js', /\.js$/],
  ['web/site-builder', /\.mjs$/],
  ['cpp/src', /\.cpp$/],
  ['cpp/bindings', /\.cpp$/],
];

function files(dir, pattern) {
  const out = [];
  for (const entry of readdirSync(join(repo, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(path, pattern));
    else if (pattern.test(entry.name)) out.push(path);
  }
  return out;
}

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** The name a function is known by: its own, its variable's, its property's or method's. */
function nameOf(node, parent) {
  if (node.id) return node.id.name;
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if ((parent?.type === 'Property' || parent?.type === 'MethodDefinition') && parent.key)
    return parent.key.name ?? parent.key.value;
  return `(anonymous at line ${node.loc.start.line})`;
}

/** Every function of a JavaScript file: [{ name, line, lines }]. */
export function jsFunctions(path, text) {
  const tree = espree.parse(text, { ecmaVersion: 'latest', sourceType: 'module', loc: true });
  const found = [];
  const visit = (node, parent) => {
    if (FUNCTIONS.has(node.type)) {
      const line = node.loc.start.line;
      found.push({ name: nameOf(node, parent), line, lines: node.loc.end.line - line + 1 });
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) {
        for (const child of value) if (child && typeof child.type === 'string') visit(child, node);
      } else if (value && typeof value.type === 'string' && value !== parent) visit(value, node);
    }
  };
  visit(tree, null);
  return found;
}

/** `text` with comments, strings and character literals blanked (newlines kept). */
function codeOnly(text) {
  return text.replace(
    /R"([^(\s]*)\([\s\S]*?\)\1"|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/gm,
    (m) => m.replace(/[^\n]/g, ' '),
  );
}

/**
 * Every function body of a C++ file at a namespace's level: [{ name, line, lines }]. A brace opens
 * a function when what precedes it (since the last ; { or } at that level) has a parameter list and
 * is no class, struct, enum, union or initialiser.
 */
export function cppFunctions(path, text) {
  const code = codeOnly(text);
  const found = [];
  const lineAt = (i) => code.slice(0, i).split('\n').length;
  let headStart = 0;
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    if (c === ';' || c === '}') headStart = i + 1;
    if (c === '{') {
      const head = code.slice(headStart, i);
      const isFunction =
        /\)/.test(head) &&
        !/\bnamespace\b/.test(head) &&
        !/\b(class|struct|enum|union)\b/.test(head.split('(')[0]) &&
        !/=\s*$/.test(head);
      if (!isFunction) {
        headStart = i + 1;
        i += 1;
        continue;
      }
      let depth = 0;
      let j = i;
      for (; j < code.length; j++) {
        if (code[j] === '{') depth += 1;
        else if (code[j] === '}' && --depth === 0) break;
      }
      const first = headStart + head.search(/\S/);
      const name = /([\w:~]+)\s*\(/.exec(head)?.[1] ?? '(unnamed)';
      found.push({ name, line: lineAt(first), lines: lineAt(j) - lineAt(first) + 1 });
      headStart = j + 1;
      i = j + 1;
      continue;
    }
    i += 1;
  }
  return found;
}

/** Every function over `limit` lines: [{ file, name, line, lines }], longest first. */
export function longFunctions(limit = 150) {
  const out = [];
  for (const [dir, pattern] of SOURCES) {
    for (const path of files(dir, pattern)) {
      const text = readFileSync(join(repo, path), 'utf8');
      const fns = path.endsWith('.cpp') ? cppFunctions(path, text) : jsFunctions(path, text);
      for (const f of fns) if (f.lines > limit) out.push({ file: relative(repo, join(repo, path)), ...f });
    }
  }
  return out.sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const limit = Number(process.argv[2] ?? 150);
  for (const f of longFunctions(limit)) console.log(`${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}`);
}
