// The accessibility statement (accessibility.html): the target, what the test suites check and in
// which browsers (read from the suites themselves at build time, so the page says what they do), what
// each figure offers besides its canvas, what is not tested, and whom to tell about a barrier
// (web/site-config.json's "accessibilityContact").
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeHtml } from './info-pages.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * web/site-config.json's "accessibilityContact": null when none is set, else an http(s) or mailto:
 * address (returned as given). Anything else throws, naming the field and the rule.
 */
export function accessibilityContact(value) {
  if (value === null || value === undefined) return null;
  const wrong = () =>
    new Error(
      'web/site-config.json "accessibilityContact" must be null or an http(s) or mailto: address ' +
        `(e.g. "mailto:access@example.org" or "https://example.org/accessibility-feedback"), not ${JSON.stringify(value)}`,
    );
  if (typeof value !== 'string' || !URL.canParse(value) || /\s/.test(value)) throw wrong();
  const url = new URL(value);
  if (url.protocol === 'mailto:') {
    if (!/^[^@\s/?#]+@[^@\s/?#]+\.[^@\s/?#]+$/.test(decodeURIComponent(url.pathname))) throw wrong();
  } else if (!['http:', 'https:'].includes(url.protocol) || !url.hostname || url.username || url.password)
    throw wrong();
  return value;
}

/** `pattern`'s first group in `file` (a path in the repository), or a build error naming the file and what was sought. */
function readFrom(file, pattern, what) {
  const text = readFileSync(join(REPO, file), 'utf8');
  const match = pattern.exec(text);
  if (!match)
    throw new Error(
      `accessibility statement: ${file} no longer says ${what}; update web/site-builder/accessibility-statement.mjs`,
    );
  return match[1];
}

/**
 * What the suites check, read from them: axe's rule tags and the views of the accessibility suite
 * (tests/browser/accessibility.test.mjs), the suites run in every engine (tests/CMakeLists.txt),
 * the narrowest WebKit window (tests/browser/helpers.mjs), and the tools' versions (package.json).
 */
export function testedFacts() {
  const suite = 'tests/browser/accessibility.test.mjs';
  const tags = readFrom(suite, /const WCAG_TAGS = \[([^\]]*)\]/, 'which axe rule tags it runs (WCAG_TAGS)')
    .split(',')
    .map((s) => s.trim().replace(/^'|'$/g, ''))
    .filter(Boolean);
  const viewsBlock = readFrom(suite, /const views = \[([\s\S]*?)\n {2}\];/, 'its list of views (const views = [...])');
  // Each view's name, and whether Firefox and WebKit check it only under --long (longInOtherEngines).
  const views = viewsBlock
    .split(/\n {4}\{/)
    .map((entry) => ({ name: /name: '([^']+)'/.exec(entry)?.[1], long: /longInOtherEngines: true/.test(entry) }))
    .filter((view) => view.name);
  if (!views.length) throw new Error(`accessibility statement: ${suite}'s views have no names`);
  const engines = readFrom(
    'tests/CMakeLists.txt',
    /set\(POSITIONAL_ALL_ENGINE_SUITES ([\w\s-]+?)\n/,
    'which suites run in every engine',
  ).split(/\s+/);
  const webkitWidth = Number(
    readFrom('tests/browser/helpers.mjs', /export const WEBKIT_MIN_WIDTH = (\d+);/, 'the narrowest WebKit window'),
  );
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  const version = (name) => {
    const v = pkg.devDependencies?.[name] ?? pkg.dependencies?.[name];
    if (!v) throw new Error(`accessibility statement: package.json has no ${name}`);
    return v;
  };
  return {
    tags,
    views,
    allEngineSuites: engines.filter(Boolean),
    webkitWidth,
    axe: version('axe-core'),
    playwright: version('playwright-core'),
  };
}

const TAG_NAMES = {
  wcag2a: 'WCAG 2.0 A',
  wcag2aa: 'WCAG 2.0 AA',
  wcag21a: 'WCAG 2.1 A',
  wcag21aa: 'WCAG 2.1 AA',
  wcag22a: 'WCAG 2.2 A',
  wcag22aa: 'WCAG 2.2 AA',
};

/** The statement's body. `contact`: accessibilityContact()'s result; `facts`: testedFacts(). */
export function accessibilityStatementBody({ contact, facts = testedFacts() }) {
  const tagList = facts.tags.map((t) => TAG_NAMES[t] ?? t).join(', ');
  const checks22 = facts.tags.includes('wcag22aa');
  const suites = facts.allEngineSuites.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ');
  const contactLine = contact
    ? `<p>If something in the lesson stops you, tell us: <a href="${escapeHtml(contact)}">${escapeHtml(contact.replace(/^mailto:/, ''))}</a>. Say which page and figure, and what you used (browser, screen reader, zoom).</p>`
    : '<p class="note">No contact address is set for this copy of the lesson. Whoever hosts it sets one in <code>web/site-config.json</code> (<code>"accessibilityContact"</code>); until then, tell the person who gave you the link.</p>';
  return `<p class="lede">The lesson aims to meet the Web Content Accessibility Guidelines (WCAG) 2.2 at
level AA. This page says what is tested, with which tools and browsers, and what is not.</p>

<h2 id="tested">What is tested, on every build</h2>
<p>The test suites run against the built site whenever the project is tested
(<code>build-scripts/test</code>). A failure stops the build’s tests.</p>
<h3>Automatic rules</h3>
<p><a href="https://github.com/dequelabs/axe-core">axe-core</a> ${escapeHtml(facts.axe)} (injected into the page
in Chromium, Firefox and WebKit) runs its rules tagged ${escapeHtml(tagList)} on the lesson with every figure
drawn and every disclosure (answers, contents, data tables) open, in these views:</p>
<ul>${facts.views
    .map(
      (v) =>
        `<li>${escapeHtml(v.name)}${v.long ? ' (in Chromium; in Firefox and WebKit when the long checks run, <code>build-scripts/test --long</code>)' : ''}</li>`,
    )
    .join('')}
<li>embed mode, 700 px wide: a single figure (light) and a single section (dark)</li></ul>
<p>These three pages (this statement, the instructor guide and the third-party notices) are checked
by the same axe-core in the same browsers, under the same rules: at 360 px in the dark theme and
at 1280 px in the light, and opened from disk in the dark.</p>
<h3>Checks axe cannot make</h3>
<ul>
<li>Every control and every figure’s canvas has an accessible name, as the browser computes it
(Chromium’s accessibility tree; in Firefox and WebKit, axe’s computation of the name).</li>
<li>Every figure drawn on a canvas has a data table beside it, with a caption, column headers and rows.</li>
<li>Focus is visible: pressing Tab 25 times from the top, every element reached shows a focus ring.</li>
<li>Every formula carries MathML for screen readers, and its drawn copy is hidden from them, so it is
read once; in Chromium, its letters are read as written.</li>
<li>With reduced motion asked for, nothing on the page moves: no transition, animation or smooth scrolling,
and the figures’ Play buttons are gone.</li>
</ul>
<h3>Keyboard</h3>
<ul>
<li>Every figure’s controls are worked with real keys and a real pointer, and every view of the value
(number box, slider, figure, description, data table, address) must agree.</li>
<li>Every handle drawn on a figure is moved with the arrow keys, Shift with an arrow, Home and End, and
dragged with the mouse; every number in the text that a reader can move, the same way.</li>
<li>The heatmap’s readout and the RoPE clock are checked by keyboard alone.</li>
</ul>
<h3>Browsers</h3>
<ul>
<li><strong>Chromium</strong> (Debian’s package), driven by playwright-core ${escapeHtml(facts.playwright)}: every suite.</li>
<li><strong>Firefox ESR</strong> (Gecko, Debian’s package), over WebDriver BiDi, and <strong>WebKitGTK</strong>
(its MiniBrowser, over WebDriver): the suites ${suites}. WebKit’s window is never narrower than
${facts.webkitWidth} px, so its phone views are ${facts.webkitWidth} px wide.</li>
<li>The keyboard suites for figure handles and moveable numbers, and the heavy sweeps, run in Chromium only.</li>
</ul>

<h2 id="figures">What each figure offers besides its picture</h2>
<ul>
<li>A name: each canvas is an image (the RoPE clock a slider) with a label saying what it shows.</li>
<li>A description in words under the figure, rewritten whenever a setting changes and announced politely
to screen readers.</li>
<li>A data table (<em>Data</em>, under the figure) with the numbers drawn, in a box that scrolls and that
the keyboard can reach.</li>
<li>The same numbers as a CSV file (<em>Download CSV</em>), and the picture as a PNG.</li>
<li>Controls that are ordinary form fields with labels; a value outside its range is corrected and the
reason is said beside the field.</li>
<li>The diagrams are SVG images with a title and a description.</li>
<li>Without scripts the whole text reads, with every computed number printed in it.</li>
</ul>

<h2 id="not-tested">What is not tested, and known limits</h2>
<ul>
${
  checks22
    ? `<li>Of the criteria WCAG 2.2 adds, axe checks target size (2.5.8) on what it counts as a control; focus not obscured (2.4.11) and dragging movements (2.5.7) are not checked automatically.</li>`
    : `<li>axe runs on the lesson with the WCAG 2.0 and 2.1 rules only. The criteria WCAG 2.2 adds (target size 2.5.8, focus not obscured 2.4.11, dragging movements 2.5.7) are not checked automatically on the lesson page.</li>`
}
<li>No screen reader has been used in the tests (NVDA, JAWS, VoiceOver, TalkBack, Orca). Names, roles
and descriptions are checked in the accessibility tree; nobody has listened to them.</li>
<li>The colours drawn on the canvases (lines, bars, heatmap) are not measured for contrast; axe
measures text only.</li>
<li>Zoom to 400 % (a 320 px wide view), text spacing (WCAG 1.4.12) and Windows’ forced colours are not
tested. The narrowest view tested is 360 px.</li>
<li>Whether each description says enough about its figure is an editor’s judgement; the tests only
check that it is there and follows the figure.</li>
<li>In a course site the player around the lesson is the course site’s. In Moodle’s current window it is
a small frame beside a sidebar; the instructor guide says how to give the lesson the whole window.</li>
<li>These three pages are in English only, and follow the system’s light or dark setting, not the
lesson’s theme button.</li>
</ul>

<h2 id="contact">Tell us about a barrier</h2>
${contactLine}
`;
}
