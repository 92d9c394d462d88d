// Makes a box that scrolls sideways (a wide formula on a phone) reachable from the keyboard,
// only while it actually overflows, so narrow screens gain a tab stop and wide ones do not.

function update(el, label) {
  const overflowing = el.scrollWidth > el.clientWidth + 1;
  if (overflowing && !el.hasAttribute('tabindex')) {
    el.tabIndex = 0;
    el.setAttribute('role', 'group'); // not a landmark: several formulas may scroll at once
    el.setAttribute('aria-label', label);
  } else if (!overflowing && el.dataset.scrollRegion !== undefined) {
    el.removeAttribute('tabindex');
    el.removeAttribute('role');
    el.removeAttribute('aria-label');
  }
  if (overflowing) el.dataset.scrollRegion = '';
  else delete el.dataset.scrollRegion;
}

/**
 * Checks `elements` now (reading scrollWidth lays out what content-visibility skipped, so call it
 * once the page is ready, not while it loads), then again whenever one changes size: a focusable
 * group named `label` while it overflows.
 */
export function keepScrollersFocusable(elements, label) {
  for (const el of elements) update(el, label);
  if (typeof ResizeObserver === 'undefined' || !elements.length) return;
  const observer = new ResizeObserver((entries) => entries.forEach((e) => update(e.target, label)));
  for (const el of elements) observer.observe(el);
}
