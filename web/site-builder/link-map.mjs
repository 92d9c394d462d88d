#!/usr/bin/env node
// A link launcher (CMake's RULE_LAUNCH_LINK for the WebAssembly modules): runs the link command it
// is given with wasm-ld's --print-map added and keeps the map, every object and library member the
// link took, in MAP_FILE; web/site-builder/third-party-notices.mjs reads it to name what the .wasm contains.
//   node web/site-builder/link-map.mjs MAP_FILE LINK_COMMAND…
// (em++ 3.1.6 drops every -Wl flag spelled -M… or --M…, so --Map=FILE cannot be passed to it.)
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const [mapFile, command, ...args] = process.argv.slice(2);
if (!mapFile || !command) {
  console.error('link-map: usage: node web/site-builder/link-map.mjs MAP_FILE LINK_COMMAND…');
  process.exit(2);
}
const result = spawnSync(command, [...args, '-Wl,--print-map'], {
  stdio: ['inherit', 'pipe', 'inherit'],
  maxBuffer: 1 << 30,
});
if (result.error) {
  console.error(`link-map: could not run ${command}: ${result.error.message}`);
  process.exit(1);
}
if (result.status === 0) writeFileSync(mapFile, result.stdout);
else process.stdout.write(result.stdout);
process.exit(result.status ?? 1);
