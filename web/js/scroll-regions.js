// Makes a box that scrolls sideways (a wide formula on a phone) reachable from the keyboard,
// only while it actually overflows, so narrow screens gain a tab stop and wide ones do not.
// Measuring a box lays it out: one in a section content-visibility skips (lesson.css) would be
// laid out just to be measured, so each is measured once the browser has rendered it.

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
 * True when the browser skips `el`'s rendering (content-visibility: auto, far from the viewport).
 * A box not displayed at all (a level the reader hides) is not skipped: it measures 0 wide at no
 * layout cost, and the ResizeObserver checks it again once it shows.
 */
function skipped(el) {
  return (
    typeof el.checkVisibility === 'function' &&
    el.checkVisibility() &&
    !el.checkVisibility({ contentVisibilityAuto: true })
  );
}

const idle = (callback) =>
  typeof requestIdleCallback === 'function'
    ? requestIdleCallback(callback, { timeout: 1000 })
    : setTimeout(() => callback({ timeRemaining: () => 8, didTimeout: false }), 16);

/**
 * Keeps each of `elements` a focusable group named `label` while it overflows. A box the browser
 * renders is checked when a ResizeObserver reports it (after layout, so the check forces none) and
 * again whenever it or what it holds changes size; any other box the browser renders is checked in
 * idle time. Returns a promise that settles once every box has been checked (a box in a skipped
 * section waits until the section is rendered).
 */
export function keepScrollersFocusable(elements, label) {
  if (typeof ResizeObserver === 'undefined') {
    elements.forEach((el) => update(el, label));
    return Promise.resolve();
  }
  const unchecked = new Set(elements);
  const check = (el) => {
    unchecked.delete(el);
    update(el, label);
  };
  const owner = new Map();
  const observer = new ResizeObserver((entries) => {
    for (const entry of entries) {
      const el = owner.get(entry.target);
      if (!skipped(el)) check(el);
    }
  });
  for (const el of elements) {
    // The box itself (the viewport narrows) and what it holds (the formula widens).
    for (const target of [el, el.firstElementChild].filter(Boolean)) {
      owner.set(target, el);
      observer.observe(target);
    }
  }
  // A formula can widen without its box changing size (its web fonts arrive later in some engines,
  // Firefox among them): check the rendered ones again once the fonts are in.
  document.fonts?.ready.then(
    () => elements.filter((el) => !unchecked.has(el) && !skipped(el)).forEach((el) => update(el, label)),
    () => {},
  );
  return new Promise((resolve) => {
    // Boxes the browser still skips wait: measuring one would lay its whole section out at once.
    const step = (deadline) => {
      for (const el of [...unchecked]) {
        if (deadline.timeRemaining() < 2) break;
        if (!skipped(el)) check(el);
      }
      if (!unchecked.size) resolve();
      else if ([...unchecked].every(skipped)) setTimeout(() => idle(step), 100);
      else idle(step);
    };
    idle(step);
  });
}
