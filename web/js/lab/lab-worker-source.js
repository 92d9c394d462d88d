// Where the length lab's Worker comes from: lab-worker.js beside this module. The single-file build swaps
// this module for one that returns null (a page opened from disk has no second file to start a Worker
// from), and the lab then trains on the page's own thread.

/** The URL of the lab's module Worker, or null where there is none. */
export function labWorkerUrl() {
  return new URL('./lab-worker.js', import.meta.url).href;
}
