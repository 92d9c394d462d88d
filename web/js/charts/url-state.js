// Chart control state in the page URL (?heatmap.n=512&heatmap.d=128) so a link reproduces a view.

/** Reads `prefix.key` parameters for every key of `defaults`, parsed as the default's type. */
export function readUrlState(prefix, defaults) {
  const params = new URLSearchParams(location.search);
  const state = { ...defaults };
  for (const [key, fallback] of Object.entries(defaults)) {
    const raw = params.get(`${prefix}.${key}`);
    if (raw === null) continue;
    if (typeof fallback === 'number') {
      const n = Number(raw);
      if (raw.trim() !== '' && Number.isFinite(n)) state[key] = n;
    } else if (typeof fallback === 'boolean') {
      state[key] = raw === '1' || raw === 'true';
    } else {
      state[key] = raw.slice(0, 200);
    }
  }
  return state;
}

const pending = new Map();
let timer = 0;

/**
 * Writes the keys of `state` that differ from `defaults` (and removes the rest) with replaceState.
 * Writes are batched (150 ms): browsers throttle rapid history updates while a slider is dragged.
 */
export function writeUrlState(prefix, state, defaults) {
  pending.set(prefix, { state: { ...state }, defaults });
  clearTimeout(timer);
  timer = setTimeout(flushUrlState, 150);
}

/** Applies the pending URL writes now. */
export function flushUrlState() {
  clearTimeout(timer);
  const url = new URL(location.href);
  for (const [prefix, { state, defaults }] of pending) writeInto(url, prefix, state, defaults);
  pending.clear();
  if (url.href !== location.href) history.replaceState(history.state, '', url);
}

function writeInto(url, prefix, state, defaults) {
  for (const key of Object.keys(defaults)) {
    const name = `${prefix}.${key}`;
    const value = state[key];
    if (value === defaults[key] || value === undefined) url.searchParams.delete(name);
    else url.searchParams.set(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
}
