// What the measuring scripts that write tests/bench/results/*.json share: their command line (--dist,
// --out and the counts of repetitions), the median they report, the machine they record and the report's
// envelope.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const repo = new URL('../../', import.meta.url).pathname;

/**
 * Reads a measuring script's command line: --dist (default POSITIONAL_DIST, else the repository's
 * dist/), --out (default tests/bench/results/`resultsFile`) and one option per entry of `counts`,
 * `{ name: { default, least } }`, an integer of at least `least`, and one string option per entry of
 * `strings`, `{ name: default }` (undefined for none). Returns { dist, out, ...counts as numbers, ...strings }.
 */
export function measuringOptions(resultsFile, counts = {}, strings = {}) {
  const { values } = parseArgs({
    options: {
      dist: { type: 'string', default: process.env.POSITIONAL_DIST ?? join(repo, 'dist') },
      ...Object.fromEntries(
        Object.entries(strings).map(([name, value]) => [
          name,
          { type: 'string', ...(value === undefined ? {} : { default: value }) },
        ]),
      ),
      ...Object.fromEntries(
        Object.entries(counts).map(([name, count]) => [name, { type: 'string', default: String(count.default) }]),
      ),
      out: { type: 'string', default: join(repo, 'tests', 'bench', 'results', resultsFile) },
    },
  });
  const options = { dist: values.dist, out: values.out };
  for (const name of Object.keys(strings)) options[name] = values[name];
  for (const [name, { least }] of Object.entries(counts)) {
    const n = Number(values[name]);
    const wanted = least === 1 ? 'a positive integer' : `an integer ≥ ${least}`;
    if (!Number.isInteger(n) || n < least) throw new Error(`--${name} must be ${wanted}, got ${values[name]}`);
    options[name] = n;
  }
  return options;
}

/** The median of the numbers `xs` (the mean of the middle two when there is an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The `p` quantile of the numbers `xs` (0 ≤ p ≤ 1): the value at ⌊p·n⌋ in sorted order, the last at most; null if none. */
export function quantile(xs, p) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

/** The 1-, 5- and 15-minute load averages as one string, e.g. "0.52 0.61 0.70". */
export function loadAverages() {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}

/** The machine a report was measured on: its CPU model, core count and Node's version, then `extra`. */
export function machineRecord(extra = {}) {
  return { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, node: process.version, ...extra };
}

/**
 * Writes a report to `out` as JSON, { about, command, date, machine (with the load averages `loadStart`
 * taken when the script began), ...figures, loadAverageEnd }, and says where.
 */
export function writeReport(out, { about, command, loadStart }, figures) {
  const report = {
    about,
    command,
    date: new Date().toISOString(),
    machine: machineRecord({ loadAverage: loadStart }),
    ...figures,
    loadAverageEnd: loadAverages(),
  };
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${out}`);
}
