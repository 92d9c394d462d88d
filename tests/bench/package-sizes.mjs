#!/usr/bin/env node
// The course-site packages' sizes, measured (a benchmark, not a test): builds the three zips from
// the course content beside dist/ (dist-course/) and writes each one's bytes, file count and largest entries, and the single file's bytes,
// gzip bytes and embedded fonts, and the page's WebAssembly, to tests/bench/results/package-sizes.json.
//   node tests/bench/package-sizes.mjs [--dist dist]
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { unzipSync } from 'fflate';
import { packageLms } from '../../web/site-builder/package-lms.mjs';
import { measuringOptions } from './measuring.mjs';

const options = measuringOptions('package-sizes.json');

const packages = packageLms({
  course: join(options.dist, '..', 'dist-course'),
  out: mkdtempSync(join(tmpdir(), 'positional-package-sizes-')),
}).map(({ kind, lang, file, bytes }) => {
  const entries = unzipSync(new Uint8Array(readFileSync(file)));
  const unpacked = Object.values(entries).reduce((sum, data) => sum + data.length, 0);
  const largest = Object.entries(entries)
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, 3)
    .map(([path, data]) => ({ path, bytes: data.length }));
  return {
    kind,
    lang,
    file: basename(file),
    bytes,
    kib: Math.round(bytes / 1024),
    files: Object.keys(entries).length,
    unpackedBytes: unpacked,
    largest,
  };
});
// The single-file build (dist/positional-lesson.html): its bytes, gzip -9 bytes, and the fonts it
// embeds (decoded from their data: URLs), face by face.
function singleFileSizes(file) {
  const html = readFileSync(file, 'utf8');
  const fonts = [
    ...html.matchAll(/@font-face\s*\{[^}]*?font-family:\s*([^;]+);[^}]*?url\(data:font\/woff2;base64,([^)]*)\)/g),
  ].map(([, family, data]) => ({
    family: family.replace(/['"]/g, '').trim(),
    bytes: Buffer.from(data, 'base64').length,
  }));
  return {
    bytes: Buffer.byteLength(html),
    gzipBytes: gzipSync(html, { level: 9 }).length,
    fontBytes: fonts.reduce((sum, f) => sum + f.bytes, 0),
    fonts,
  };
}
const singleFile = singleFileSizes(join(options.dist, 'positional-lesson.html'));
// The WebAssembly the page fetches: engine.wasm (the kernels) on the first screen's path,
// engine-config.wasm (the model-config reader) when the model card mounts, and engine-lab.wasm (the
// length lab) when loadLengthLab() asks for it; gzip -9 and brotli 11 as the build precompresses them.
const LOADED = {
  'engine.wasm': 'with the page',
  'engine-config.wasm': 'when the model card mounts',
  'engine-lab.wasm': 'when loadLengthLab() is called',
};
const wasm = Object.entries(LOADED).map(([file, loaded]) => {
  const bytes = readFileSync(join(options.dist, file));
  return {
    file,
    loaded,
    bytes: bytes.length,
    gzipBytes: gzipSync(bytes, { level: 9 }).length,
    brotliBytes: brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
});
const result = { measuredAt: new Date().toISOString(), packages, singleFile, wasm };
mkdirSync(join(options.out, '..'), { recursive: true });
writeFileSync(options.out, `${JSON.stringify(result, null, 2)}\n`);
for (const p of packages)
  console.log(`${p.file}: ${p.kib} KiB zipped, ${(p.unpackedBytes / 1024).toFixed(0)} KiB unpacked, ${p.files} files`);
for (const w of wasm)
  console.log(
    `${w.file} (${w.loaded}): ${(w.gzipBytes / 1024).toFixed(1)} KiB gzip, ${(w.brotliBytes / 1024).toFixed(1)} KiB brotli`,
  );
console.log(
  `positional-lesson.html: ${(singleFile.gzipBytes / 1024).toFixed(0)} KiB gzip, fonts ${(singleFile.fontBytes / 1024).toFixed(1)} KiB in ${singleFile.fonts.length} faces`,
);
