// Embed mode (?embed=<section-or-figure-id>): shows that piece alone, sized for an iframe, and
// posts its height to the parent page on load and on every resize.

/** The id asked for in ?embed=…, or null. */
export function embedTarget() {
  return new URLSearchParams(location.search).get('embed');
}

function postHeight() {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (window.parent !== window) window.parent.postMessage({ type: 'positional-lesson:height', height }, '*');
  document.documentElement.dataset.embedHeight = String(height);
}

/**
 * Hides everything but the element with `id` (a section id, a figure id such as fig-rope-relative,
 * a chart id, a diagram id or a snippet id). Returns the element, or null when none matches.
 */
export function applyEmbed(id) {
  const root = document.documentElement;
  root.classList.add('embed');
  const target =
    document.getElementById(id) ??
    document.getElementById(`fig-${id}`) ??
    document.getElementById(`diagram-${id}`) ??
    document.getElementById(`snippet-${id}`);
  const main = document.querySelector('main');
  if (!target || !main.contains(target)) {
    const note = document.createElement('p');
    note.className = 'embed-missing';
    note.textContent = `This lesson has no section or figure with the id "${id}".`;
    const heading = document.createElement('h1');
    heading.className = 'visually-hidden';
    heading.textContent = document.title;
    main.replaceChildren(heading, note);
  } else {
    target.classList.add('embed-target');
    for (let node = target; node && node !== main; node = node.parentElement) {
      node.classList.add('embed-path');
      for (const sibling of node.parentElement.children) {
        if (sibling === node) continue;
        sibling.classList.add('embed-hidden');
        // The headings above the piece stay for screen readers (h1 → h2 → … → the piece's own),
        // hidden from view, so the frame's outline starts at the top and skips no level.
        const heading = sibling.matches('h1, h2, h3, h4') ? sibling : sibling.matches('.lesson-header') ? sibling.querySelector('h1') : null;
        if (heading) {
          sibling.classList.remove('embed-hidden');
          for (const child of sibling.children) if (child !== heading) child.classList.add('embed-hidden');
          heading.classList.add('visually-hidden');
          for (const link of heading.querySelectorAll('a')) link.tabIndex = -1;
        }
      }
    }
    // A level that is switched off must not hide the embedded piece.
    root.dataset.levelView = 'all';
  }

  postHeight();
  new ResizeObserver(postHeight).observe(document.body);
  addEventListener('load', postHeight);
  return target;
}

/** Posts the height again (after live numbers or charts change the layout). */
export { postHeight };
