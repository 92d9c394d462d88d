// @ts-check
// The live numbers and claim sentences of the prose, written for a set of parameter values: those
// of a section the reader moved (prose-params.js), and those of a chart's caption, which states what
// the chart draws.
import {
  chartParameters,
  claimHolds,
  computeEngineResults,
  LIVE_CLAIMS,
  LIVE_QUANTITIES,
  liveText,
  PARAMETER_DEFAULTS,
  PARAMETER_ECHOES,
} from './live-values.js';
import { formatValue } from '../locale/format.js';

/**
 * Shows, of each claim sentence in `branches` whose claim reads one of `names`, the branch that
 * holds for parameter `values` ({{when:…}} while the claim holds, {{else}} otherwise).
 */
export function showClaims(branches, names, values, results) {
  if (!results) return;
  for (const branch of branches) {
    const name = branch.dataset.when ?? branch.dataset.unless;
    if (!LIVE_CLAIMS[name]?.inputs.some((input) => names.includes(input))) continue;
    let holds;
    try {
      holds = claimHolds(name, results, values);
    } catch (error) {
      console.warn(`The claim ${name} could not be checked:`, error);
      continue;
    }
    const hidden = branch.dataset.when !== undefined ? !holds : holds;
    if (branch.hidden !== hidden) branch.hidden = hidden;
  }
}

/**
 * Writes each element's live number for parameter `values` (the lesson's where one is missing),
 * computed by `engine`; `moved` marks them as moved from the lesson's.
 * Returns the engine's results for `values` (null when they could not be computed).
 */
export function writeLiveNumbers(engine, elements, values, moved) {
  let results;
  try {
    results = computeEngineResults(engine, values);
  } catch (error) {
    results = null;
    console.warn('The prose parameters could not be computed:', error);
  }
  for (const element of elements) {
    let text;
    try {
      text = liveText(element.dataset.live, results, element.dataset.format);
      element.classList.toggle('live-unavailable', false); // remove() rewrites even an unchanged class
      element.removeAttribute('title');
    } catch (error) {
      // A value the engine refuses (say, a base so large the scaled one overflows) is said, not hidden.
      text = '—';
      element.classList.add('live-unavailable');
      element.title = error.message;
    }
    if (element.textContent !== text) element.textContent = text;
    element.classList.toggle('is-moved', moved);
  }
  return results;
}

/**
 * A chart's caption states what the chart draws: each time the chart changes (its controls, its
 * handles, or the prose moving it), its caption's live numbers and echoes are recomputed for the
 * chart's state, read through the parameters of the same meaning (LIVE_PARAMETERS `chart`), by
 * `engine`. `id` is the chart's under `root`.
 */
export function followCaption(root, engine, id, state) {
  const caption = root.querySelector(`[data-chart="${CSS.escape(id)}"] > figcaption`);
  if (!caption) return;
  const values = chartParameters(id, state);
  const moved = Object.keys(values).some((name) => values[name] !== PARAMETER_DEFAULTS[name]);
  const results = writeLiveNumbers(
    engine,
    [...caption.querySelectorAll('[data-live]')].filter((e) =>
      LIVE_QUANTITIES[e.dataset.live]?.inputs?.some((name) => name in values),
    ),
    values,
    moved,
  );
  showClaims([...caption.querySelectorAll('[data-when], [data-unless]')], Object.keys(values), values, results);
  const all = { ...PARAMETER_DEFAULTS, ...values };
  for (const echo of caption.querySelectorAll('[data-echo]')) {
    const spec = PARAMETER_ECHOES[echo.dataset.echo];
    if (!spec?.inputs.some((name) => name in values)) continue;
    const text = formatValue(spec.value(all), spec.format);
    if (echo.textContent !== text) echo.textContent = text;
    echo.classList.toggle('is-moved', moved);
  }
}
