// The lesson page's entry point: wires the reading controls, loads the engine, fills every live
// number, checks every snippet's claims, then mounts the charts (a chart failure never breaks the text).
// What is needed only with the engine comes by one dynamic import (after-engine.js), fetched beside it.
import { explainEngineFailure, loadEngine, preloadEngine } from './engine/engine.js';
import {
  fragmentTarget,
  readingAnchor,
  restoreAnchor,
  setupLevelSwitch,
  setupPrint,
  setupTabs,
  setupThemeToggle,
  setupWalkthrough,
} from './page/reading-controls.js';
import { applyEmbed, embedTarget, postHeight } from './page/embed.js';
import { keepScrollersFocusable } from './page/scroll-regions.js';
import { setupContents, setupLevelMemory } from './page/reading-view.js';
import { t } from './locale/i18n.js';

const UNAVAILABLE = '—';

/** Runs one piece of page setup; a failure is reported and the page still starts (no URL, fragment or stored value may stop it). */
function safely(what, setup) {
  try {
    return setup();
  } catch (error) {
    console.warn(`The page's ${what} could not be set up:`, error);
    return undefined;
  }
}

// The page's scripts run: the notice lesson.css shows when they never do is not needed.
document.documentElement.dataset.scripts = 'running';

const embedId = safely('embed view', embedTarget);
if (embedId) safely('embed view', () => applyEmbed(embedId));
safely('theme switch', () => setupThemeToggle(document.querySelector('[data-theme-toggle]')));
safely('level switch', () => setupLevelSwitch(document.querySelector('[data-level-switch]')));
safely('level memory', () => setupLevelMemory(document.querySelector('[data-level-switch]')));
safely('contents', () => setupContents(document.querySelector('nav.toc')));
safely('snippet tabs', () => setupTabs(document));
safely('walkthrough', () => setupWalkthrough(document));
safely('print view', setupPrint);

function showBanner(message) {
  const banner = document.querySelector('[data-engine-banner]');
  banner.querySelector('.engine-banner-text').textContent = message;
  banner.hidden = false;
}

function markUnavailable(element, reason) {
  element.textContent = UNAVAILABLE;
  element.title = t('This number is computed by the lesson’s engine, which could not run in this browser. ({reason})', {
    reason,
  });
  element.classList.add('live-unavailable');
}

/** Lets the browser handle pending input and paint before the next slice of work. */
function yieldToInput() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * For a loop over work that can wait for input: returns `pause()`, which yields (yieldToInput) once
 * SLICE_MS have passed since the last yield and resolves at once otherwise.
 */
const SLICE_MS = 10;
function slicer() {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart <= SLICE_MS) return;
    await yieldToInput();
    sliceStart = performance.now();
  };
}

/**
 * Fills every [data-live] element with the engine's value. The build wrote each number's text into
 * the page (data-prerendered) from the same engine: a text that differs from what this engine
 * computes is shown as the engine's, marked, and reported, never silently replaced. Returns the
 * names that could not be computed and those whose printed text disagreed.
 */
async function fillLiveNumbers({ liveText, LIVE_QUANTITIES }, results) {
  const failed = new Set();
  const disagreed = new Set();
  const pause = slicer();
  for (const element of document.querySelectorAll('[data-live]')) {
    // The numbers are already printed, so checking them can wait for input: yield every ~10 ms
    // (the first engine calls compile and the first formatting loads the locale data).
    await pause();
    const name = element.dataset.live;
    try {
      if (!results && !LIVE_QUANTITIES[name]?.derived) throw new Error(t('engine unavailable'));
      const text = liveText(name, results, element.dataset.format);
      const printed = element.textContent;
      if (element.dataset.prerendered !== undefined && printed !== text) {
        disagreed.add(name);
        element.classList.add('live-mismatch');
        element.title = t('The page was built with “{printed}”; the engine computes “{computed}” here.', {
          printed,
          computed: text,
        });
      }
      // Rewriting an unchanged text would only make the browser lay the line out again.
      if (printed !== text) element.textContent = text;
      element.classList.add('live-filled');
    } catch (error) {
      failed.add(name);
      markUnavailable(element, error.message);
    }
  }
  return { failed, disagreed };
}

