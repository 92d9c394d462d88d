// Shared plumbing for the browser suites: where the built site is, which engine runs them
// (POSITIONAL_BROWSER = chromium, firefox or webkit) and how it is launched, a page opener that
// records every problem (console errors, page errors, failed requests, CSP violations, requests
// to other origins), and the in-page discovery of the page's controls.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, firefox } from 'playwright-core';
import { startServer } from '../../web/site-builder/serve.mjs';

export const repo = new URL('../../', import.meta.url).pathname;
export const dist = process.env.POSITIONAL_DIST ?? join(repo, 'dist');
export const singleFile =
  process.env.POSITIONAL_SINGLE_FILE ?? join(dist, '..', 'dist-single', 'positional-lesson.html');

/** The engine the suites run in: chromium (Debian's Chromium), firefox (Firefox ESR) or webkit (WebKitGTK). */
export const ENGINE = process.env.POSITIONAL_BROWSER ?? 'chromium';
if (!['chromium', 'firefox', 'webkit'].includes(ENGINE))
  throw new Error(`POSITIONAL_BROWSER must be chromium, firefox or webkit, not "${ENGINE}"`);

/**
 * Whether the long sweeps run: the 10,000-change robustness soak and every hostile string typed in
 * every engine (POSITIONAL_LONG=1, which `build-scripts/test --long` sets). Without it each runs a
 * short, fixed version.
 */
export const LONG = ['1', 'true', 'yes'].includes(String(process.env.POSITIONAL_LONG ?? '').toLowerCase());
if (!['', '0', '1', 'true', 'false', 'yes', 'no'].includes(String(process.env.POSITIONAL_LONG ?? '').toLowerCase()))
  throw new Error(`POSITIONAL_LONG must be 1 or 0, not "${process.env.POSITIONAL_LONG}"`);

/**
 * Launch options of the engine. Chromium: Debian's, with the flags that keep it from reaching for
 * the network. Firefox: Debian's Firefox ESR driven over WebDriver BiDi (playwright-core's
 * moz-firefox channel), started through a relay that answers the BiDi commands it lacks.
 */
export const LAUNCH =
  ENGINE === 'firefox'
    ? {
        channel: 'moz-firefox',
        executablePath: new URL('engines/firefox-bidi-shim.mjs', import.meta.url).pathname,
        firefoxUserPrefs: firefoxMediaPrefs({}),
      }
    : {
        executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      };

/**
 * Firefox ESR cannot emulate media features per context over BiDi, so a context asking for a
 * colour scheme or reduced motion gets a browser started with the matching preferences.
 */
function firefoxMediaPrefs({ colorScheme = 'light', reducedMotion = 'no-preference' }) {
  return {
    'layout.css.prefers-color-scheme.content-override': colorScheme === 'dark' ? 0 : 1,
    'ui.prefersReducedMotion': reducedMotion === 'reduce' ? 1 : 0,
    'browser.download.useDownloadDir': true,
  };
}

/** The narrowest viewport WebKit's MiniBrowser window reaches (its toolbar's width), in CSS px. */
export const WEBKIT_MIN_WIDTH = 450;

/**
 * Over BiDi, Firefox keeps a number field's text when Playwright fills it (its select() does
 * nothing there), so fill('5') on a field showing 3 gives 35. A reader selects the text and
 * types over it: Locator.fill does that for number fields in Firefox.
 */
function replaceNumberFill(anyLocator) {
  const prototype = Object.getPrototypeOf(anyLocator);
  if (prototype.fill.replacesNumbers) return;
  const fill = prototype.fill;
  const replacing = async function replacingFill(value, options) {
    if (!(await this.evaluate((el) => el instanceof HTMLInputElement && el.type === 'number', null, options)))
      return fill.call(this, value, options);
    await this.focus(options);
    await this.press('ControlOrMeta+a', options);
    if (value === '') await this.press('Delete', options);
    else await this.pressSequentially(value, options);
  };
  replacing.replacesNumbers = true;
  prototype.fill = replacing;
}

/**
 * Waits until chart `id` is in one of `states` (its slot's data-chart-state: the chart is in
 * window.positionalCharts.mounted once 'mounted'), and the model card until it has read its config.
 */
