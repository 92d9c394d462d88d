// The "Share / embed" control on every section heading and chart: builds a link and an iframe
// snippet for that piece, carrying the charts' current state (read from the page URL, where every
// chart keeps its `?<prefix>.<key>=…` parameters), a theme and a frame id, and copies them.
import { flushUrlState, onUrlStateWritten } from '../chart-kit/url-state.js';
import { t } from '../locale/i18n.js';
import { element } from './element.js';

const THEMES = ['auto', 'light', 'dark'];

/** The chart-state parameters in `search`: every `<prefix>.<key>` pair the charts wrote. */
export function chartStateParams(search = location.search) {
  return [...new URLSearchParams(search)].filter(([key]) => /^[a-z][\w-]*\.[\w-]+$/i.test(key));
}

/** The address of `pieceId` alone: ?embed=…, the chart state, the theme and the frame id. */
export function embedUrl(
  pieceId,
  { theme = 'auto', frame = pieceId, search = location.search, base = location.href } = {},
) {
  const url = new URL(base);
  url.hash = '';
  // Collected first and written once: setting parameters one by one on the URL re-serialises the
  // whole query each time, which an address with thousands of parameters turns into a freeze.
  const params = new Map([['embed', pieceId]]);
  for (const [key, value] of chartStateParams(search)) params.set(key, value);
  if (theme !== 'auto') params.set('theme', theme);
  if (frame) params.set('frame', frame);
  url.search = new URLSearchParams([...params]).toString();
  return url.href;
}

/** The HTML a course page pastes: the frame, and a listener that fits it (checking the sender). */
export function embedSnippet(url, title) {
  const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return [
    `<iframe src="${attr(url)}" title="${attr(title)}" width="100%" height="600" loading="lazy"></iframe>`,
    '<script>',
    '  // Fits each lesson frame on this page to its content; one listener serves every frame.',
    "  addEventListener('message', (event) => {",
    "    if (event.data?.type !== 'positional-lesson:height') return;",
    "    for (const frame of document.querySelectorAll('iframe')) {",
    '      if (frame.contentWindow === event.source) frame.height = event.data.height;',
    '    }',
    '  });',
    '</script>',
  ].join('\n');
}

let counter = 0;

function sharePanel(pieceId, title) {
  const details = element('details', 'share-embed');
  details.dataset.sharePiece = pieceId;
  const summary = element('summary', 'share-embed-toggle', t('Share / embed'));
  // The name starts with the words on the button, so a voice-control user who says them finds it (WCAG 2.5.3).
  summary.setAttribute('aria-label', t('Share / embed: {title}', { title }));
  details.append(summary);
  let built = null;

  const build = () => {
    const n = ++counter;
    const panel = element('div', 'share-embed-panel');
    // `key` names the element ids (share-N-theme …), whatever language the label is in.
    const field = (key, labelText, control) => {
      const id = `share-${n}-${key}`;
      control.id = id;
      const label = element('label', 'share-embed-label', labelText);
      label.htmlFor = id;
      const row = element('div', 'share-embed-field');
      row.append(label, control);
      panel.append(row);
      return control;
    };
    const theme = field('theme', t('Theme'), element('select'));
    const themeNames = { auto: t('auto (follows the reader’s system)'), light: t('light'), dark: t('dark') };
    for (const name of THEMES) theme.append(new Option(themeNames[name], name));
    const current = document.documentElement.getAttribute('data-theme');
    theme.value = THEMES.includes(current) ? current : 'auto';
    // Link and snippet are shown as text, not as fields: there is nothing to type into them.
    const shown = (key, labelText, regionName, tag) => {
      const id = `share-${n}-${key}`;
      const label = element('span', 'share-embed-label', labelText);
      label.setAttribute('aria-hidden', 'true'); // the region's own name says it
      const value = element(tag, 'share-embed-value');
      value.id = id;
      value.tabIndex = 0; // it may scroll sideways: reachable from the keyboard
      value.setAttribute('role', 'region');
      // A region's name must be unique on the page: every panel has a Link and a Snippet.
      value.setAttribute('aria-label', regionName);
      const row = element('div', 'share-embed-field');
      row.append(label, value);
      panel.append(row);
      return value;
    };
    const link = shown('link', t('Link'), t('Link: {title}', { title }), 'code');
    const snippet = shown('snippet', t('Snippet'), t('Snippet: {title}', { title }), 'pre');
    const buttons = element('div', 'share-embed-buttons');
    const copyLink = element('button', 'share-embed-copy', t('Copy link'));
    const copySnippet = element('button', 'share-embed-copy', t('Copy snippet'));
    copyLink.type = copySnippet.type = 'button';
    buttons.append(copyLink, copySnippet);
    const status = element('p', 'share-embed-status');
    status.setAttribute('role', 'status');
    panel.append(buttons, status);

    // The frame id is the piece's own id: unique on the lesson's side, and the snippet's listener
    // tells frames apart by event.source anyway (edit frame= in the snippet to embed a piece twice).
    const refresh = () => {
      const url = embedUrl(pieceId, { theme: theme.value, frame: pieceId });
      link.textContent = url;
      snippet.textContent = embedSnippet(url, title);
    };
    // `said`: what the status line says once it is copied, or selected for the reader to copy.
    const copy = async (control, said) => {
      // A change of the last moment may still be waiting for its URL write (url-state.js batches
      // them): write it now, so the copy carries what the reader sees.
      flushUrlState();
      refresh();
      try {
        await navigator.clipboard.writeText(control.textContent);
        status.textContent = said.copied;
      } catch {
        // Clipboard refused (no permission, an insecure page): select it for Ctrl+C instead.
        const range = document.createRange();
        range.selectNodeContents(control);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        status.textContent = said.selected;
      }
    };
    theme.addEventListener('change', refresh);
    copyLink.addEventListener('click', () =>
      copy(link, { copied: t('Link copied.'), selected: t('Link selected: press Ctrl+C (⌘C) to copy.') }),
    );
    copySnippet.addEventListener('click', () =>
      copy(snippet, { copied: t('Snippet copied.'), selected: t('Snippet selected: press Ctrl+C (⌘C) to copy.') }),
    );
    details.append(panel);
    return { refresh };
  };

  details.addEventListener('toggle', () => {
    if (!details.open) return;
    built ??= build();
    built.refresh();
  });
  // A chart writes its state to the URL a moment after a change: an open panel follows it then.
  return { details, refresh: () => details.open && built?.refresh() };
}

/** Adds a Share / embed control to every chart (figure.chart-slot) and every section heading under `root`. */
export function addShareControls(root = document) {
  if (document.documentElement.classList.contains('embed')) return; // a frame shares from the full page
  const panels = [];
  for (const figure of root.querySelectorAll('figure.chart-slot[id]')) {
    const caption = figure.querySelector('figcaption');
    // The caption's first sentence (an English one ends at ". ", a Chinese one at "。").
    const title = caption?.textContent.trim().split(/(?<=\.)\s|(?<=。)/)[0] || figure.id;
    const { details, refresh } = sharePanel(figure.id, title);
    figure.append(details);
    panels.push(refresh);
  }
  for (const section of root.querySelectorAll('section.lesson-section[id]')) {
    const heading = section.querySelector(':scope > h2, :scope > h3');
    if (!heading) continue;
    const title = heading.textContent.replace(/#\s*$/, '').trim();
    const { details, refresh } = sharePanel(section.id, title);
    heading.after(details);
    panels.push(refresh);
  }
  onUrlStateWritten(() => panels.forEach((refresh) => refresh()));
}