/**
 * Compares each snippet's "→" claims with the engine's answers and sets its badge, yielding between
 * snippets every ~10 ms: in one task the seven were a long task on a phone-speed CPU
 * (figures: BENCHMARKS.md, Measurements).
 */
async function checkSnippets({ SNIPPET_CHECKS }, engine) {
  let mismatches = 0;
  const pause = slicer();
  for (const snippet of document.querySelectorAll('[data-check]')) {
    await pause();
    const badge = snippet.querySelector('.check-badge');
    const check = SNIPPET_CHECKS[snippet.dataset.check];
    const claims = [...snippet.querySelectorAll('.claim')];
    try {
      if (!check) throw new Error(t('no check named {name}', { name: snippet.dataset.check }));
      if (!engine && check.source === 'engine') throw new Error(t('engine unavailable'));
      const answers = check.claims(engine);
      const wrong = claims.filter((claim, i) => claim.textContent.trim() !== answers[i]);
      if (answers.length !== claims.length || wrong.length) {
        mismatches++;
        badge.dataset.checkStatus = 'mismatch';
        badge.textContent = t('✗ the engine gives {answers}', { answers: answers.join('; ') });
        for (const claim of wrong) claim.classList.add('claim-mismatch');
        continue;
      }
      for (const claim of claims) claim.classList.add('claim-checked');
      badge.dataset.checkStatus = 'checked';
      badge.textContent =
        check.source === 'engine' ? t('✓ checked against the engine') : t('✓ checked in the page (plain arithmetic)');
      badge.title =
        check.source === 'engine'
          ? t('The result in the comment was recomputed by the engine when this page loaded.')
          : t('The engine has no learned table; the page recomputed this addition when it loaded.');
    } catch (error) {
      badge.dataset.checkStatus = 'unavailable';
      badge.textContent = t('not checked: the engine did not load');
      badge.title = error.message;
    }
  }
  return mismatches;
}

async function mountChartsSafely(engine) {
  try {
    const { mountCharts } = await import('./charts/index.js');
    await mountCharts(engine, document);
  } catch (error) {
    console.warn('A chart could not be drawn; the lesson text is unaffected.', error);
  }
}

function noteChartsUnavailable() {
  for (const slot of document.querySelectorAll('.chart-slot .chart-mount')) {
    const note = document.createElement('p');
    note.className = 'chart-unavailable';
    note.textContent = t('This figure is drawn by the lesson’s engine, which could not run in this browser.');
    slot.replaceChildren(note);
  }
}

// Elements (a block and everything in it) let into layout per frame as the page finishes loading:
// fewer blocks the phone's input less, more finishes sooner, and too few blocks more again, since
// each frame over the page carries work of its own. The share then follows the frames: after one
// longer than SLOW_FRAME_MS (two frames at 60 Hz) it is halved, after a quicker one grown by a
// quarter. What was measured for both: BENCHMARKS.md, Measurements behind the code.
const ELEMENTS_PER_FRAME = 60;
const SLOW_FRAME_MS = 33;

// Whether the reader has scrolled, pressed or touched since the page's scripts started.
let readerMoved = false;
for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown'])
  addEventListener(
    type,
    () => {
      readerMoved = true;
    },
    { capture: true, passive: true, once: true },
  );

// Set once finishLoading has started: the fault handler at the end of this file may call it again.
let loadingFinishes = false;

/**
 * Lets the blocks lesson.css skipped while the page loaded be laid out a frame at a time (laying
 * out all 200 KB at once is one long task that blocks input), in reading order, up to
 * ELEMENTS_PER_FRAME per frame. The formulas of each frame's blocks are checked for sideways
 * scrolling a frame later, once the browser has laid them out, so the check forces no layout of
 * its own. Then clears is-loading, which only the root's own rule reads (lesson.css keys the
 * skipping on lazy-layout and on each block's data-laid-out), so clearing it restyles the root alone.
 */
