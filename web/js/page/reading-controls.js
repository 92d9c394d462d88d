// The page's reading controls: theme toggle, Level 1 / Level 2 switch (one URL per section),
// ARIA tabs for the snippets, and the step-through walkthrough.
import { t } from '../locale/i18n.js';

const THEME_KEY = 'positional-lesson:theme';

function effectiveTheme() {
  const set = document.documentElement.getAttribute('data-theme');
  if (set) return set;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Wires the theme button: flips light/dark and remembers the choice in localStorage. */
export function setupThemeToggle(button) {
  if (!button) return;
  const render = () => {
    const dark = effectiveTheme() === 'dark';
    button.setAttribute('aria-pressed', String(dark));
    button.querySelector('.theme-label').textContent = dark ? t('Dark') : t('Light');
  };
  button.addEventListener('click', () => {
    const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
    document.documentElement.setAttribute('data-theme', next);
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      // Not remembered where storage is unavailable; the choice still holds for this visit.
    }
    render();
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', render);
  render();
}

/**
 * The element id a fragment names: "#sec%2D1" → "sec-1". A fragment that is not valid
 * percent-encoding ("#%", "#%E0%A4%A") names an id as written, rather than throwing.
 */
export function fragmentId(hash) {
  const raw = String(hash).replace(/^#/, '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The element the address's fragment names, if any (the page was opened by a link into it). */
export function fragmentTarget() {
  const id = fragmentId(location.hash);
  return id ? document.getElementById(id) : null;
}

/**
 * What the reader is reading: the block of a section (a paragraph, a formula, a figure, a heading)
 * in the middle of the text column just below the site bar (which stays on screen on wide ones),
 * with where it is on screen. A block, not a section: a section keeps its top while the blocks
 * inside it above the reader change height.
 */
export function readingAnchor() {
  const main = document.getElementById('main');
  if (!main) return null;
  const bar = document.querySelector('.site-bar');
  const below = bar && getComputedStyle(bar).position === 'sticky' ? bar.getBoundingClientRect().bottom : 0;
  const column = main.getBoundingClientRect();
  const x = column.left + column.width / 2;
  for (let y = Math.max(below, 0) + 8; y < innerHeight; y += 48) {
    const el = document.elementFromPoint(x, y)?.closest('section > :not(section)');
    if (el && main.contains(el)) return { el, top: el.getBoundingClientRect().top };
  }
  return null;
}

/**
 * Showing a level adds or takes away thousands of pixels above the reader. Chromium and Firefox
 * keep some element on screen where it was (scroll anchoring), not always the one being read;
 * WebKit keeps none and left a reader in Level 2 who pressed "Both levels" about 7,700 px away, in
 * Level 1's text. So the page keeps the anchor where it was itself, once now and once after the
 * browser's own anchoring. If the level shown hides what was being read, the reader goes to the
 * start of the level they asked for.
 */
function keepPlace(anchor, level) {
  if (!anchor) return;
  if (restoreAnchor(anchor)) requestAnimationFrame(() => restoreAnchor(anchor));
  else document.getElementById(`level-${level}`)?.scrollIntoView({ behavior: 'instant' });
}

/**
 * Scrolls so that an anchor (readingAnchor()) is where it was on screen; false if it is no longer
 * shown. Reading its box lays the page out first, if it changed.
 */
export function restoreAnchor(anchor) {
  if (!anchor.el.isConnected || anchor.el.getClientRects().length === 0) return false;
  const moved = anchor.el.getBoundingClientRect().top - anchor.top;
  if (Math.abs(moved) >= 1) scrollBy({ top: moved, behavior: 'instant' });
  return true;
}

/**
 * Wires the level switch (all / 1 / 2). Sections carry data-level; the switch hides the other
 * level, and following a link into a hidden section shows its level again.
 */
export function setupLevelSwitch(group) {
  if (!group) return () => {};
  const buttons = [...group.querySelectorAll('button[data-show]')];
  const show = (level) => {
    document.documentElement.dataset.levelView = level;
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.show === level));
  };
  for (const b of buttons)
    b.addEventListener('click', () => {
      const anchor = readingAnchor();
      show(b.dataset.show);
      keepPlace(anchor, b.dataset.show);
    });
  const revealTarget = () => {
    const target = fragmentTarget();
    if (!target) return;
    const holder = target.closest('[data-level="1"], [data-level="2"]');
    const view = document.documentElement.dataset.levelView ?? 'all';
    if (holder && view !== 'all' && holder.dataset.level !== view) {
      show(holder.dataset.level);
      target.scrollIntoView();
    }
  };
  addEventListener('hashchange', revealTarget);
  show(document.documentElement.dataset.levelView ?? 'all');
  revealTarget();
  return show;
}

/** ARIA tabs: click or arrow keys / Home / End move between a snippet's Python and C++ panels. */
export function setupTabs(root) {
  for (const list of root.querySelectorAll('[role="tablist"]')) {
    const tabs = [...list.querySelectorAll('[role="tab"]')];
    const select = (tab, focus) => {
      for (const other of tabs) {
        const selected = other === tab;
        other.setAttribute('aria-selected', String(selected));
        other.tabIndex = selected ? 0 : -1;
        const panel = document.getElementById(other.getAttribute('aria-controls'));
        // A panel first shown holds its code in a <template> (render-lesson.mjs): it enters the page now.
        const held = selected ? panel.querySelector(':scope > template') : null;
        if (held) held.replaceWith(held.content);
        panel.hidden = !selected;
      }
      if (focus) tab.focus();
    };
    for (const tab of tabs) {
      tab.addEventListener('click', () => select(tab, false));
      tab.addEventListener('keydown', (event) => {
        const i = tabs.indexOf(tab);
        const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
        if (next === undefined) return;
        event.preventDefault();
        select(tabs[(next + tabs.length) % tabs.length], true);
      });
    }
  }
}

/** The walkthrough: one step at a time with Previous / Next; every step stays in the HTML. */
export function setupWalkthrough(root) {
  for (const walk of root.querySelectorAll('[data-walkthrough]')) {
    const steps = [...walk.querySelectorAll('.walkthrough-step')];
    const controls = walk.querySelector('.walkthrough-controls');
    const prev = controls.querySelector('[data-walk="prev"]');
    const next = controls.querySelector('[data-walk="next"]');
    const status = controls.querySelector('.walkthrough-status');
    let current = 0;
    const go = (i, focus) => {
      current = Math.max(0, Math.min(steps.length - 1, i));
      steps.forEach((s, k) => s.classList.toggle('is-hidden-step', k !== current));
      prev.disabled = current === 0;
      next.disabled = current === steps.length - 1;
      status.textContent = t('Step {step} of {steps}', { step: current + 1, steps: steps.length });
      if (focus) steps[current].querySelector('h4').focus();
    };
    for (const s of steps) s.querySelector('h4').tabIndex = -1;
    prev.addEventListener('click', () => go(current - 1, true));
    next.addEventListener('click', () => go(current + 1, true));
    walk.classList.add('is-stepping');
    controls.hidden = false;
    const fromHash = steps.findIndex((s) => `#${s.id}` === location.hash);
    go(fromHash >= 0 ? fromHash : 0, false);
  }
}

/** Printing shows the self-test answers and the contents expanded; they close again afterwards. */
export function setupPrint() {
  let opened = [];
  addEventListener('beforeprint', () => {
    opened = [...document.querySelectorAll('details:not([open])')];
    for (const d of opened) d.open = true;
  });
  addEventListener('afterprint', () => {
    for (const d of opened) d.open = false;
    opened = [];
  });
}
