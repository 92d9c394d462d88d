// The engine with its WebAssembly inlined (engine-core-single.mjs): the same facade as engine.mjs,
// for the single-file page that opens from file://. Its one module carries the model-config reader
// too: loadModelConfigReader() resolves at once.
import createEngineCore from './engine-core-single.mjs';
import { facadeFactory } from './engine-facade.mjs';

export { limits, signatures, viewSignatures, DEFAULT_BASE, MODEL_CONFIG_FUNCTIONS } from './engine-facade.mjs';

/** Resolves to the engine: one checked function per entry of `signatures`. */
export default facadeFactory(createEngineCore);