export async function waitForChart(page, id, states = ['mounted']) {
  await page.waitForFunction(
    ([chart, wanted]) => wanted.includes(document.querySelector(`[data-chart="${chart}"]`)?.dataset.chartState),
    [id, states],
    { timeout: 30000 },
  );
  if (id === 'model-card')
    await page.waitForFunction(
      () => document.querySelector('[data-card-state]')?.dataset.cardState !== 'loading',
      null,
      { timeout: 30000 },
    );
}

/**
 * Answers the length lab's prediction in the self-test as a reader would (a click on its first choice,
 * then on its check button): until then the lab keeps its recorded results off its figure.
 */
export async function answerLabPrediction(page) {
  const slot = page.locator('.graded-item[data-item="predict_length_lab"]');
  if ((await slot.count()) === 0) return;
  await slot.locator('input[type="radio"]').first().scrollIntoViewIfNeeded();
  await slot.locator('input[type="radio"]').first().click();
  await slot.locator('button.graded-check').click();
  await page.waitForFunction(
    () => document.querySelector('.graded-item[data-item="predict_length_lab"]').dataset.answered,
    null,
    { timeout: 10000 },
  );
}

/** Launches the engine (a Playwright Browser, or for WebKit the WebDriver adapter with the same API). */
export async function launchBrowser() {
  if (ENGINE === 'webkit') {
    const { launchWebKit } = await import('./engines/webkit-webdriver.mjs');
    return launchWebKit();
  }
  const browser = await (ENGINE === 'firefox' ? firefox : chromium).launch(LAUNCH);
  if (ENGINE === 'firefox') {
    // Contexts asking for media features the BiDi session cannot emulate open in a browser
    // started with those preferences, closed with this one.
    const newContext = browser.newContext.bind(browser);
    const close = browser.close.bind(browser);
    const extra = new Map();
    browser.newContext = async (options = {}) => {
      const { colorScheme = 'light', reducedMotion = 'no-preference', ...rest } = options;
      const key = `${colorScheme}|${reducedMotion}`;
      if (key !== 'light|no-preference' && !extra.has(key))
        extra.set(
          key,
          firefox.launch({ ...LAUNCH, firefoxUserPrefs: firefoxMediaPrefs({ colorScheme, reducedMotion }) }),
        );
      const context =
        key === 'light|no-preference' ? await newContext(rest) : await (await extra.get(key)).newContext(rest);
      const newPage = context.newPage.bind(context);
      context.newPage = async () => {
        const page = await newPage();
        replaceNumberFill(page.locator('html'));
        return page;
      };
      return context;
    };
    browser.newPage = async (options = {}) => {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      const closePage = page.close.bind(page);
      page.close = async () => {
        await closePage();
        await context.close();
      };
      return page;
    };
    browser.close = async () => {
      for (const other of extra.values()) await (await other).close();
      extra.clear();
      await close();
    };
  }
  return browser;
}

/** Starts the static server on dist/ and launches the engine. Returns { server, browser, close() }. */
export async function startSite() {
  if (!existsSync(join(dist, 'index.html')))
    throw new Error(`no built site at ${dist}: run the wasm build's site target first`);
  return serveAndLaunch(dist, launchBrowser);
}

