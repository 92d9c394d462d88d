// The engine for the single-file page that opens from file://: the same facade as engine.mjs over
// engine-core-single.mjs, one module with the kernels, the model-config reader and the length lab (so
// loadModelConfigReader() and loadLengthLab() resolve at once). Its WebAssembly travels inside the page, gzip-compressed
// and base64-encoded (engine-single-wasm.mjs, written by the site build), and is unpacked here with
// DecompressionStream: nothing is fetched. The single-file build imports its factory only; the
// declaration's exports (limits, signatures, …) are engine.mjs's.
import createEngineCore from './engine-core-single.mjs';
import { facadeFactory } from './engine-facade.mjs';
import { WASM_GZIP_BASE64 } from './engine-single-wasm.mjs';

/** The WebAssembly bytes from base64 of their gzip. */
async function unpackWasm(text) {
  if (typeof DecompressionStream !== 'function') {
    throw new Error('this browser cannot unpack the engine (it has no DecompressionStream): open the web version');
  }
  const packed = new Uint8Array(text.length * 0.75 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0));
  const binary = atob(text);
  for (let i = 0; i < packed.length; i++) packed[i] = binary.charCodeAt(i);
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const create = facadeFactory(createEngineCore);

/** Resolves to the engine: one checked function per entry of `signatures`. */
export default async function createEngine(options = {}) {
  return create(options.wasmBinary ? options : { ...options, wasmBinary: await unpackWasm(WASM_GZIP_BASE64) });
}
