// Extracts the engine functions the page shows beside each Python snippet: the lines between
// `// [snippet:NAME]` and `// [/snippet]` in cpp/src/*.cpp.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const OPEN = /^\s*\/\/ \[snippet:([\w-]+)\]\s*$/;
const CLOSE = /^\s*\/\/ \[\/snippet\]\s*$/;

/** Map name → { code, file } for every marked snippet under `dir`; throws on unbalanced or duplicate markers. */
export function extractCppSnippets(dir) {
  const snippets = new Map();
  const repo = resolve(dir, '..', '..');
  let files;
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.cpp'))
      .sort();
  } catch {
    return snippets;
  }
  for (const file of files) {
    const path = join(dir, file);
    let current = null;
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const open = OPEN.exec(line);
        if (open) {
          if (current) throw new Error(`${path}:${i + 1}: snippet ${open[1]} opens inside snippet ${current.name}`);
          current = { name: open[1], lines: [] };
        } else if (CLOSE.test(line)) {
          if (!current) throw new Error(`${path}:${i + 1}: [/snippet] without an open snippet`);
          if (snippets.has(current.name)) throw new Error(`${path}:${i + 1}: snippet ${current.name} is marked twice`);
          const lines = current.lines;
          while (lines.length && !lines[0].trim()) lines.shift();
          while (lines.length && !lines.at(-1).trim()) lines.pop();
          snippets.set(current.name, { code: `${lines.join('\n')}\n`, file: relative(repo, path) });
          current = null;
        } else if (current) current.lines.push(line);
      });
    if (current) throw new Error(`${path}: snippet ${current.name} is never closed`);
  }
  return snippets;
}