function finishLoading(root) {
  if (loadingFinishes) return;
  loadingFinishes = true;
  // The maths faces (font-display: block) are otherwise fetched when the first formula is laid out, and
  // each arrival lays out again every formula laid out so far: fetched now, they are
  // in before most blocks are let in. Started here, after the live numbers, not preloaded in <head>,
  // where they would compete with the first paint. The text faces too, where the prose is set in
  // them (a Chinese page sets its prose in the system's sans and uses none).
  // The faces are those the page's style names for the prose and for the maths (lesson.css), read
  // from it rather than named again here.
  const unquote = (family) => family.replace(/["']/g, '');
  const familiesOf = (element) =>
    element
      ? unquote(getComputedStyle(element).fontFamily)
          .split(',')
          .map((family) => family.trim())
      : [];
  const math = document.querySelector('math');
  const wanted = new Set([...familiesOf(document.body), ...familiesOf(math), ...familiesOf(math?.querySelector('mi'))]);
  for (const face of document.fonts ?? [])
    if (face.status === 'unloaded' && wanted.has(unquote(face.family))) face.load().catch(() => {});
  const blocks = [...document.querySelectorAll('section.lesson-section > :not(section)')];
  const label = t('Formula (scrolls sideways)');
  let next = 0;
  let released = [];
  // The share of blocks per frame follows how long the last frame took (the time between two frames
  // is the frame's work, the blocks let in laid out included): halved after a frame past
  // SLOW_FRAME_MS, grown back a quarter after a quick one, between a quarter and twice the start.
  let perFrame = ELEMENTS_PER_FRAME;
  let lastFrame = null;
  // Each block let in takes its real height in place of the 6em lesson.css held for it, so the
  // blocks above the reader change height while they read. WebKit keeps no scroll anchor, so a
  // link's target went on moving down the page for seconds; Firefox's anchor let it drift the other
  // way (figures: BENCHMARKS.md, Measurements). So while the page loads,
  // lesson.css turns the browser's anchoring off and each frame keeps what is being read in place
  // itself: the link's target where following the link put it (at the top, below the site bar)
  // until the reader moves, then the text at the top of the screen.
  const target = embedId ? null : fragmentTarget();
  const targetTop = target ? parseFloat(getComputedStyle(root).scrollPaddingTop) || 0 : 0;
  let expectedScroll = scrollY;
  // What is kept in place, and where, from frame to frame until the reader scrolls.
  let anchor = null;
  const step = (now) => {
    if (released.length) keepScrollersFocusable(released, label);
    released = [];
    if (next >= blocks.length) {
      root.classList.remove('is-loading');
      return;
    }
    if (lastFrame !== null) {
      const scale = now - lastFrame > SLOW_FRAME_MS ? 0.5 : 1.25;
      perFrame = Math.min(2 * ELEMENTS_PER_FRAME, Math.max(ELEMENTS_PER_FRAME / 4, perFrame * scale));
    }
    lastFrame = now;
    // Scrolled by another hand since the last frame (the scroll bar, say): from now on, what is at
    // the top is what is being read.
    if (Math.abs(scrollY - expectedScroll) > 1) {
      readerMoved = true;
      anchor = null;
    }
    if (readerMoved && anchor?.el === target) anchor = null;
    // Kept in place first against what moved it since the last frame (a face arriving, a chart).
    if (anchor) restoreAnchor(anchor);
    else anchor = target && !readerMoved ? { el: target, top: targetTop } : scrollY > 0 ? readingAnchor() : null;
    for (let budget = perFrame; next < blocks.length && budget > 0;) {
      const block = blocks[next++];
      budget -= 1 + block.getElementsByTagName('*').length;
      block.dataset.laidOut = '';
      released.push(...(block.matches('.math-display') ? [block] : block.querySelectorAll('.math-display')));
    }
    // The layout this frame needs anyway, done here so the place is kept before it is painted.
    if (anchor) restoreAnchor(anchor);
    expectedScroll = scrollY;
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

async function start() {
  safely('engine preload', preloadEngine);
  const modules = import('./after-engine.js');
  let engine = null;
  let results;
  let engineError = null;
  try {
    engine = await loadEngine();
    // The engine's start-up (instantiating it and its bindings) took a task of its own.
    await yieldToInput();
    results = (await modules).computeEngineResults(engine);
  } catch (error) {
    engineError = error;
    console.warn('The lesson engine did not load:', error);
    engine = null;
    results = null;
  }
  const after = await modules;
  const { failed, disagreed } = await fillLiveNumbers(after, results);
  const mismatches = await checkSnippets(after, engine);
  performance.mark('positional-lesson:live-filled');
  const root = document.documentElement;
  let liveState;
  if (!results) {
    const why = await explainEngineFailure(engineError);
    showBanner(
      why.cause === 'host'
        ? t(
            'The lesson’s engine could not load: this site sends its file {file} as “{type}”, which browsers refuse to run as a script (it must be sent as JavaScript, and .wasm as application/wasm). The numbers it computes show as “—”; the text is complete. The lesson as one file, positional-lesson.html, works on any host.',
            { file: why.file, type: why.type },
          )
        : t(
            'The lesson’s engine (WebAssembly) could not run in this browser, so the numbers it computes show as “—”. The text is complete.',
          ),
    );
    noteChartsUnavailable();
    liveState = 'failed';
  } else {
    if (failed.size) showBanner(t('Some numbers could not be computed: {names}.', { names: [...failed].join(', ') }));
    else if (disagreed.size)
      showBanner(
        t('Some numbers printed in this page differ from what the engine computes (now shown, marked): {names}.', {
          names: [...disagreed].join(', '),
        }),
      );
    else if (mismatches)
      showBanner(t('A code snippet’s printed result differs from what the engine computes; see the ✗ mark.'));
    liveState = failed.size ? 'partial' : disagreed.size ? 'mismatch' : 'ready';
  }
  finishLoading(root);
  // What follows sets up the reader's controls: each part in its own task, yielded between, so that
  // input and the first blocks' frames are not held behind all of them (with the snippets' check
  // they were one long task on a phone-speed CPU, (figures: BENCHMARKS.md, Measurements)).
  // The live state is set once they are all in place: a course site or a test waiting for it
  // finds the self-test and the movable numbers ready.
  await yieldToInput();
  // The first question sits on the first screen: its fields come first.
  if (engine) safely('first question', () => after.setupFirstQuestion(document, engine));
  // In a course package the course shell framing the page keeps the self-test's record; on its own, this browser does.
  const shell = safely('course link', after.findCourseShell);
  const itemIds = after.SELF_TEST_ITEMS.map((item) => item.id);
  const memory = shell ? safely('course link', () => after.courseMemory(shell, { itemIds })) : null;
  const selfTest = after.setupSelfTest({ engine, results, memory });
  await yieldToInput();
  // Inside a course package a shared link would lead into the course site's file store, not to the lesson.
  if (!memory) after.addShareControls(document);
  // After the printed numbers were checked at their defaults: only then may the reader move them.
  const prose = engine ? safely('prose parameters', () => after.setupProseParameters(document, engine)) : undefined;
  safely('prose links', () => after.setupProseLinks(document));
  root.dataset.liveState = liveState;
  window.positionalLesson = { engine, results, selfTest, prose };
  dispatchEvent(
    new CustomEvent('positional-lesson:ready', { detail: { engine, failed: [...failed], disagreed: [...disagreed] } }),
  );
  if (engine) await mountChartsSafely(engine);
  if (embedId) postHeight();
}

// A fault in the steps above must not leave the page half loaded: blocks that lesson.css still
// skips are missing from the accessibility tree, and the live state is what tests and course sites
// wait for. The text is whole without any script, so it is released and the fault reported.
start().catch((error) => {
  console.error('The lesson page did not finish loading:', error);
  const root = document.documentElement;
  if (!root.dataset.liveState) {
    root.dataset.liveState = 'failed';
    showBanner(
      t('Part of this page’s script failed, so some numbers or figures may be missing. The text is complete.'),
    );
  }
  finishLoading(root);
});
