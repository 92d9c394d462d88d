#!/usr/bin/env node
// The course-site packages' sizes, measured (a benchmark, not a test): builds the three zips from
// dist/ and writes each one's bytes, file count and largest entries to tests/bench/results/package-sizes.json.
//   node tests/bench/package-sizes.mjs [--dist dist]
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { unzipSync } from 'fflate';
import { packageLms } from '../../web/build/package-lms.mjs';

const repo = new URL('../../', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: process.env.POSITIONAL_DIST ?? join(repo, 'dist') },
    out: { type: 'string', default: join(repo, 'tests', 'bench', 'results', 'package-sizes.json') },
  },
});

const packages = packageLms({ dist: values.dist, out: mkdtempSync(join(tmpdir(), 'positional-package-sizes-')) }).map(
  ({ kind, file, bytes }) => {
    const entries = unzipSync(new Uint8Array(readFileSync(file)));
    const unpacked = Object.values(entries).reduce((sum, data) => sum + data.length, 0);
    const largest = Object.entries(entries)
      .sort((a, b) => b[1].length - a[1].length)
      .slice(0, 3)
      .map(([path, data]) => ({ path, bytes: data.length }));
    return {
      kind,
      file: basename(file),
      bytes,
      kib: Math.round(bytes / 1024),
      files: Object.keys(entries).length,
      unpackedBytes: unpacked,
      largest,
    };
  },
);
const result = { measuredAt: new Date().toISOString(), packages };
mkdirSync(join(values.out, '..'), { recursive: true });
writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
for (const p of packages)
  console.log(`${p.file}: ${p.kib} KiB zipped, ${(p.unpackedBytes / 1024).toFixed(0)} KiB unpacked, ${p.files} files`);
