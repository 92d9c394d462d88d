// The length lab's training, off the page's main thread: a module Worker that loads the engine and its
// lab module once, then trains one model per message and reports each run's losses as they come.
//
//   → { run, options }                          train with engine.trainLengthLab(options)
//   ← { run, kind: 'progress', step, losses }    the losses of the steps done since the last report
//   ← { run, kind: 'done', result }              the run's result (Float64Arrays travel by structured clone)
//   ← { run, kind: 'error', message }            the engine refused the options or failed to load
//
// A run cannot be interrupted by a message (the engine's call holds this thread until it returns), so
// the page stops training by terminating the worker (lab-runner.js).
import { loadEngineFactory } from '../engine/engine-source.js';

/** Milliseconds between progress reports: about one per frame, however fast the steps are. */
const REPORT_EVERY_MS = 16;

let engineReady = null;
const engine = () =>
  (engineReady ??= (async () => {
    const createEngine = await loadEngineFactory();
    const loaded = await createEngine();
    await loaded.loadLengthLab();
    return loaded;
  })());

self.addEventListener('message', async ({ data: { run, options } }) => {
  try {
    const lab = await engine();
    let pending = [];
    let reported = performance.now();
    const result = lab.trainLengthLab(options, (step, loss) => {
      pending.push(loss);
      const now = performance.now();
      if (now - reported >= REPORT_EVERY_MS) {
        self.postMessage({ run, kind: 'progress', step, losses: pending });
        pending = [];
        reported = now;
      }
      return true;
    });
    if (pending.length) self.postMessage({ run, kind: 'progress', step: result.losses.length, losses: pending });
    self.postMessage({ run, kind: 'done', result });
  } catch (error) {
    self.postMessage({ run, kind: 'error', message: String(error?.message ?? error) });
  }
});
