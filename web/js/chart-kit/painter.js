// The page's side of the chart Worker (paint-worker.js), which the address turns on (?paint=worker).
// There, where the browser can transfer a canvas to a module Worker, one Worker paints every chart's
// canvases: the page keeps the reader's input, the state, the engine's computations, the description
// and the data table, lays each frame out on a layout context (layout-context.js) and posts what the
// frame shows; the Worker paints it on the canvas's OffscreenCanvas, the latest frame of each canvas
// only, so a slow paint never queues behind itself. Otherwise (not asked, ?paint=page, no
// OffscreenCanvas or module Workers, the single-file page, a Worker that did not start, WebKit) the
// charts paint on the page. A chart mounted while the Worker starts waits for it (charts/index.js).
//
// It is not the default: on the throttled phone profile (Chromium, 4x CPU, two cores) a step cost the
// page's main thread 1.02-1.57x the page's own painting (the same draw runs there on the layout
// context, and each frame's parts are copied to the Worker), and no chart's Event Timing improved
// beyond the run-to-run noise (docs/contributing.md, The charts' Worker).
//
//   → { kind: 'start', language }                      the page's language and interface words (i18n.js)
//   ← { kind: 'ready' }                                the Worker has every chart's drawing loaded
//   → { kind: 'canvas', mount, chart, index, canvas }   a transferred canvas of a mounted chart
//   → { kind: 'paint', mount, index, frame, parts }     one frame: size, colours, the view; parts: those new since the last paint
//   → { kind: 'snapshot', mount, index, ask }           ← { kind: 'snapshot', ask, bitmap }: the canvas's picture now
//   → { kind: 'forget', mount }                         the chart was taken off the page
//   ← { kind: 'failed', chart, message }                a paint threw (the page reports it in the console)

import { languageOfPage } from '../locale/i18n.js';
import { startModuleWorker } from '../page/worker-url.js';
import { paintWorkerUrl } from './paint-worker-source.js';

let worker = null;
let state = 'off'; // 'off' → 'starting' → 'ready', or 'page' (the charts paint on the page)
let whyPage = null;
let ready = Promise.resolve('page');
/** How long charts wait for the Worker to start before they paint on the page (ms). */
const START_LIMIT_MS = 10000;
let mounts = 0;
let asks = 0;
const answers = new Map(); // ask → resolve

/** Whether the browser can hand a canvas to a module Worker and draw on it there. */
function canOffload() {
  return (
    typeof OffscreenCanvas === 'function' &&
    typeof HTMLCanvasElement !== 'undefined' &&
    typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function'
  );
}

/**
 * Whether the page runs in WebKit: every browser on iOS (Chrome's CriOS, Firefox's FxiOS), Safari,
 * WebKitGTK; not Chromium or Edge, whose addresses also name AppleWebKit. WebKitGTK
 * 2.50 has every feature the Worker uses, but its web process crashed while the Worker painted: the
 * controls-agreement suite, which drives every control and reloads, crashed or hung in 3 runs of 3
 * (at different charts), and passed with the Worker's file removed. So WebKit paints on the page.
 */
export function isWebKit(userAgent = globalThis.navigator?.userAgent ?? '') {
  return /AppleWebKit/.test(userAgent) && !/(?:Chrome|Chromium|Firefox)\//.test(userAgent);
}

/**
 * Starts the chart Worker, once, where the address asks for it. Resolves to 'worker' once it is ready,
 * or 'page' (with the reason in paintMode().why) where the charts paint on the page; charts/index.js
 * mounts each chart once it has resolved.
 */
export function startPainter({ url = paintWorkerUrl(), search = globalThis.location?.search ?? '' } = {}) {
  if (state !== 'off') return ready;
  const refuse = (why) => {
    state = 'page';
    whyPage = why;
    return 'page';
  };
  // Only when asked: on the throttled phone profile the Worker's painting cost the page more than it saved (see docs/contributing.md).
  const why =
    (paintAsked(search) !== 'worker' && 'not asked') ||
    (!url && 'no Worker file') ||
    (!canOffload() && 'no OffscreenCanvas') ||
    (isWebKit() && 'WebKit');
  if (why) return (ready = Promise.resolve(refuse(why)));
  worker = startModuleWorker(url);
  if (!worker) return (ready = Promise.resolve(refuse('no module Worker')));
  state = 'starting';
  let settle;
  ready = new Promise((resolve) => {
    settle = resolve;
    worker.addEventListener('message', ({ data }) => {
      if (data.kind === 'ready' && state === 'starting') {
        state = 'ready';
        settle('worker');
      } else if (data.kind === 'snapshot') {
        answers.get(data.ask)?.(data.bitmap);
        answers.delete(data.ask);
      } else if (data.kind === 'failed') console.error(`The chart "${data.chart}" could not be painted:`, data.message);
    });
    // The Worker's script did not load (its type refused, a policy, a missing file): before it is
    // ready the charts simply paint on the page; after, its canvases cannot be taken back, so say so.
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      if (state === 'starting') {
        worker.terminate();
        worker = null;
        settle(refuse(String(event.message || 'the Worker’s script did not load')));
      } else console.error('The chart Worker failed:', event.message);
    });
  });
  worker.postMessage({ kind: 'start', language: languageOfPage() });
  // A Worker that neither starts nor fails (a script that never arrives) does not keep the charts waiting.
  setTimeout(() => {
    if (state !== 'starting') return;
    worker.terminate();
    worker = null;
    settle(refuse(`the Worker did not start in ${START_LIMIT_MS / 1000} s`));
  }, START_LIMIT_MS);
  return ready;
}
/** What the address asks for: 'worker' (the Worker paints), 'page' or null (the page paints). */
export function paintAsked(search = globalThis.location?.search ?? '') {
  const asked = new URLSearchParams(search).get('paint');
  return asked === 'page' || asked === 'worker' ? asked : null;
}

/** Where the charts paint: { mode: 'worker' | 'page' | 'starting' | 'off', why (when on the page) }. */
export function paintMode() {
  return { mode: state === 'ready' ? 'worker' : state, why: whyPage };
}

/**
 * A chart's painter, or null when the Worker is not ready (the chart then paints on the page).
 * `frameOf()` → { state, highlighted, marks, size } and `partsSince(sent)` → { name → value } (the
 * parts recomputed since `sent`, a versions map it updates) describe what a paint shows.
 * Returns { attach(canvas, index) → the handle createPlotCanvas paints through, forget() }.
 */
export function chartPainter(chart, { frameOf, partsSince }) {
  if (state !== 'ready') return null;
  const mount = ++mounts;
  const sent = {};
  return {
    attach(canvas, index) {
      const offscreen = canvas.transferControlToOffscreen();
      worker.postMessage({ kind: 'canvas', mount, chart, index, canvas: offscreen }, [offscreen]);
      return {
        paint(sizes) {
          worker.postMessage({
            kind: 'paint',
            mount,
            index,
            frame: { ...sizes, ...frameOf() },
            parts: partsSince(sent),
          });
        },
        snapshot() {
          const ask = ++asks;
          worker.postMessage({ kind: 'snapshot', mount, index, ask });
          return new Promise((resolve) => answers.set(ask, resolve));
        },
      };
    },
    forget() {
      worker?.postMessage({ kind: 'forget', mount });
    },
  };
}
