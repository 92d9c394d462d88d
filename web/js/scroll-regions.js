// Makes a box that scrolls sideways (a wide formula on a phone) reachable from the keyboard,
// only while it actually overflows, so narrow screens gain a tab stop and wide ones do not.

/**
 * Marks each of `elements` as overflowing or not. Every size is read before any attribute is
 * written: reading after a write would make the browser lay the page out again for each element.
 */
function updateAll(elements, label) {
  const overflowing = elements.map((el) => el.scrollWidth > el.clientWidth + 1);
  elements.forEach((el, i) => mark(el, overflowing[i], label));
}

function mark(el, overflowing, label) {
  if (overflowing === (el.dataset.scrollRegion !== undefined)) return;
  if (overflowing) {
    el.tabIndex = 0;
    el.setAttribute('role', 'group'); // not a landmark: several formulas may scroll at once
    el.setAttribute('aria-label', label);
    el.dataset.scrollRegion = '';
  } else {
    el.removeAttribute('tabindex');
    el.removeAttribute('role');
    el.removeAttribute('aria-label');
    delete el.dataset.scrollRegion;
  }
}

/**
 * Checks `elements` now (reading scrollWidth lays out what content-visibility skipped, so call it
 * once the page is ready, not while it loads), then again whenever one changes size: a focusable
 * group named `label` while it overflows.
 */
export function keepScrollersFocusable(elements, label) {
  const checkAll = () => updateAll(elements, label);
  checkAll();
  // A formula can widen without its box changing size (its web fonts arrive later in some engines,
  // Firefox among them), so check again once the fonts are in.
  document.fonts?.ready.then(checkAll, () => {});
  if (typeof ResizeObserver === 'undefined' || !elements.length) return;
  const owner = new Map();
  const observer = new ResizeObserver((entries) =>
    updateAll([...new Set(entries.map((e) => owner.get(e.target)))], label),
  );
  for (const el of elements) {
    // The box itself (the viewport narrows) and what it holds (the formula widens).
    for (const target of [el, el.firstElementChild].filter(Boolean)) {
      owner.set(target, el);
      observer.observe(target);
    }
  }
}
