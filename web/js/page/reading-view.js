// Where the reader is: the level choice as a link (?level=1 or ?level=2) and remembered between
// visits where storage allows, and the contents (collapsed on narrow screens, the section in view
// marked with aria-current on wide ones, the sections already read marked, and a returning
// reader offered the way back to where they left off).
import { t } from '../locale/i18n.js';

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

/** The localStorage key of the reader's progress: { read: [section ids], at: section id }. */
export const PROGRESS_KEY = 'positional-lesson:progress';

/**
 * The reader's progress as stored, or null: only on a page of its own (in a frame, an embed or a
 * course package, the host keeps the reader's place; a course site is the learner's memory), and
 * only where storage works. A malformed record is read as none.
 */
function progressStore() {
  if (window.parent !== window) return null;
  const storage = storageOrNull();
  if (!storage) return null;
  let saved = { read: [], at: null };
  try {
    const record = JSON.parse(storage.getItem(PROGRESS_KEY) ?? 'null');
    if (record && Array.isArray(record.read) && (record.at === null || typeof record.at === 'string'))
      saved = { read: record.read.filter((id) => typeof id === 'string'), at: record.at };
  } catch {
    // Unreadable: start afresh.
  }
  return {
    saved,
    save(progress) {
      try {
        storage.setItem(PROGRESS_KEY, JSON.stringify(progress));
      } catch {
        // Not remembered where storage is full or blocked.
      }
    },
  };
}

/** Marks the contents' entry of section `id` as read: a mark, and the word for a screen reader. */
function markRead(link) {
  const item = link?.parentElement;
  if (!item || item.querySelector(':scope > .toc-read')) return;
  const mark = document.createElement('span');
  mark.className = 'toc-read';
  const sign = document.createElement('span');
  sign.setAttribute('aria-hidden', 'true');
  sign.textContent = '✓';
  const words = document.createElement('span');
  words.className = 'visually-hidden';
  words.textContent = t('(read)');
  mark.append(sign, words);
  link.after(mark);
}

/**
 * For a returning reader who left off in a section (and came to the page's top, not to a link of
 * their own): a note under the title with a link back there, and a button that dismisses it.
 */
function offerContinue(id, links) {
  const section = document.getElementById(id);
  const link = links.get(id);
  const title = document.querySelector('h1');
  if (!section || !link || !title || location.hash) return;
  // A div: the header's first paragraph is the lede, styled as one (lesson.css).
  const note = document.createElement('div');
  note.className = 'continue-reading';
  note.setAttribute('role', 'note');
  const back = document.createElement('a');
  back.href = `#${id}`;
  back.textContent = t('Continue where you left off: {section}', { section: link.textContent.trim() });
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.textContent = '×';
  dismiss.setAttribute('aria-label', t('Dismiss'));
  dismiss.addEventListener('click', () => note.remove());
  back.addEventListener('click', () => note.remove());
  note.append(back, dismiss);
  title.after(note);
}

/**
 * The contents: open as a sidebar on wide screens (the HTML starts it closed, so a phone's first
 * screen is the lesson), and there the link of the section being read carries aria-current. On a
 * page of its own, the sections the reader has been in are marked read and remembered, with the
 * last one, which a later visit offers to go back to.
 */
export function setupContents(nav) {
  if (!nav) return;
  const details = nav.querySelector('details');
  const wide = matchMedia(WIDE_SCREEN);
  if (wide.matches && details) details.open = true;
  const links = new Map([...nav.querySelectorAll('a[href^="#"]')].map((a) => [decodeURIComponent(a.hash.slice(1)), a]));
  const sections = [...links.keys()].map((id) => document.getElementById(id)).filter(Boolean);
  if (!sections.length || typeof IntersectionObserver === 'undefined') return;
  const store = progressStore();
  const read = new Set(store?.saved.read.filter((id) => links.has(id)));
  for (const id of read) markRead(links.get(id));
  if (store?.saved.at && links.has(store.saved.at)) offerContinue(store.saved.at, links);
  const visible = new Set();
  let current = null;
  let at = null;
  const mark = () => {
    // The innermost section whose heading has passed the top third of the screen.
    let best = null;
    for (const section of sections) {
      if (visible.has(section) && (!best || best.contains(section))) best = section;
    }
    if (store && best && best.id !== at) {
      at = best.id;
      // Every section around the one being read has been reached too.
      for (let node = best; node; node = node.parentElement?.closest('section')) {
        if (links.has(node.id) && !read.has(node.id)) {
          read.add(node.id);
          markRead(links.get(node.id));
        }
      }
      store.save({ read: [...read], at });
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
