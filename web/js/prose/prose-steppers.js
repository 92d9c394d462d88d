// @ts-check
// The − and + shown beside the focused number of the prose (prose-params.js), for a pointer that
// cannot drag (WCAG 2.5.7): one pair for the page, moved to whichever number has focus, placed where
// it covers none of the text being read.
import { t } from '../locale/i18n.js';

/** Room between the pair and the text (px). */
const GAP = 8;

/** The page's pair of − and + buttons, hidden until a number shows them. */
export function createProseSteppers() {
  const pair = document.createElement('span');
  pair.className = 'param-steppers';
  pair.hidden = true;
  /** @type {HTMLElement | null} the number they step */
  let stepping = null;
  /** @type {(key: string) => void} moves that number one step */
  let stepBy = () => {};

  for (const key of ['ArrowDown', 'ArrowUp']) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'param-step';
    // Out of the tab order (the number itself answers the arrow keys); a press keeps the focus on the number.
    button.tabIndex = -1;
    button.dataset.step = key === 'ArrowUp' ? 'up' : 'down';
    button.textContent = key === 'ArrowUp' ? '+' : '\u2212';
    for (const type of ['pointerdown', 'mousedown']) button.addEventListener(type, (event) => event.preventDefault());
    button.addEventListener('click', () => {
      if (!stepping) return;
      const handle = stepping;
      stepBy(key);
      handle.focus({ preventScroll: true });
      place();
    });
    pair.append(button);
  }

  // Where − and + go covers none of the text being read: beside the number's line in the margin right
  // of the text column where there is room for them, else docked at the bottom of the screen, within a
  // thumb's reach, with the page scrolled so the number's line stays above them.
  // `scroll`: whether the page may move to show the pair whole (not from the ResizeObserver: a scroll
  // there can let blocks in, resize the column again and loop within one frame).
  const place = ({ scroll = true } = {}) => {
    if (!stepping) return;
    const box = stepping.getBoundingClientRect();
    const column = (stepping.closest('main') ?? document.body).getBoundingClientRect();
    const viewport = document.documentElement.clientWidth;
    pair.classList.remove('is-docked');
    const size = pair.getBoundingClientRect();
    if (viewport - column.right >= size.width + 2 * GAP) {
      // Absolute against its offset parent (the document when none is positioned).
      const parent = pair.offsetParent;
      const origin =
        parent && parent !== document.body
          ? {
              x: parent.getBoundingClientRect().left - parent.scrollLeft,
              y: parent.getBoundingClientRect().top - parent.scrollTop,
            }
          : { x: -window.scrollX, y: -window.scrollY };
      const top = box.top + (box.height - size.height) / 2;
      pair.style.left = `${column.right + GAP - origin.x}px`;
      pair.style.top = `${top - origin.y}px`;
      // A number at the screen's edge (focus scrolls it just into view) would leave its taller pair
      // cut off: the page moves so both show whole, the pair placed against the document moving along.
      const screen = document.documentElement.clientHeight;
      const spill = Math.max(0, top + size.height + GAP - screen) - Math.max(0, GAP - top);
      if (scroll && spill !== 0) window.scrollBy({ top: spill, behavior: 'instant' });
      return;
    }
    pair.classList.add('is-docked');
    pair.style.left = '';
    pair.style.top = '';
    const docked = pair.getBoundingClientRect();
    const overlap = box.bottom + GAP - docked.top;
    if (scroll && overlap > 0) window.scrollBy({ top: overlap, behavior: 'instant' });
  };

  // The page can still grow above a shown pair (a figure mounting as the reader scrolls): the browser
  // keeps the number where it is on the screen, and the pair, placed against the document, follows it.
  const follow = new ResizeObserver(() => place({ scroll: false }));

  return {
    /**
     * Shows the pair for `handle` (just focused), named for its parameter's `label`; a press calls
     * `step(key)` ('ArrowDown' or 'ArrowUp'), which takes the value through the number's rules.
     * @param {HTMLElement} handle @param {string} label @param {(key: string) => void} step
     */
    show(handle, label, step) {
      stepping = handle;
      stepBy = step;
      const [down, up] = pair.children;
      down.setAttribute('aria-label', t('Decrease {label}', { label }));
      up.setAttribute('aria-label', t('Increase {label}', { label }));
      // Out of the flow: showing or hiding them never moves the text (a press that blurs the number must
      // still land where the reader aimed).
      // In the page's main landmark, where every content lives (the accessibility suite checks it).
      const home = handle.closest('main') ?? document.body;
      if (pair.parentElement !== home) home.append(pair);
      pair.hidden = false;
      place();
      follow.observe(home);
    },
    /** `handle` lost the focus to `to`: the pair goes, unless the focus went to it or it shows another number. */
    blurred(handle, to) {
      if (pair.contains(to)) return;
      if (stepping === handle) {
        stepping = null;
        pair.hidden = true;
        follow.disconnect();
      }
    },
  };
}
