// Where the engine's factory comes from: engine.mjs (the facade) beside the page (the single-file build swaps
// this module for one that carries the engine inside).

/** Imports ../engine.mjs (relative to this module, so the site works under any path). */
export async function loadEngineFactory() {
  const module = await import(new URL('../../engine.mjs', import.meta.url).href);
  return module.default;
}

/** The engine's module files, which a host must serve as JavaScript for the engine to load. */
export function engineFiles() {
  return ['../../engine.mjs', '../../engine-facade.mjs', '../../engine-declaration.mjs', '../../engine-core.mjs'].map(
    (file) => new URL(file, import.meta.url),
  );
}
