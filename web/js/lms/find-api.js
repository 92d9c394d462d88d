// Finds a SCORM run-time's API object the way the SCORM run-time environment books describe:
// up the chain of parent windows, then the opener and its parents. A cross-origin window is skipped.

const MAX_DEPTH = 500; // the ADL sample's bound: a frame chain deeper than this is a loop

function searchUp(start, name) {
  let win = start;
  for (let depth = 0; win && depth < MAX_DEPTH; depth++) {
    try {
      if (win[name]) return win[name];
    } catch {
      // A window from another origin: its properties cannot be read, so no API from there.
    }
    if (win.parent === win || !win.parent) break;
    win = win.parent;
  }
  return null;
}

/** The API object called `name` ('API' for SCORM 1.2, 'API_1484_11' for 2004), or null. */
export function findApi(name, win = window) {
  const fromParents = searchUp(win, name);
  if (fromParents) return fromParents;
  let opener = null;
  try {
    opener = win.opener;
  } catch {
    opener = null;
  }
  return opener ? searchUp(opener, name) : null;
}
