// Where the reader is: the level choice as a link (?level=1 or ?level=2) and remembered between
// visits where storage allows, and the contents (collapsed on narrow screens, the section in view
// marked with aria-current on wide ones).

/** The localStorage key of the remembered level; theme-init.js applies it before the first paint. */
export const LEVEL_KEY = 'positional-lesson:level';
/** Screens at least this wide show the contents as a sidebar (the same width as base.css). */
const WIDE_SCREEN = '(min-width: 70rem)';

function storageOrNull() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * After each click on the level switch: writes the choice into the address (so the URL can be
 * shared) and into storage where it is available.
 */
export function setupLevelMemory(group) {
  if (!group) return;
  for (const button of group.querySelectorAll('button[data-show]')) {
    button.addEventListener('click', () => {
      const level = button.dataset.show;
      const url = new URL(location.href);
      if (level === 'all') url.searchParams.delete('level');
      else url.searchParams.set('level', level);
      history.replaceState(history.state, '', url);
      try {
        storageOrNull()?.setItem(LEVEL_KEY, level);
      } catch {
        // Not remembered where storage is blocked; the choice still holds for this visit.
      }
    });
  }
}

/**
 * The contents: open as a sidebar on wide screens (the HTML starts it closed, so a phone's first
 * screen is the lesson), and there the link of the section being read carries aria-current.
 */
export function setupContents(nav) {
  if (!nav) return;
  const details = nav.querySelector('details');
  const wide = matchMedia(WIDE_SCREEN);
  if (wide.matches && details) details.open = true;
  const links = new Map([...nav.querySelectorAll('a[href^="#"]')].map((a) => [decodeURIComponent(a.hash.slice(1)), a]));
  const sections = [...links.keys()].map((id) => document.getElementById(id)).filter(Boolean);
  if (!sections.length || typeof IntersectionObserver === 'undefined') return;
  const visible = new Set();
  let current = null;
  const mark = () => {
    // The innermost section whose heading has passed the top third of the screen.
    let best = null;
    for (const section of sections) {
      if (visible.has(section) && (!best || best.contains(section))) best = section;
    }
    const link = wide.matches && best ? links.get(best.id) : null;
    if (link === current) return;
    current?.removeAttribute('aria-current');
    link?.setAttribute('aria-current', 'location');
    current = link;
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) visible.add(entry.target);
        else visible.delete(entry.target);
      }
      mark();
    },
    { rootMargin: '-20% 0px -70% 0px' },
  );
  for (const section of sections) observer.observe(section);
  wide.addEventListener('change', () => {
    if (wide.matches && details) details.open = true;
    mark();
  });
}
