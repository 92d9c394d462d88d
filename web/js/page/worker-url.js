// The page's module Workers (the length lab's, the charts' painter) start from a URL of the page's own
// site. Under require-trusted-types-for 'script' a Worker's URL must come from a Trusted Types policy:
// this one passes only a URL of the page's own origin.

let workerPolicy;

/** `url` as a Worker may be started from it: a TrustedScriptURL where the page enforces Trusted Types. */
export function trustedWorkerUrl(url) {
  if (!globalThis.trustedTypes?.createPolicy) return url;
  workerPolicy ??= globalThis.trustedTypes.createPolicy('positional-worker', {
    createScriptURL(text) {
      const parsed = new URL(text, globalThis.location?.href);
      if (parsed.origin !== globalThis.location?.origin)
        throw new Error(`a Worker must come from this site, not ${parsed.origin}`);
      return parsed.href;
    },
  });
  return workerPolicy.createScriptURL(url);
}

/** A module Worker from `url`, or null where the browser cannot start one (no module Workers, a policy refused the URL). */
export function startModuleWorker(url) {
  if (!url || typeof Worker !== 'function') return null;
  try {
    return new Worker(trustedWorkerUrl(url), { type: 'module' });
  } catch {
    return null;
  }
}
