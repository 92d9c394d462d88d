// Loads dist/engine.mjs in Node for the test suites: Emscripten 3.1.6's web build cannot fetch
// a file path, so the .wasm bytes are handed to the factory directly.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const distDir = process.env.POSITIONAL_DIST ?? fileURLToPath(new URL('../../dist/', import.meta.url));

/** The page's engine (dist/engine.mjs) with its model-config reader and length lab loaded too. */
export async function loadEngine() {
  const { default: createEngine } = await import(pathToFileURL(join(distDir, 'engine.mjs')).href);
  const engine = await createEngine({
    wasmBinary: readFileSync(join(distDir, 'engine.wasm')),
    modelConfigWasmBinary: readFileSync(join(distDir, 'engine-config.wasm')),
    lengthLabWasmBinary: readFileSync(join(distDir, 'engine-lab.wasm')),
  });
  await Promise.all([engine.loadModelConfigReader(), engine.loadLengthLab()]);
  return engine;
}

/** Asserts that call() throws an Error (not a RuntimeError or a thrown string) whose message includes `message`. */
export function assertThrowsMessage(call, message, name = message) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof Error, `${name}: threw ${typeof error}, not an Error`);
    assert.ok(error.message.includes(message), `${name}: message was "${error.message}"`);
    return true;
  });
}
