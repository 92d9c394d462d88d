// Loads the lesson's WebAssembly engine once and exposes it to the page's modules.
import { loadEngineFactory } from './engine-source.js';

let enginePromise = null;

/** The engine (the checked facade of dist/engine.mjs: sinusoidalEncoding and the rest), created on first call. */
export function loadEngine() {
  enginePromise ??= (async () => {
    if (typeof WebAssembly !== 'object') throw new Error('this browser has no WebAssembly');
    const createEngine = await loadEngineFactory();
    return createEngine();
  })();
  return enginePromise;
}

/** Bytes of WebAssembly memory the engine holds now. */
export async function heapBytes() {
  const engine = await loadEngine();
  return engine.heapBytes();
}
