// Writes web/js/lab/recorded-runs.json: the length lab's recorded medians at the page's default size, which
// the figure draws until the reader trains (and faintly beside the reader's run), from the committed
// results file. length-lab.js imports it as a JSON module, as model-card/model-presets.js imports the
// presets (esbuild inlines it in the single file). `node web/site-builder/lab-recorded.mjs` rewrites it; node.lab-numbers
// fails until it holds the file's medians.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LAB_VARIANTS, labModelOf, loadLabResults } from './lab-results.mjs';

export const RECORDED_FILE = new URL('../js/lab/recorded-runs.json', import.meta.url);

/**
 * What the file holds, from `results` (the parsed results file): { seeds, trainLength, steps, tasks },
 * tasks: task → variant → the median over the seeds of the fraction of targets right at 1×…8× the
 * trained length (native build, rounded to 4 decimals).
 */
export function recordedRuns(results = loadLabResults()) {
  const { config, runs } = results.sizes.default;
  const tasks = Object.fromEntries(
    Object.entries(runs).map(([task, byScheme]) => [
      task,
      Object.fromEntries(
        LAB_VARIANTS.map((variant) => {
          const scheme = labModelOf(variant);
          return [variant, byScheme[scheme].accuracy[variant].map((cell) => Number(cell.median.toFixed(4)))];
        }),
      ),
    ]),
  );
  return { seeds: results.seeds, trainLength: config.train_length, steps: config.steps, tasks };
}

/** The file's text: indented JSON with each variant's medians on one line. */
export function recordedRunsJson(results = loadLabResults()) {
  const text = JSON.stringify(recordedRuns(results), null, 2);
  return `${text.replace(/\[\s+([^[\]{}]*?)\s+\]/g, (_, numbers) => `[${numbers.split(/,\s+/).join(', ')}]`)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(RECORDED_FILE, recordedRunsJson());
  console.log(`wrote ${fileURLToPath(RECORDED_FILE)}`);
}
