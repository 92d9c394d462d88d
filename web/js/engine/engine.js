// Loads the lesson's WebAssembly engine once and exposes it to the page's modules, and says why
// when it cannot run: a browser without WebAssembly, or a host that serves the engine's files with
// types browsers refuse to run (a module script must come as JavaScript).
import { loadEngineFactory, engineFiles } from './engine-source.js';

let enginePromise = null;

/** The engine (the checked facade of dist/engine.mjs: sinusoidalEncoding and the rest), created on first call. */
export function loadEngine() {
  enginePromise ??= (async () => {
    if (typeof WebAssembly !== 'object') throw new Error('this browser has no WebAssembly');
    let createEngine;
    try {
      createEngine = await loadEngineFactory();
    } catch (error) {
      // The engine's modules did not load (the host's types, a missing file): explainEngineFailure asks why.
      throw Object.assign(new Error(`the engine's modules did not load: ${error?.message ?? error}`), {
        stage: 'import',
      });
    }
    return createEngine();
  })();
  return enginePromise;
}

/** Bytes of WebAssembly memory the engine holds now. */
export async function heapBytes() {
  const engine = await loadEngine();
  return engine.heapBytes();
}

const JAVASCRIPT_TYPE = /^(text|application)\/(x-)?(javascript|ecmascript)\b/i;

/**
 * Why the engine did not load (`error`, what loadEngine threw): { cause: 'browser' } (no
 * WebAssembly), { cause: 'host', file, type } (its modules did not load and one came with a type no
 * browser runs as a script, e.g. application/octet-stream for engine.mjs), or { cause: 'unknown' }.
 * Asks the host for the modules' types only when they are what failed; never throws.
 */
export async function explainEngineFailure(error) {
  if (typeof WebAssembly !== 'object') return { cause: 'browser' };
  if (error?.stage !== 'import') return { cause: 'unknown' };
  for (const url of engineFiles()) {
    try {
      const response = await fetch(url, { cache: 'no-store' });
      await response.arrayBuffer(); // read through: a body left unread shows as a cut-off request
      const type = (response.headers.get('Content-Type') ?? '').split(';')[0].trim();
      if (response.ok && !JAVASCRIPT_TYPE.test(type))
        return { cause: 'host', file: url.pathname.split('/').pop(), type: type || 'none' };
    } catch {
      // the host cannot be asked (offline, or a policy): nothing to say about its types
    }
  }
  return { cause: 'unknown' };
}
