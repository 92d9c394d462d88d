// findApi (web/js/lms/find-api.js): the SCORM run-time is the object whose initialize call is a
// function, never a frame or other property that merely has its name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findApi } from '../../web/js/lms/find-api.js';

/** A window from another origin, as a same-origin script sees it: reading any property throws. */
const crossOrigin = () =>
  new Proxy(
    {},
    {
      get() {
        throw new DOMException('Blocked a frame from accessing a cross-origin frame.', 'SecurityError');
      },
    },
  );

/** A chain of windows, innermost first: each window's parent is the next, the last is its own parent. */
function chain(...properties) {
  const windows = properties.map((own) => ({ ...own }));
  windows.forEach((win, i) => {
    win.parent = windows[i + 1] ?? win;
  });
  return windows[0];
}

const runTime12 = { LMSInitialize: () => 'true' };
const runTime2004 = { Initialize: () => 'true' };

test('a frame named API or API_1484_11 from another origin is not taken for the run-time', () => {
  for (const name of ['API', 'API_1484_11']) {
    const win = chain({}, { [name]: crossOrigin() });
    assert.equal(findApi(name, win), null, name);
  }
});

test('a same-origin namesake without the initialize call is passed over for the run-time above it', () => {
  const frameWindow = { document: {}, location: {} }; // a same-origin frame named API: a window, no LMSInitialize
  const win = chain(
    {},
    { API: frameWindow, API_1484_11: { Initialize: 'not a function' } },
    {
      API: runTime12,
      API_1484_11: runTime2004,
    },
  );
  assert.equal(findApi('API', win), runTime12);
  assert.equal(findApi('API_1484_11', win), runTime2004);
});

test("each version's run-time is found by its own call: a 1.2 API is not a 2004 one", () => {
  const win = chain({}, { API_1484_11: runTime12, API: runTime2004 });
  assert.equal(findApi('API_1484_11', win), null);
  assert.equal(findApi('API', win), null);
});

test('the opener chain is searched when the parents have no run-time, with the same check', () => {
  const opener = chain({ API: crossOrigin() }, { API: runTime12 });
  const win = chain({});
  win.opener = opener;
  assert.equal(findApi('API', win), runTime12);
});
