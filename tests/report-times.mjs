#!/usr/bin/env node
// Prints how long each part of build-scripts/test took: its phases (given as NAME=SECONDS arguments)
// and every CTest test of the JUnit files it wrote (ctest --output-junit), slowest first, so a suite
// that grows is seen the day it does.
//   node tests/report-times.mjs [--junit FILE]... [PHASE=SECONDS]...
import { existsSync, readFileSync } from 'node:fs';

const junitFiles = [];
const phases = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--junit') junitFiles.push(args[++i]);
  else {
    const [name, seconds] = args[i].split('=');
    phases.push({ name, seconds: Number(seconds) });
  }
}

/** [{ name, seconds, status }] of the <testcase> elements in a CTest JUnit file. */
export function junitTimes(xml) {
  const cases = [];
  for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attr = (key) => new RegExp(`\\b${key}="([^"]*)"`).exec(match[1])?.[1];
    const body = match[3] ?? '';
    const status = /<failure\b/.test(body) ? 'failed' : /<skipped\b/.test(body) ? 'skipped' : 'passed';
    cases.push({ name: attr('name'), seconds: Number(attr('time') ?? 0), status });
  }
  return cases;
}

const pad = (text, width) => String(text).padEnd(width);
const minutes = (s) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;

if (process.argv[1]?.endsWith('report-times.mjs')) {
  const lines = ['', '---- time taken ----------------------------------------------------------------'];
  const total = phases.reduce((sum, p) => sum + p.seconds, 0);
  for (const { name, seconds } of phases)
    lines.push(`${pad(name, 40)} ${pad(minutes(seconds), 8)} ${((100 * seconds) / (total || 1)).toFixed(0)}%`);
  lines.push(`${pad('all', 40)} ${minutes(total)}`);
  const tests = junitFiles.filter((f) => existsSync(f)).flatMap((f) => junitTimes(readFileSync(f, 'utf8')));
  // Groups of tests (GoogleTest's many small ones per topic) are summed; suites stand alone.
  const groups = new Map();
  for (const t of tests) {
    const key = /^(node|browser|format|layout|fuzz|wasm32|sanitized)\./.test(t.name)
      ? t.name
      : `gtest ${t.name.split('.')[0]}`;
    const group = groups.get(key) ?? { seconds: 0, count: 0, failed: 0 };
    group.seconds += t.seconds;
    group.count += 1;
    if (t.status === 'failed') group.failed += 1;
    groups.set(key, group);
  }
  if (groups.size) {
    lines.push('', `${pad('test (slowest first)', 52)} ${pad('seconds', 9)} result`);
    for (const [name, g] of [...groups].sort((a, b) => b[1].seconds - a[1].seconds))
      lines.push(
        `${pad(name + (g.count > 1 ? ` (${g.count})` : ''), 52)} ${pad(g.seconds.toFixed(1), 9)} ${g.failed ? `${g.failed} failed` : 'ok'}`,
      );
  }
  console.log(lines.join('\n'));
}
