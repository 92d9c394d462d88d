// The page's mounted charts as the prose sees them: a chart mounts lazily when its figure nears the
// viewport (charts/index.js), so the prose asks for one by id and is told when it arrives.

/** The mounted chart with this id (window.positionalCharts.mounted), or null while it is not drawn. */
export function mountedChart(id) {
  return globalThis.positionalCharts?.mounted?.get(id) ?? null;
}

/** Every mounted chart: [id, chart] pairs. */
export function mountedCharts() {
  return [...(globalThis.positionalCharts?.mounted ?? new Map())];
}

/**
 * Calls onMount(id, chart) each time a chart slot under `root` finishes mounting (its
 * data-chart-state becomes "mounted"). Returns a function that stops watching.
 */
export function watchChartMounts(root, onMount) {
  const observer = new MutationObserver((records) => {
    for (const { target } of records) {
      if (target.dataset?.chartState !== 'mounted') continue;
      const chart = mountedChart(target.dataset.chart);
      if (chart) onMount(target.dataset.chart, chart);
    }
  });
  observer.observe(root, { subtree: true, attributes: true, attributeFilter: ['data-chart-state'] });
  return () => observer.disconnect();
}

/**
 * Sets one control of a chart through its own rules, as if typed: the contract's set(patch), or for a
 * chart not yet on the skeleton its declared control's set(value).
 */
export function setChartControl(chart, key, value) {
  if (typeof chart.set === 'function') chart.set({ [key]: value });
  else chart.controls?.[key]?.set(value);
}