/** Serves `root` on 127.0.0.1 (a random port) and starts a browser with `launch()`: { server, browser, close() }. */
export async function serveAndLaunch(root, launch) {
  const server = await startServer({ root, port: 0 });
  const browser = await launch();
  return {
    server,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Opens `url` in a fresh context and records its problems. Options: viewport, contextOptions,
 * setup(page, context) (routes and init scripts, before navigation), blockOtherOrigins (abort and
 * record every request whose origin is not `origin`), waitForLive (default true: wait until main.js
 * set data-live-state and finished loading). Returns { context, page, problems, offOrigin, violations(), response }.
 */
export async function openPage(
  browser,
  url,
  {
    viewport = { width: 1280, height: 900 },
    contextOptions = {},
    setup,
    blockOtherOrigins = null,
    waitForLive = true,
  } = {},
) {
  const context = await browser.newContext({ viewport, ...contextOptions });
  const offOrigin = [];
  if (ENGINE === 'webkit') {
    // Classic WebDriver has no request interception or init scripts: the adapter records problems
    // and CSP violations from an in-page recorder installed when the page has loaded, and requests
    // to other origins from the page's resource timing (seen, not blocked).
    const page = await context.newPage();
    const problems = watchProblems(page);
    if (blockOtherOrigins) page.watchOtherOrigins(blockOtherOrigins, offOrigin);
    if (setup) await setup(page, context);
    return visit(context, page, problems, offOrigin, url, waitForLive);
  }
  if (blockOtherOrigins) {
    await context.route('**/*', (route) => {
      const target = route.request().url();
      if (target.startsWith('data:') || target.startsWith('blob:') || new URL(target).origin === blockOtherOrigins)
        return route.fallback();
      offOrigin.push(target);
      return route.abort('blockedbyclient');
    });
  }
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.addInitScript(recordViolations);
  if (setup) await setup(page, context);
  return visit(context, page, problems, offOrigin, url, waitForLive);
}

/** Navigates a prepared page and waits, if asked, for the live numbers: openPage's shared ending. */
async function visit(context, page, problems, offOrigin, url, waitForLive) {
  const response = await page.goto(url);
  // Live numbers in, and the sections skipped while loading all laid out (main.js's finishLoading).
  if (waitForLive)
    await page.waitForFunction(
      () => document.documentElement.dataset.liveState && !document.documentElement.classList.contains('is-loading'),
      null,
      { timeout: 30000 },
    );
  return {
    context,
    page,
    problems,
    offOrigin,
    response,
    /** Every securitypolicyviolation event the page (and its same-origin frames) saw. */
    violations: () => page.evaluate(() => window.__cspViolations),
  };
}

/**
 * Clicks through `trigger` and returns the file the page offered: { filename, bytes }. Chromium:
 * Playwright's download event (the file as saved). Firefox over BiDi and WebKit over WebDriver
 * report no download, so there the file is read from the page's download link (the blob the
 * page hands the browser), and the browser is kept from saving it.
 */
export async function downloadOf(page, trigger) {
  if (ENGINE === 'chromium') {
    const [download] = await Promise.all([page.waitForEvent('download'), trigger()]);
    return {
      filename: download.suggestedFilename(),
      bytes: Buffer.concat(await (await download.createReadStream()).toArray()),
    };
  }
  const before = await page.evaluate(() => {
    if (!window.__downloads) {
      window.__downloads = [];
      // The page's CSP forbids fetching blob: URLs, so the blobs are kept as they are made.
      const blobs = new Map();
      const createObjectURL = URL.createObjectURL;
      URL.createObjectURL = (blob) => {
        const url = createObjectURL(blob);
        blobs.set(url, blob);
        return url;
      };
      document.addEventListener(
        'click',
        (event) => {
          const link = event.target.closest?.('a[download]');
          if (!link) return;
          event.preventDefault();
          window.__downloads.push({
            filename: link.download,
            bytes: new Promise((resolve, reject) => {
              const reader = new FileReader();
              reader.onload = () => resolve(reader.result.slice(reader.result.indexOf(',') + 1));
              reader.onerror = () => reject(reader.error);
              reader.readAsDataURL(blobs.get(link.href));
            }),
          });
        },
        true,
      );
    }
    return window.__downloads.length;
  });
  await trigger();
  await page.waitForFunction((n) => window.__downloads.length > n, before, { timeout: 30000 });
  const file = await page.evaluate(
    async (n) => ({ filename: window.__downloads[n].filename, bytes: await window.__downloads[n].bytes }),
    before,
  );
  return { filename: file.filename, bytes: Buffer.from(file.bytes, 'base64') };
}

/**
 * Firefox reports a MathML element laid out with the wrong number of children as a page error, and
 * it lays out a formula whose HTML has arrived only in part: a server that sends a well-formed
 * <msubsup> in two pieces, 800 ms apart, gets "Incorrect number of children for <msubsup/> tag."
 * twice. Seen once in CI, on a loaded machine, on a page whose every <msubsup> has its three. Not a
 * fault of the page, so not recorded as one; page.test.mjs checks the finished page's MathML for
 * exactly what this message is about, in every engine.
 */
const FIREFOX_PARTIAL_MATHML = /^Incorrect number of children for <m\w+\/> tag\.$/;

/**
 * Records the page errors of `page` in `list` (each as `prefix` + its message), all but Firefox's
 * report of a formula laid out before the parser had all of it (FIREFOX_PARTIAL_MATHML). Every
 * suite's pageerror listener goes through here, so no suite records that report as a fault.
 */
export function recordPageErrors(page, list, prefix = '') {
  page.on('pageerror', (e) => {
    if (ENGINE === 'firefox' && FIREFOX_PARTIAL_MATHML.test(e.message)) return;
    list.push(`${prefix}${e.message}`);
  });
}

/**
 * A page's navigations by loadAfresh: how many have had their response, and whether one is under
 * way without it yet; and for each request of the page, that count when the request was issued.
 */
const navigations = new WeakMap();
const issuedAt = new WeakMap();

const isPageNavigation = (page, request) => request.isNavigationRequest() && request.frame() === page.mainFrame();

/**
 * True if `request` belongs to a document loadAfresh has left or is leaving. Leaving a document
 * aborts the requests it still has in flight, and the engine reports them failed while the next
 * load is under way (Firefox as the navigation starts, Chromium as the new document replaces the
 * old). No document but the old one can issue a request before the navigation's response has
 * come, so a request issued before it is the old document's, and so is any failure reported
 * between the navigation's start and its response (but the navigation's own).
 */
function leftBehind(page, request) {
  const state = navigations.get(page);
  if (!state || isPageNavigation(page, request)) return false;
  return state.awaiting || issuedAt.get(request) < state.answered;
}

/**
 * Records console errors, uncaught exceptions, failed requests and HTTP errors of `page`; not the
 * failed requests of a document loadAfresh left (see leftBehind).
 */
export function watchProblems(page) {
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  recordPageErrors(page, problems, 'pageerror: ');
  page.on('request', (r) => issuedAt.set(r, navigations.get(page)?.answered ?? 0));
  page.on('requestfailed', (r) => {
    if (!leftBehind(page, r)) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('response', (r) => {
    const state = navigations.get(page);
    if (state?.awaiting && isPageNavigation(page, r.request())) {
      state.answered++;
      state.awaiting = false;
    }
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.type()} ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  return problems;
}

/**
 * Loads `url` in `page` as a new document, even where the page is already at `url` or at `url` but
 * for its fragment, and returns the navigation's response. To an address that differs from the
 * page's only in its fragment, page.goto moves within the document, so then the page is reloaded.
 * Which happened is read from a mark set on the window before the goto, not from the addresses:
 * the page rewrites its own (history.replaceState, once a change has rested), and WebKit's adapter
 * knows the address only as of its last script. Throws if the mark outlives the reload.
 *
 * `problems` (the page's watchProblems list) is emptied as each navigation starts, so it holds what
 * happens from there on but the failed requests of the document being left (see leftBehind). A
 * console error that document logs before it is gone is still counted, as its fault.
 *
 * Leaving for about:blank first would do the same at a cost: a navigation of its own per load
 * (Firefox starts a content process for it: about 150 ms of wall time measured alone).
 */
export async function loadAfresh(page, url, problems) {
  // WebKit's adapter reports no requests: its problems come from the recorder in the page it reads.
  const state = ENGINE === 'webkit' ? null : (navigations.get(page) ?? { answered: 0, awaiting: false });
  if (state) navigations.set(page, state);
  const navigate = async (go) => {
    problems.length = 0;
    if (state) state.awaiting = true;
    try {
      return await go();
    } finally {
      // A navigation with no response (a file: address, a move within the document) ends here.
      if (state) state.awaiting = false;
    }
  };
  const sameDocument = () => page.evaluate(() => window.__loadAfreshLeft === true);
  await page.evaluate(() => {
    window.__loadAfreshLeft = true;
  });
  let response = await navigate(() => page.goto(url));
  if (await sameDocument()) {
    response = await navigate(() => page.reload());
    if (await sameDocument()) throw new Error(`loadAfresh: ${url} did not load as a new document`);
  }
  return response;
}

/** An init script: keeps every securitypolicyviolation event in window.__cspViolations. */
export function recordViolations() {
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations.push(
      `${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample ?? ''}`.trim(),
    );
  });
}

/** Mounts every chart that is still waiting to scroll into view, and waits two frames. */
/**
 * Every chart's defineChart definition, read in Node from its module (the id, controls, parts,
 * handles, motion and readsSize the suites drive each chart by), in the order of charts/index.js.
 */
export async function chartDefinitions() {
  const { CHARTS } = await import('../../web/js/charts/index.js');
  return Promise.all(
    Object.keys(CHARTS).map(async (id) => {
      const module = await import(new URL(`../../web/js/charts/${id}.js`, import.meta.url).href);
      const definition = Object.values(module).find((v) => v && v.id === id && v.create);
      if (!definition) throw new Error(`web/js/charts/${id}.js exports no defineChart definition with id "${id}"`);
      return definition;
    }),
  );
}

export async function mountAllCharts(page) {
  await page.waitForFunction(
    () => window.positionalCharts || document.documentElement.dataset.liveState === 'failed',
    null,
    { timeout: 30000 },
  );
  await page.evaluate(async () => {
    await window.positionalCharts?.mountAll();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

/**
 * An in-page function (pass to page.evaluate): tags every control on the page with a stable
 * data-qa-control index and returns their descriptions { index, kind, tag, type, label, min, max,
 * step, options }. Kinds: range, number, text (text, search, textarea, untyped input), select,
 * checkbox, radio, button, summary, tab. Controls added later get the next free index.
 */
export function discoverControls() {
  const selector = 'input:not([type=hidden]), select, textarea, button, summary, [role="tab"]';
  let next = Number(document.documentElement.dataset.qaNextControl ?? 0);
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.closest('[data-qa-ignore]')) continue;
    if (el.dataset.qaControl === undefined) el.dataset.qaControl = String(next++);
    const tag = el.tagName.toLowerCase();
    const type =
      tag === 'input'
        ? (el.getAttribute('type') ?? 'text').toLowerCase()
        : tag === 'textarea'
          ? 'textarea'
          : (el.getAttribute('type') ?? '');
    let kind;
    if (tag === 'select') kind = 'select';
    else if (tag === 'textarea') kind = 'text';
    else if (tag === 'summary') kind = 'summary';
    else if (el.getAttribute('role') === 'tab') kind = 'tab';
    else if (tag === 'button') kind = 'button';
    else if (type === 'range') kind = 'range';
    else if (type === 'number') kind = 'number';
    else if (type === 'checkbox') kind = 'checkbox';
    else if (type === 'radio') kind = 'radio';
    else if (['text', 'search', 'url', 'email', 'tel', ''].includes(type)) kind = 'text';
    else kind = 'other';
    out.push({
      index: Number(el.dataset.qaControl),
      kind,
      tag,
      type,
      label: (el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 60),
      min: el.min ?? null,
      max: el.max ?? null,
      step: el.step ?? null,
      options: tag === 'select' ? [...el.options].map((o) => o.value) : null,
    });
  }
  document.documentElement.dataset.qaNextControl = String(next);
  return out;
}

/**
 * Empties the body of `page` and puts one iframe of `src` in it, as a course page embeds the lesson;
 * `properties` are the frame's others (width, height, title, frameBorder).
 */
export function showInFrame(page, src, properties) {
  return page.evaluate(
    ([frameSrc, frameProperties]) => {
      const frame = document.createElement('iframe');
      Object.assign(frame, { src: frameSrc }, frameProperties);
      document.body.replaceChildren(frame);
    },
    [src, properties],
  );
}

/**
 * Chromium only: a DevTools session on `page` with DOM and each of `domains` enabled (e.g. 'CSS',
 * 'Accessibility'), and the DOM node ids of the elements matching `selector`: { cdp, nodeIds }.
 */
export async function devtoolsNodes(page, selector, domains) {
  const cdp = await page.context().newCDPSession(page);
  for (const domain of ['DOM', ...domains]) await cdp.send(`${domain}.enable`);
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector });
  return { cdp, nodeIds };
}

/** Waits until the page has had two animation frames (charts redraw on requestAnimationFrame). */
export function twoFrames(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * An in-page function (pass to page.evaluate with the indices to use): drives each control once
 * through its range of states, as a reader would: numbers and sliders to their min, max and middle,
 * text to a plain word, every option of a select, checkboxes on and off, buttons, tabs and
 * disclosure summaries clicked. Returns the number of interactions performed.
 */
export function exerciseControls(indices) {
  const fire = (el, type) => el.dispatchEvent(new Event(type, { bubbles: true }));
  const setValue = (el, value) => {
    el.value = String(value);
    fire(el, 'input');
    fire(el, 'change');
  };
  let count = 0;
  for (const index of indices) {
    const el = document.querySelector(`[data-qa-control="${index}"]`);
    if (!el || !el.isConnected) continue;
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    if (tag === 'select') {
      for (const option of [...el.options]) {
        el.value = option.value;
        fire(el, 'input');
        fire(el, 'change');
        count++;
      }
    } else if (tag === 'input' && (type === 'range' || type === 'number')) {
      const min = el.min === '' ? 0 : Number(el.min);
      const max = el.max === '' ? min + 100 : Number(el.max);
      for (const v of [min, max, (min + max) / 2, el.defaultValue || min]) {
        setValue(el, v);
        count++;
      }
    } else if (
      tag === 'textarea' ||
      (tag === 'input' && ['text', 'search', 'url', 'email', 'tel', ''].includes(type))
    ) {
      const original = el.value;
      setValue(el, 'dog bites man');
      setValue(el, original);
      count += 2;
    } else if (tag === 'input' && (type === 'checkbox' || type === 'radio')) {
      el.click();
      el.click();
      count += 2;
    } else if (!el.disabled) {
      el.click();
      count++;
    }
  }
  return count;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Puts axe-core into the page as window.axe, once (evaluated by the driver: the page's CSP does not apply). */
export async function injectAxe(page) {
  if (!(await page.evaluate(() => Boolean(window.axe))))
    await page.evaluate(`(() => { ${AXE_SOURCE}\n; window.axe = axe; return true; })()`);
}

/**
 * How long one axe run may take before runAxe gives up: far above the lesson's 3.6–4.5 s, quiet, and
 * a few times that on a loaded machine.
 */
const AXE_DEADLINE_MS = 300_000;
/** Between two reads of whether the run has finished. */
const AXE_POLL_MS = 100;

/**
 * axe-core's violations on the page's top document, run inside the page in every engine (put there
 * by the driver, so the page's CSP does not apply to it). `run`: axe's runOnly (tags or rules);
 * `exclude`: selectors left out. Only violations come back, and only what a report needs of them:
 * serialising the passes on thousands of elements is most of a run's time. (Chromium's
 * `@axe-core/playwright` sends every frame's partial results, passes included, to a second page to
 * finish: about 44 s for the lesson where these runs then took 9 s. The lesson and its plain pages
 * have no frames.)
 *
 * axe checks every rule in one synchronous block (3.6 s for the lesson in Chromium, 4.5 s in WebKit,
 * quiet), and a script that waits for it can outlast a driver's 30-second script timeout on a loaded
 * machine. So one call starts the run in a task of its own and returns, and short calls read
 * whether it has finished. A read waits while the page is busy, but WebKit's timeout counts the
 * script's own time only: a read sent to a page busy for 40 s answered after 44 s, no timeout. One
 * run for every rule: the same rules in several runs cost about twice as much, since each run first
 * builds axe's tree of the whole document (Chromium: 7.3 s in five runs, 3.6 s in one).
 */
export async function runAxe(page, { run, exclude = [] }) {
  await injectAxe(page);
  await page.evaluate(
    ({ run, exclude }) => {
      window.__axeRun = null;
      const context = exclude.length ? { include: document, exclude: exclude.map((selector) => [selector]) } : document;
      setTimeout(() =>
        window.axe.run(context, { runOnly: run, resultTypes: ['violations'] }).then(
          (result) => {
            window.__axeRun = {
              violations: result.violations.map((v) => ({
                id: v.id,
                impact: v.impact,
                nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
              })),
            };
          },
          (error) => {
            window.__axeRun = { error: String(error?.stack ?? error) };
          },
        ),
      );
    },
    { run, exclude },
  );
  const deadline = Date.now() + AXE_DEADLINE_MS;
  for (;;) {
    const finished = await page.evaluate(() => window.__axeRun);
    if (finished?.error) throw new Error(`axe failed in the page: ${finished.error}`);
    if (finished) return finished.violations;
    if (Date.now() > deadline) throw new Error(`axe did not finish within ${AXE_DEADLINE_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, AXE_POLL_MS));
  }
}
