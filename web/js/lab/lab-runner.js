// Runs the length lab's models: in module Workers where the browser has them (lab-worker.js), so the page
// answers the reader while models train, several at once on a device with cores to spare; otherwise on
// the page's own thread, one model at a time, with a pause between models for the page to paint and for
// Stop to be pressed. Either way every run is the same call with the same options, so the results are
// the same bits.

import { labWorkerUrl } from './lab-worker-source.js';
import { startModuleWorker as startWorker } from '../page/worker-url.js';

/** At most this many Workers train at once (each holds its own engine, a few MB). */
export const MAX_LAB_WORKERS = 4;

/** How many Workers to start for `jobs` models: one core is left to the page. */
export function labPoolSize(jobs, cores = globalThis.navigator?.hardwareConcurrency ?? 2) {
  return Math.max(1, Math.min(jobs, MAX_LAB_WORKERS, (Number.isFinite(cores) ? cores : 2) - 1));
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A runner: { train(jobs, listener) → Promise<{ stopped }>, stop(), mode }. jobs: [{ name, options }]
 * (options as engine.trainLengthLab takes them). listener: { progress(name, step, losses), done(name,
 * result), failed(name, message) }, each called on the page's thread. `loadEngine` resolves to the page's
 * engine (used only where no Worker runs). mode is 'worker' or 'page' once training has started.
 */
export function createLabRunner({ loadEngine, workerUrl = labWorkerUrl(), poolSize = labPoolSize } = {}) {
  let workers = [];
  let stopped = false;
  let finish = null; // resolves the training under way
  const runner = {
    mode: null,
    fallback: null, // why the page took over from the Workers, if it did
    async train(jobs, listener) {
      runner.stop();
      stopped = false;
      runner.fallback = null;
      const queue = jobs.map((job, index) => ({ ...job, index }));
      const outcome = new Promise((resolve) => {
        finish = resolve;
      });
      const first = startWorker(workerUrl);
      if (first) {
        runner.mode = 'worker';
        workers = [first];
        for (let i = 1; i < poolSize(queue.length); i += 1) {
          const more = startWorker(workerUrl);
          if (more) workers.push(more);
        }
        runInWorkers(queue, listener);
      } else {
        runner.mode = 'page';
        runOnPage(queue, listener);
      }
      return outcome;
    },
    stop() {
      if (!finish) return;
      stopped = true;
      for (const worker of workers) worker.terminate();
      workers = [];
      settle({ stopped: true });
    },
  };

  function settle(result) {
    const resolve = finish;
    finish = null;
    resolve?.(result);
  }

  function runInWorkers(queue, listener) {
    let running = 0;
    let started = false; // some worker has answered: a later worker error is a run's, not a missing Worker
    const next = (worker) => {
      const job = queue.shift();
      if (!job) {
        worker.terminate();
        if (running === 0 && finish) settle({ stopped: false });
        return;
      }
      running += 1;
      worker.onmessage = ({ data }) => {
        started = true;
        if (data.kind === 'progress') listener.progress(job.name, data.step, data.losses);
        else {
          running -= 1;
          if (data.kind === 'done') listener.done(job.name, data.result);
          else listener.failed(job.name, data.message);
          if (!stopped) next(worker);
        }
      };
      // The Worker's script did not load (its type refused, a policy, a missing file): the page trains.
      worker.onerror = (event) => {
        event.preventDefault?.();
        if (stopped) return;
        if (!started) {
          runner.fallback = String(event.message || 'the Worker’s script did not load');
          const left = [...inFlight(), ...queue].sort((a, b) => a.index - b.index);
          queue.length = 0;
          for (const w of workers) w.terminate();
          workers = [];
          runner.mode = 'page';
          runOnPage(left, listener);
          return;
        }
        running -= 1;
        listener.failed(job.name, String(event.message ?? 'the Worker failed'));
        next(worker);
      };
      worker.current = job;
      worker.postMessage({ run: job.index, options: job.options });
    };
    const inFlight = () => workers.map((w) => w.current).filter(Boolean);
    for (const worker of workers) next(worker);
  }

  async function runOnPage(queue, listener) {
    try {
      const engine = await loadEngine();
      await engine.loadLengthLab();
      for (const job of queue) {
        await pause(); // paint, and let a Stop press land, between models
        if (stopped) return;
        try {
          const result = engine.trainLengthLab(job.options, (step, loss) => {
            listener.progress(job.name, step, [loss]);
            return !stopped;
          });
          listener.done(job.name, result);
        } catch (error) {
          listener.failed(job.name, String(error?.message ?? error));
        }
      }
      if (!stopped) settle({ stopped: false });
    } catch (error) {
      for (const job of queue) listener.failed(job.name, String(error?.message ?? error));
      settle({ stopped: false });
    }
  }

  return runner;
}
