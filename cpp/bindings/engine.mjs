// The engine as callers import it: `import createEngine from './engine.mjs'`, then
// `await createEngine()` (in Node: `createEngine({ wasmBinary })`). The checked facade over the
// Emscripten module engine-core.mjs, whose WebAssembly is served beside it as engine.wasm.
import createEngineCore from './engine-core.mjs';
import { facadeFactory } from './engine-facade.mjs';

export { limits, signatures, viewSignatures, DEFAULT_BASE } from './engine-facade.mjs';

/** Resolves to the engine: one checked function per entry of `signatures`. */
export default facadeFactory(createEngineCore, new URL('./engine.wasm', import.meta.url));
