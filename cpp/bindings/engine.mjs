// The engine as callers import it: `import createEngine from './engine.mjs'`, then
// `await createEngine()` (in Node: `createEngine({ wasmBinary, modelConfigWasmBinary, lengthLabWasmBinary })`).
// The checked facade over the Emscripten module engine-core.mjs, whose WebAssembly is served beside it
// as engine.wasm. The model-config reader (engine-config.mjs with engine-config.wasm) and the length lab
// (engine-lab.mjs with engine-lab.wasm) are modules of their own, loaded by
// `await engine.loadModelConfigReader()` and `await engine.loadLengthLab()`.
import createEngineCore from './engine-core.mjs';
import { facadeFactory } from './engine-facade.mjs';

export {
  limits,
  signatures,
  viewSignatures,
  engineDeclaration,
  DEFAULT_BASE,
  MODEL_CONFIG_FUNCTIONS,
  LENGTH_LAB_FUNCTIONS,
} from './engine-facade.mjs';

/** Resolves to the engine: one checked function per entry of `signatures`. */
export default facadeFactory(createEngineCore, new URL('./engine.wasm', import.meta.url), {
  config: {
    load: () => import('./engine-config.mjs').then((m) => m.default),
    wasmUrl: new URL('./engine-config.wasm', import.meta.url),
    wasmBinaryOption: 'modelConfigWasmBinary',
  },
  lab: {
    load: () => import('./engine-lab.mjs').then((m) => m.default),
    wasmUrl: new URL('./engine-lab.wasm', import.meta.url),
    wasmBinaryOption: 'lengthLabWasmBinary',
  },
});
