// Where the chart Worker comes from: paint-worker.js beside this module (in the site's bundle, the
// bundled Worker beside the bundle's chunks). The single-file build swaps this module for one that
// returns null (a page opened from disk has no second file to start a Worker from), and every chart
// is then painted on the page's own thread.

/** The URL of the charts' module Worker, or null where there is none. */
export function paintWorkerUrl() {
  return new URL('./paint-worker.js', import.meta.url).href;
}
