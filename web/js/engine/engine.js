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

/**
 * Asks for the engine's files all at once (its four modules and its WebAssembly), at low priority,
 * where otherwise each would be found only once the module importing it has arrived: a round trip
 * each on a slow link. The page calls it once its own modules run, after the HTML is parsed, not
 * from <head>: asked for there, the engine's 80 KB shared the slow link with the stylesheet, which
 * the page's modules wait for, and DOMContentLoaded came later (BENCHMARKS.md, Measurements behind
 * the code).
 * Nothing to ask for where the page carries the engine (the single file).
 */
export function preloadEngine() {
  const files = engineFiles();
  if (!files.length) return;
  const hint = (attributes) => {
    const link = document.createElement('link');
    Object.assign(link, attributes, { fetchPriority: 'low' });
    document.head.append(link);
  };
  for (const url of files) hint({ rel: 'modulepreload', href: url.href });
  // As engine.mjs fetches it (instantiateStreaming of a same-origin fetch), so the preload is used.
  hint({
    rel: 'preload',
    as: 'fetch',
    crossOrigin: 'anonymous',
    href: new URL('engine.wasm', files[0]).href,
  });
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
