// @ts-check
// Finds a SCORM run-time's API object the way the SCORM run-time environment books describe:
// up the chain of parent windows, then the opener and its parents. A cross-origin window is skipped,
// and so is anything by the name that is not a run-time (a frame named API is the window's property too).

const MAX_DEPTH = 500; // the ADL sample's bound: a frame chain deeper than this is a loop

// The call each version's run-time must have: what tells its API object from a namesake.
const INITIALIZE = { API: 'LMSInitialize', API_1484_11: 'Initialize' };

/** `win[name]` when it is a run-time of that version (its initialize call a function), else null. */
function runTimeOf(win, name) {
  try {
    const api = win[name];
    return api && typeof api[INITIALIZE[name]] === 'function' ? api : null;
  } catch {
    // A window, or a frame by the name, from another origin: its properties cannot be read.
    return null;
  }
}

function searchUp(start, name) {
  let win = start;
  for (let depth = 0; win && depth < MAX_DEPTH; depth++) {
    const api = runTimeOf(win, name);
    if (api) return api;
    if (win.parent === win || !win.parent) break;
    win = win.parent;
  }
  return null;
}

/** The API object called `name` ('API' for SCORM 1.2, 'API_1484_11' for 2004), or null. */
export function findApi(name, win = window) {
  const fromParents = searchUp(win, name);
  if (fromParents) return fromParents;
  let opener;
  try {
    opener = win.opener;
  } catch {
    opener = null;
  }
  return opener ? searchUp(opener, name) : null;
}
