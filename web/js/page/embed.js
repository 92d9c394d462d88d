// Embed mode (?embed=<section-or-figure-id>[&frame=<id>]): shows that piece alone, sized for an
// iframe, and tells the parent page its height on load and on every resize in the three ways course
// sites listen for: the lesson's own message (with the frame id echoed back), Canvas's
// lti.frameResize, and the H5P resizer's handshake that Moodle pages load.
import { t } from '../locale/i18n.js';

const OWN_MESSAGE = 'positional-lesson:height';

/** A frame id the page echoes: letters, digits, - and _, at most 100 of them (anything else is not echoed). */
const FRAME_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The most of an unknown ?embed= id the "no such section" note quotes (an ellipsis marks the cut). */
export const MAX_QUOTED_ID = 80;

/** The id asked for in ?embed=…, or null. */
export function embedTarget() {
  return new URLSearchParams(location.search).get('embed');
}

/**
 * The frame id from ?frame=…, echoed in every height message so a page with several frames can tell
 * them apart; null when there is none or it breaks the rule (markup, a NUL, spaces, over 100 characters).
 */
export function frameId() {
  const frame = new URLSearchParams(location.search).get('frame');
  return frame !== null && FRAME_ID.test(frame) ? frame : null;
}

let lastHeight = -1;
let h5pHost = false;

function contentHeight() {
  return Math.ceil(document.documentElement.getBoundingClientRect().height);
}

function toParent(message) {
  if (window.parent !== window) window.parent.postMessage(message, '*');
}

// H5P's resizer: prepareResize lets the host shrink the frame first, then resize sets the height.
function h5pPrepare() {
  toParent({
    context: 'h5p',
    action: 'prepareResize',
    scrollHeight: contentHeight(),
    clientHeight: document.documentElement.clientHeight,
  });
}

function answerH5p(event) {
  if (event.source !== window.parent || event.data?.context !== 'h5p') return;
  const { action } = event.data;
  if (action === 'ready') toParent({ context: 'h5p', action: 'hello' });
  else if (action === 'hello' || action === 'resize') {
    h5pHost = true;
    h5pPrepare();
  } else if (action === 'resizePrepared') toParent({ context: 'h5p', action: 'resize', scrollHeight: contentHeight() });
}

/**
 * Whether the page's stylesheets are in (or the page has loaded, a failed one included): until then
 * its height is the unstyled page's. A WebKit frame under load ran the page's modules before
 * css/site.css arrived and posted 27,186 px before the piece's 106. The size observer and the load
 * event post again once they are in.
 */
function styled() {
  return (
    document.readyState === 'complete' ||
    [...document.querySelectorAll('link[rel="stylesheet"]')].every((link) => link.sheet)
  );
}

function postHeight() {
  if (!styled()) return;
  const height = contentHeight();
  document.documentElement.dataset.embedHeight = String(height);
  toParent({ type: OWN_MESSAGE, height, frame: frameId() });
  toParent({ subject: 'lti.frameResize', height });
  // H5P's host resets the frame's height on prepareResize: only ask when the content changed.
  if (h5pHost && height !== lastHeight) h5pPrepare();
  lastHeight = height;
}

/**
 * Hides everything but the element with `id` (a section id, a figure id such as fig-rope-relative,
 * a chart id, a diagram id or a snippet id). Returns the element, or null when none matches.
 */
export function applyEmbed(id) {
  const root = document.documentElement;
  // embed-shown: the piece is chosen, and lesson.css stops skipping far blocks (it skipped them
  // while the HTML was parsed, as on the whole page), so the frame's height is the piece's laid-out height.
  root.classList.add('embed', 'embed-shown');
  const target =
    document.getElementById(id) ??
    document.getElementById(`fig-${id}`) ??
    document.getElementById(`diagram-${id}`) ??
    document.getElementById(`snippet-${id}`);
  const main = document.querySelector('main');
  if (!target || !main.contains(target)) {
    const note = document.createElement('p');
    note.className = 'embed-missing';
    // A link can carry any id: the note quotes its start only (laying out 100,000 characters froze the page).
    const quoted = id.length > MAX_QUOTED_ID ? `${id.slice(0, MAX_QUOTED_ID - 1)}…` : id;
    note.textContent = t('This lesson has no section or figure with the id "{id}".', { id: quoted });
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
        const heading = sibling.matches('h1, h2, h3, h4')
          ? sibling
          : sibling.matches('.lesson-header')
            ? sibling.querySelector('h1')
            : null;
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

  addEventListener('message', answerH5p);
  const helloH5p = () => h5pHost || toParent({ context: 'h5p', action: 'hello' });
  helloH5p();
  postHeight();
  new ResizeObserver(postHeight).observe(document.body);
  addEventListener('load', () => {
    // Said again at load: a host whose resizer script runs after the frame started missed the first.
    helloH5p();
    postHeight();
  });
  return target;
}

/** Posts the height again (after live numbers or charts change the layout). */
export { postHeight };
