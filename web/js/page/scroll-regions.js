// Makes a box that scrolls sideways (a wide formula on a phone) reachable from the keyboard,
// only while it actually overflows, so narrow screens gain a tab stop and wide ones do not.

/**
 * Marks each of `elements` (registered boxes) as overflowing or not. Every size is read before any
 * attribute is written: reading after a write would make the browser lay the page out again for
 * each element.
 */
function updateAll(elements) {
  const overflowing = elements.map((el) => el.scrollWidth > el.clientWidth + 1);
  elements.forEach((el, i) => mark(el, overflowing[i], labels.get(el)));
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

// One observer for every box on the page, however many calls register them. `boxOf` maps each
// observed element to its box; `labels`, each box to the name it gets while it overflows.
let observer = null;
const boxOf = new WeakMap();
const labels = new WeakMap();

function observe(elements) {
  observer ??= new ResizeObserver((entries) => updateAll([...new Set(entries.map((e) => boxOf.get(e.target)))]));
  for (const box of elements) {
    // The box itself (the viewport narrows) and what it holds (the formula widens).
    for (const target of [box, box.firstElementChild].filter(Boolean)) {
      boxOf.set(target, box);
      observer.observe(target);
    }
  }
}

/**
 * Checks `elements` now (reading scrollWidth lays out what content-visibility skipped, so call it
 * once the page is ready, not while it loads), then again whenever one changes size: a focusable
 * group named `label` while it overflows.
 */
export function keepScrollersFocusable(elements, label) {
  for (const box of elements) labels.set(box, label);
  const checkAll = () => updateAll(elements);
  checkAll();
  // A formula can widen without its box changing size (its web fonts arrive later in some engines,
  // Firefox among them), so check again once the fonts are in. Only while they are still loading:
  // once they are in, the check above saw them, and a second check in a microtask would run after
  // the caller's next writes and force the layout it was timed to avoid.
  if (document.fonts?.status === 'loading') document.fonts.ready.then(checkAll, () => {});
  if (typeof ResizeObserver !== 'undefined' && elements.length) observe(elements);
}
