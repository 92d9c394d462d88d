// The frame every chart shares: controls, the plot, a live description, export buttons and
// the "Data" table, built inside the slot's mount point. Text is set with textContent only.

import { addExportButtons, renderDataTable } from './export.js';
import { themeColors } from './canvas.js';
import { failureText } from './failure.js';
import { t } from '../locale/i18n.js';
import { element } from '../page/element.js';

/**
 * Builds the chart's DOM inside `slot` (its .chart-mount when present).
 * Returns { root, controls, plot, describe(text), setData(table), destroy() } and wires exports to
 * the callbacks in `exports` ({ getCanvases, getCsv }); `title` names the data table (the id when absent).
 */
export function createChartShell(slot, id, { title = id, exports }) {
  const mount = slot.querySelector(':scope > .chart-mount') ?? slot;
  const root = element('div', 'chart');
  root.dataset.chartRoot = id;
  const controls = element('div', 'chart-controls');
  const plot = element('div', 'chart-plot');
  const status = element('p', 'chart-description');
  status.setAttribute('aria-live', 'polite');
  const problem = element('p', 'chart-error');
  problem.setAttribute('role', 'alert');
  problem.hidden = true;
  const tools = element('div', 'chart-tools');
  const details = element('details', 'chart-data');
  const summary = element('summary', '', t('Data'));
  const wrap = element('div', 'chart-table-wrap');
  // The table scrolls inside its box: keyboard users need to reach it to scroll it (WCAG 2.1.1).
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'region');
  // Named by the chart's title (in the page's language), not its id.
  wrap.setAttribute('aria-label', t('{title}: data table', { title }));
  details.append(summary, wrap);
  root.append(controls, problem, plot, status, tools, details);
  const caption = slot.querySelector('figcaption');
  if (caption) {
    caption.id ||= `fig-${id}-caption`;
    root.setAttribute('aria-describedby', caption.id);
  }
  mount.replaceChildren(root);
  addExportButtons(tools, id, { ...exports, getBackground: () => themeColors(root).bg });
  let lastTable = null;
  // A table may be given as a function, called only when the Data view is open (a big table is
  // then computed on demand, never while a slider is being dragged).
  const fill = () => lastTable && renderDataTable(details, typeof lastTable === 'function' ? lastTable() : lastTable);
  details.addEventListener('toggle', fill);
  return {
    root,
    controls,
    plot,
    /** Sets the live description (read by screen readers when it changes); a drawn chart clears any earlier failure. */
    describe(text) {
      // Written only on a change: every write, even of the same value, is a DOM mutation.
      if (!problem.hidden) problem.hidden = true;
      if (status.textContent !== text) status.textContent = text;
    },
    /** Says in the chart's place that its computation failed; the controls stay usable. */
    fail(error) {
      problem.textContent = failureText(error);
      problem.hidden = false;
      console.warn(`The chart "${id}" could not be drawn:`, error);
    },
    /** Updates the Data view: a table, or a function returning one (built only while the details element is open). */
    setData(table) {
      lastTable = table;
      if (details.open) fill();
    },
    destroy() {
      mount.replaceChildren();
    },
  };
}

export { failureText } from './failure.js';
