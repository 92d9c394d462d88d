// The engine as callers import it: `import createEngine from './engine.mjs'`, then
// `await createEngine()` (in Node: `createEngine({ wasmBinary, modelConfigWasmBinary })`). The
// checked facade over the Emscripten module engine-core.mjs, whose WebAssembly is served beside it
// as engine.wasm. The model-config reader is a module of its own (engine-config.mjs with
// engine-config.wasm), loaded by `await engine.loadModelConfigReader()`.
import createEngineCore from './engine-core.mjs';
import { facadeFactory } from './engine-facade.mjs';

export { limits, signatures, viewSignatures, DEFAULT_BASE, MODEL_CONFIG_FUNCTIONS } from './engine-facade.mjs';

/** Resolves to the engine: one checked function per entry of `signatures`. */
export default facadeFactory(createEngineCore, new URL('./engine.wasm', import.meta.url), {
  load: () => import('./engine-config.mjs').then((m) => m.default),
  wasmUrl: new URL('./engine-config.wasm', import.meta.url),
});
