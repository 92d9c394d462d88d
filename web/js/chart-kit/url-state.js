// Chart control state in the page URL (?sinusoidal-heatmap.n=512) so a link reproduces a view.
// Parameters are named after the chart id; older prefixes (heatmap., freq., card. …) are still read.
// Nothing here trusts the URL: it hands raw text to the controls, which apply their own rules.
// Parameters the charts do not write are left as the address spells them: a write replaces only the
// charts' own `name=value` pieces of the query and copies every other piece through untouched.

/** The longest parameter value read from the URL (longer values are cut before any control sees them). */
export const MAX_URL_VALUE = 200;

/**
 * The raw text of `prefix.key` (or `alias.key` for each of `aliases`) for every key of `defaults`,
 * cut to MAX_URL_VALUE characters: { key → string } with only the keys the URL sets.
 */
export function readUrlParams(prefix, defaults, aliases = []) {
  const params = parsedSearch();
  const found = {};
  for (const key of Object.keys(defaults)) {
    for (const name of [prefix, ...aliases]) {
      const raw = params.get(`${name}.${key}`);
      if (raw !== null) {
        found[key] = raw.slice(0, MAX_URL_VALUE);
        break;
      }
    }
  }
  return found;
}

// The query parsed once per address: every chart reads it as it mounts.
let parsed = { search: null, params: null };
function parsedSearch() {
  if (parsed.search !== location.search)
    parsed = { search: location.search, params: new URLSearchParams(location.search) };
  return parsed.params;
}

const pending = new Map();
const watchers = new Set();
let timer = 0;
let idle = 0;

// How long the state must rest before it is written. history.replaceState is not free on a phone,
// and a write that lands between two presses of a key delays the second: writing after a pause
// rather than on a timer made key steps quicker (BENCHMARKS.md, Measurements behind the code).
// Presses a few a second, key
// repeat and drags all change a control faster than this, so the address follows once the reader
// pauses, in the browser's next idle moment.
const URL_WRITE_QUIET_MS = 400;
const IDLE_TIMEOUT_MS = 600;

/**
 * Calls `fn()` each time a batch of chart state has been written to the URL (after every change a
 * chart makes, whatever made it: a control, a handle, a key on a canvas). Returns a function that
 * stops the calls.
 */
export function onUrlStateWritten(fn) {
  watchers.add(fn);
  return () => watchers.delete(fn);
}

/**
 * Writes the keys of `state` that differ from `defaults` (and removes the rest, and any alias
 * spelling of them) with replaceState, once the state has rested URL_WRITE_QUIET_MS and the
 * browser is idle. A page being left (pagehide, or hidden) gets its pending writes at once, and
 * flushUrlState() writes them on demand (Copy link does).
 */
export function writeUrlState(prefix, state, defaults, aliases = []) {
  pending.set(prefix, { state: { ...state }, defaults, aliases });
  listenForLeaving();
  cancelScheduled();
  timer = setTimeout(() => {
    timer = 0;
    if (typeof requestIdleCallback === 'function')
      idle = requestIdleCallback(flushUrlState, { timeout: IDLE_TIMEOUT_MS });
    else flushUrlState();
  }, URL_WRITE_QUIET_MS);
}

function cancelScheduled() {
  clearTimeout(timer);
  timer = 0;
  if (idle) cancelIdleCallback(idle);
  idle = 0;
}

let listening = false;
function listenForLeaving() {
  if (listening) return;
  listening = true;
  addEventListener('pagehide', flushUrlState);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flushUrlState());
}

/**
 * The longest address the state is written into. Chromium takes about half a second per
 * history.replaceState of an 800 KB address (60,000 parameters, from file://, where no server
 * limits it), and no link that long is shared, so past this the charts keep their state in the page
 * and leave the address alone.
 */
export const MAX_WRITTEN_ADDRESS = 64 * 1024;

/** Applies the pending URL writes now. */
export function flushUrlState() {
  cancelScheduled();
  if (!pending.size) return;
  if (location.href.length > MAX_WRITTEN_ADDRESS) {
    pending.clear();
    return;
  }
  const url = new URL(location.href);
  url.search = queryWithWrites(url.search, pending);
  pending.clear();
  if (url.href === location.href || url.href.length > MAX_WRITTEN_ADDRESS) return;
  history.replaceState(history.state, '', url);
  for (const fn of watchers) fn();
}

/** A query piece's name, decoded as URLSearchParams decodes it (a malformed escape is left as it is). */
function pieceName(piece) {
  const end = piece.indexOf('=');
  const raw = end === -1 ? piece : piece.slice(0, end);
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw.replace(/\+/g, ' ');
  }
}

/**
 * `search` (a query, "?a=b&…" or "") with `writes` (Map prefix → { state, defaults, aliases })
 * applied: for each chart, the keys of `state` that differ from `defaults` set, and the rest (and
 * every alias spelling) removed. A key already in the address keeps its place (its first piece;
 * later ones go); a new key goes at the end. Every other piece is copied as written, so a write
 * costs one pass over the query however many unrelated parameters it holds.
 */
export function queryWithWrites(search, writes) {
  const owned = new Set();
  const values = new Map();
  for (const [prefix, { state, defaults, aliases }] of writes) {
    for (const key of Object.keys(defaults)) {
      for (const alias of aliases) owned.add(`${alias}.${key}`);
      const name = `${prefix}.${key}`;
      owned.add(name);
      const value = state[key];
      if (value === defaults[key] || value === undefined) continue;
      const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
      values.set(name, new URLSearchParams([[name, text]]).toString());
    }
  }
  const pieces = [];
  for (const piece of search.slice(1).split('&')) {
    if (piece === '') continue;
    const name = pieceName(piece);
    if (!owned.has(name)) pieces.push(piece);
    else if (values.has(name)) {
      pieces.push(values.get(name));
      values.delete(name);
    }
  }
  pieces.push(...values.values());
  return pieces.length ? `?${pieces.join('&')}` : '';
}
