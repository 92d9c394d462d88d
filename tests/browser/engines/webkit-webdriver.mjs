// WebKitGTK for the browser suites: Debian's WebKitWebDriver and its MiniBrowser under Xvfb, driven
// over classic WebDriver, behind the part of Playwright's Browser/Page API the suites use.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MINIBROWSER = process.env.POSITIONAL_MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** A WebDriver command went unanswered; the session's later commands fail at once with the same message. */
export class WebKitStalled extends Error {}

/** What classic WebDriver cannot give (request interception, init scripts, CDP): named in the error. */
export class NotInWebDriver extends Error {
  constructor(what) {
    super(`${what} is not available in WebKit over classic WebDriver`);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Starts WebKitWebDriver under xvfb-run and one MiniBrowser session; returns the Browser stand-in.
 * WebDriver cannot emulate media features, but WebKitGTK follows GTK's settings: a dark colour
 * scheme comes from a dark GTK theme, reduced motion from gtk-enable-animations=0.
 */
export async function launchWebKit({ colorScheme = 'light', reducedMotion = 'no-preference' } = {}) {
  const port = await freePort();
  const settings = mkdtempSync(join(tmpdir(), 'positional-webkit-gtk-'));
  mkdirSync(join(settings, 'gtk-3.0'));
  writeFileSync(
    join(settings, 'gtk-3.0', 'settings.ini'),
    `[Settings]\ngtk-application-prefer-dark-theme=${colorScheme === 'dark' ? 1 : 0}\ngtk-enable-animations=${reducedMotion === 'reduce' ? 0 : 1}\n`,
  );
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: settings,
    GTK_THEME: colorScheme === 'dark' ? 'Adwaita:dark' : 'Adwaita',
  };
  const driver = spawn(
    'xvfb-run',
    ['-a', '-s', '-screen 0 1920x1080x24', 'WebKitWebDriver', `--port=${port}`, '--host=127.0.0.1'],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true, env },
  );
  let log = '';
  driver.stderr.on('data', (d) => (log += d));
  // Xvfb, the driver and MiniBrowser go with the test process, however it ends.
  const stopGroup = () => {
    try {
      process.kill(-driver.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.on('exit', stopGroup);
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      stopGroup();
      process.exit(1);
    });
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    try {
      const r = await fetch(`${base}/status`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 20000) throw new Error(`WebKitWebDriver did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const created = await call(base, 'POST', '/session', {
    capabilities: {
      alwaysMatch: {
        'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
        pageLoadStrategy: 'normal',
      },
    },
  });
  const browser = new WebKitBrowser(
    `${base}/session/${created.sessionId}`,
    created.capabilities.browserVersion,
    async () => {
      try {
        process.kill(-driver.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      rmSync(settings, { recursive: true, force: true });
    },
  );
  browser.firstWindow = await browser.command('GET', '/window');
  return browser;
}

/**
 * How long one WebDriver command may go unanswered. When WebKit's web process dies (WebKitGTK's threaded
 * compositor has trapped on a busy machine: "eadedCompositor … trap invalid opcode" in the kernel log),
 * the driver never answers the command in flight, and the suite would wait out CTest's whole timeout.
 * No command of the suites comes near this: the slowest, a navigation to the lesson, takes seconds.
 * POSITIONAL_WEBDRIVER_COMMAND_MS sets another limit.
 */
const COMMAND_MS = Number(process.env.POSITIONAL_WEBDRIVER_COMMAND_MS ?? 180_000);

/** In the message of a command WebKit never answered; tests/support/webkit-suite.mjs runs such a suite again. */
export const STALL_MARK = 'has WebKit’s web process died?';

async function call(base, method, path, body) {
  let response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(COMMAND_MS),
    });
  } catch (error) {
    if (error.name !== 'TimeoutError') throw error;
    throw new WebKitStalled(`WebDriver ${method} ${path}: no answer in ${COMMAND_MS / 1000} s (${STALL_MARK})`);
  }
  const json = await response.json();
  if (json.value?.error) throw new Error(`WebDriver ${path}: ${json.value.error}: ${json.value.message}`);
  return json.value;
}

class WebKitBrowser {
  constructor(base, version, stop) {
    this.base = base;
    this.versionText = version;
    this.stop = stop;
    this.queue = Promise.resolve();
    this.current = null;
    this.pages = new Set();
  }

  version() {
    return this.versionText;
  }

  /** One WebDriver command at a time, in the window of `page` (each Page is a window). */
  command(method, path, body, page = null) {
    const run = async () => {
      if (this.stalled) throw new WebKitStalled(`${this.stalled.message}; this session stopped answering then`);
      if (page && this.current !== page.handle) {
        await call(this.base, 'POST', '/window', { handle: page.handle });
        this.current = page.handle;
      }
      return call(this.base, method, path, body);
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch((error) => {
      if (error instanceof WebKitStalled) this.stalled ??= error;
    });
    return result;
  }

  /** A context; one asking for a dark scheme or reduced motion opens in a browser started for it. */
  async newContext(options = {}) {
    const { colorScheme = 'light', reducedMotion = 'no-preference' } = options;
    const key = `${colorScheme}|${reducedMotion}`;
    if (key === 'light|no-preference' || this.variantKey === key) return new WebKitContext(this, options);
    this.variants ??= new Map();
    if (!this.variants.has(key)) {
      this.variants.set(
        key,
        launchWebKit({ colorScheme, reducedMotion }).then((b) => {
          b.variantKey = key;
          return b;
        }),
      );
    }
    return (await this.variants.get(key)).newContext(options);
  }

  async newPage(options = {}) {
    const context = await this.newContext(options);
    const page = await context.newPage();
    page.ownedContext = context;
    return page;
  }

  async close() {
    for (const variant of this.variants?.values() ?? []) await (await variant).close();
    for (const page of [...this.pages]) await page.close().catch(() => {});
    // A session that stopped answering is not asked to end: its processes are stopped below.
    if (!this.stalled)
      await call(
        this.base.replace(/\/session\/.*/, ''),
        'DELETE',
        this.base.slice(this.base.indexOf('/session/')),
      ).catch(() => {});
    await this.stop();
  }
}

class WebKitContext {
  constructor(browser, options) {
    this.browser = browser;
    this.options = options;
    this.pages = [];
  }

  async newPage() {
    let handle;
    if (this.browser.firstWindow && !this.browser.firstWindowUsed) {
      handle = this.browser.firstWindow;
      this.browser.firstWindowUsed = true;
    } else {
      ({ handle } = await this.browser.command('POST', '/window/new', { type: 'window' }));
    }
    const page = new WebKitPage(this, handle);
    this.pages.push(page);
    this.browser.pages.add(page);
    await page.setViewportSize(this.options.viewport ?? { width: 1280, height: 720 });
    return page;
  }

  async route() {
    throw new NotInWebDriver('request interception (route)');
  }

  async close() {
    for (const page of [...this.pages]) await page.close();
  }
}

/** How long click() waits for its element to hold still, in view and uncovered, before it fails. */
const CLICK_SETTLE_MS = 20000;

// In-page: WebDriver turns undefined into null; values are sent with undefined marked, and restored.
const MARK_UNDEFINED = `const mark = (v) => v === undefined ? '__webdriver_undefined__' : v === null || typeof v !== 'object' ? v : Array.isArray(v) ? v.map(mark) : (Object.getPrototypeOf(v) === Object.prototype ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mark(x)])) : v);`;

function restoreUndefined(v) {
  if (v === '__webdriver_undefined__') return undefined;
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(restoreUndefined);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, restoreUndefined(x)]));
}

/** The in-page code that calls `fn` (a function, or an expression string as it is) with the caller's argument. */
const callWithArgument = (fn) => (typeof fn === 'function' ? `(${fn.toString()})(arguments[0])` : fn);

/**
 * A script for WebDriver's /execute/async: runs `body` (an expression, or statements in braces) and
 * answers { value } (undefined marked) or { error: its message }; read the answer with scriptValue.
 */
function asyncScript(body) {
  return `const done = arguments[arguments.length - 1];
      ${MARK_UNDEFINED}
      Promise.resolve().then(async () => ${body}).then((v) => done({ value: mark(v) }), (e) => done({ error: String(e && (e.message ?? e)) }));`;
}

/** The value an asyncScript answered; its error is thrown as an Error that `caller` names. */
function scriptValue(result, caller) {
  if (result?.error !== undefined) throw new Error(`${caller}: ${result.error}`);
  return restoreUndefined(result?.value);
}

/**
 * True for the error WebKit's driver gives when a script was still running as its page unloaded (a
 * click on a link, say, started a navigation). Playwright's waits go on in the new document; so do
 * this adapter's.
 */
const interruptedByNavigation = (error) => /Callback was not called before the unload event/.test(error.message);

/** Evaluates fn(arg) with `evaluate` every `polling` ms until it is truthy, and returns that value. */
async function pollUntilTruthy(evaluate, fn, arg, { timeout, polling }, caller) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await evaluate(fn, arg);
    if (value) return value;
    if (Date.now() > end) throw new Error(`${caller}: Timeout ${timeout}ms exceeded`);
    await new Promise((r) => setTimeout(r, polling));
  }
}

/**
 * In-page: what the recorder saw since the last drain, and with `resources` every resource URL the
 * page loaded: [problems, resources], or null in a document the recorder is not in yet.
 */
function drainScript(resources) {
  if (!window.__webdriverProblems) return null;
  const problems = window.__webdriverProblems.splice(0);
  return [problems, resources ? performance.getEntriesByType('resource').map((e) => e.name) : []];
}

/** The in-page recorder: console errors, uncaught errors and rejections, CSP violations. */
function installRecorder() {
  if (window.__webdriverProblems) return;
  const problems = [];
  window.__webdriverProblems = problems;
  performance.setResourceTimingBufferSize(100000);
  const error = console.error;
  console.error = (...args) => {
    problems.push(`console: ${args.map(String).join(' ')}`);
    return error.apply(console, args);
  };
  addEventListener('error', (e) => problems.push(`pageerror: ${e.message}`));
  addEventListener('unhandledrejection', (e) => problems.push(`pageerror: ${e.reason?.message ?? e.reason}`));
  if (!window.__cspViolations) {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(
        `${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample ?? ''}`.trim(),
      );
    });
  }
}

class WebKitPage {
  constructor(context, handle) {
    this.context = () => context;
    this.browser = context.browser;
    this.handle = handle;
    this.listeners = new Map();
    this.keyboard = new Keyboard(this);
    this.mouse = new Mouse(this);
    this.closed = false;
  }

  cmd(method, path, body) {
    return this.browser.command(method, path, body, this);
  }

  /** console and pageerror listeners are fed from the in-page recorder whenever the test reads the page. */
  on(event, listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(listener);
    return this;
  }

  /**
   * Classic WebDriver cannot run a script before the page's own: an init script here runs as soon
   * as each navigation has loaded. The suites' init scripts are recorders, which then see what
   * happens from load on.
   */
  async addInitScript(fn, arg) {
    (this.initScripts ??= []).push({ fn, arg });
  }

  async afterNavigation() {
    await this.cmd('POST', '/execute/sync', { script: `(${installRecorder})()`, args: [] });
    for (const { fn, arg } of this.initScripts ?? [])
      await this.cmd('POST', '/execute/sync', { script: `(${fn})(arguments[0])`, args: [arg ?? null] });
  }

  async route() {
    throw new NotInWebDriver('request interception (route)');
  }

  /** Records into `list` every resource the page loaded from outside `origin` (from resource timing). */
  watchOtherOrigins(origin, list) {
    this.otherOrigins = { origin, list };
  }

  /** Hands what the in-page recorder saw (and, if watched, resources from other origins) to the listeners. */
  async drainProblems() {
    let drained;
    try {
      drained = await this.cmd('POST', '/execute/sync', {
        script: `return (${drainScript})(arguments[0]);`,
        args: [Boolean(this.otherOrigins)],
      });
    } catch (error) {
      // The input started a navigation: the old document is gone, the next drain reads the new one.
      if (interruptedByNavigation(error)) return;
      throw error;
    }
    await this.handDrained(drained);
  }

  /** Hands a drainScript result to the listeners (null: a document not yet seen, which gets the recorder). */
  async handDrained(drained) {
    if (drained === null) {
      // A document this adapter has not seen (the page followed a link): record in it from now on.
      await this.afterNavigation();
      return;
    }
    const [found, urls] = drained;
    for (const url of urls) {
      if (
        !/^(data|blob):/.test(url) &&
        (this.otherOrigins.origin === 'file:'
          ? !url.startsWith('file:')
          : new URL(url).origin !== this.otherOrigins.origin) &&
        !this.otherOrigins.list.includes(url)
      )
        this.otherOrigins.list.push(url);
    }
    for (const text of found) {
      const [kind, ...rest] = text.split(': ');
      const message = rest.join(': ');
      if (kind === 'console')
        for (const l of this.listeners.get('console') ?? []) l({ type: () => 'error', text: () => message });
      if (kind === 'pageerror')
        for (const l of this.listeners.get('pageerror') ?? []) l(Object.assign(new Error(message), { message }));
    }
  }

  async goto(url) {
    await this.cmd('POST', '/url', { url });
    await this.afterNavigation();
    // Headers as the server sends them for this URL (WebDriver reports no response).
    if (url.startsWith('http')) {
      const response = await fetch(url);
      await response.arrayBuffer();
      const headers = Object.fromEntries(response.headers);
      for (const l of this.listeners.get('response') ?? []) l({ status: () => response.status, url: () => url });
      return { status: () => response.status, headers: () => headers, ok: () => response.ok };
    }
    return null;
  }

  async reload() {
    await this.cmd('POST', '/refresh', {});
    await this.afterNavigation();
  }

  url() {
    return this.lastUrl;
  }

  async currentUrl() {
    this.lastUrl = await this.cmd('GET', '/url');
    return this.lastUrl;
  }

  /** Runs `fn(arg)` in the page (a function or an expression string) and returns its JSON value. */
  async evaluate(fn, arg) {
    const script = asyncScript(callWithArgument(fn));
    const result = await this.cmd('POST', '/execute/async', { script, args: [arg ?? null] });
    await this.readAfterScript();
    return scriptValue(result, 'page.evaluate');
  }

  /**
   * After a script: the address, what the in-page recorder saw and the page's iframes, read in one
   * round trip (they were three, plus the script's own: most of an evaluation's cost in this driver,
   * and the suites evaluate thousands of times). Each is read as currentUrl, drainProblems and
   * refreshFrames read it, in the same document, one after another.
   */
  async readAfterScript() {
    const script = `return {
      url: location.href,
      drained: (${drainScript})(arguments[0]),
      frames: [...document.querySelectorAll('iframe')].map((f) => f.src),
    };`;
    let read;
    try {
      read = await this.cmd('POST', '/execute/sync', { script, args: [Boolean(this.otherOrigins)] });
    } catch (error) {
      if (!interruptedByNavigation(error)) throw error;
      // The script started a navigation: read each as the new document comes.
      await this.currentUrl();
      await this.drainProblems();
      await this.refreshFrames();
      return;
    }
    this.lastUrl = read.url;
    await this.handDrained(read.drained);
    this.frameList = read.frames.map((src, index) => new WebKitFrame(this, index, src));
  }

  waitForFunction(fn, arg, { timeout = 30000, polling = 100 } = {}) {
    const evaluate = (f, a) =>
      this.evaluate(f, a).catch((error) => {
        if (interruptedByNavigation(error)) return false;
        throw error;
      });
    return pollUntilTruthy(evaluate, fn, arg, { timeout, polling }, 'page.waitForFunction');
  }

  async waitForTimeout(ms) {
    await new Promise((r) => setTimeout(r, ms));
    await this.currentUrl();
  }

  /**
   * MiniBrowser's window has a minimum width (its toolbar's, about 450 px): narrower viewports are
   * not reachable, and innerWidth then stays wider than asked (tests that need 360 px lay the page
   * out in a 360-px iframe instead; see WEBKIT_MIN_WIDTH).
   */
  async setViewportSize({ width, height }) {
    const before = await this.innerSize();
    this.viewport = { width, height };
    if (before[0] === width && before[1] === height) return;
    // The window's outer size carries the browser's chrome: size it, measure, correct once.
    await this.cmd('POST', '/window/rect', { width, height });
    const inner = await this.settledInnerSize(before);
    if (inner[0] !== width || inner[1] !== height) {
      const corrected = { width: width + (width - inner[0]), height: height + (height - inner[1]) };
      if (corrected.width <= 0 || corrected.height <= 0)
        throw new Error(`setViewportSize(${width}, ${height}): the window reads ${inner}, no size corrects that`);
      await this.cmd('POST', '/window/rect', corrected);
    }
  }

  innerSize() {
    return this.cmd('POST', '/execute/sync', { script: 'return [innerWidth, innerHeight];', args: [] });
  }

  /**
   * The inner size once a resize has landed. MiniBrowser answers /window/rect before the page sees
   * the new size: read at once, innerWidth can still be the old one (1,280 on the way to 450), and
   * the correction computed from it is a negative width, which the driver refuses ("Invalid width
   * value"). Waits for two equal reads 30 ms apart, and while they equal `before` (a stale read) for up to
   * 600 ms more (a window already at its minimum width does not change).
   */
  async settledInnerSize(before) {
    const same = (a, b) => a[0] === b[0] && a[1] === b[1];
    const deadline = Date.now() + 600;
    let last = await this.innerSize();
    for (let steady = 1; steady < 2 || (same(last, before) && Date.now() < deadline);) {
      await new Promise((r) => setTimeout(r, 30));
      const now = await this.innerSize();
      steady = same(now, last) ? steady + 1 : 1;
      last = now;
    }
    return last;
  }

  viewportSize() {
    return this.viewport;
  }

  locator(selector) {
    return new Locator(this, [{ selector }]);
  }

  async click(selector) {
    return this.locator(selector).click();
  }

  async focus(selector) {
    return this.locator(selector).focus();
  }

  async fill(selector, value) {
    return this.locator(selector).fill(value);
  }

  /** The page's iframes (one level down), each evaluated by switching WebDriver into it. */
  frames() {
    return this.frameList ?? [];
  }

  async refreshFrames() {
    const urls = await this.cmd('POST', '/execute/sync', {
      script: 'return [...document.querySelectorAll("iframe")].map((f) => f.src);',
      args: [],
    });
    this.frameList = urls.map((src, index) => new WebKitFrame(this, index, src));
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    this.browser.pages.delete(this);
    if (this.handle === this.browser.firstWindow) {
      // Keep the session's first window (closing the last window ends the session): blank it instead.
      await this.cmd('POST', '/url', { url: 'about:blank' });
      this.browser.firstWindowUsed = false;
    } else {
      await this.cmd('DELETE', '/window');
      // WebDriver's current window is gone: return to the session's first one.
      await call(this.browser.base, 'POST', '/window', { handle: this.browser.firstWindow });
      this.browser.current = this.browser.firstWindow;
    }
  }
}

/** An iframe of a page: WebDriver switches into it for each evaluation, and back out. */
class WebKitFrame {
  constructor(page, index, src) {
    this.page = page;
    this.index = index;
    this.src = src;
  }

  url() {
    return this.src;
  }

  async evaluate(fn, arg) {
    const script = asyncScript(callWithArgument(fn));
    const { browser } = this.page;
    await browser.command('POST', '/frame', { id: this.index }, this.page);
    let result;
    try {
      result = await browser.command('POST', '/execute/async', { script, args: [arg ?? null] }, this.page);
    } finally {
      await browser.command('POST', '/frame/parent', {}, this.page);
    }
    return scriptValue(result, 'frame.evaluate');
  }

  waitForFunction(fn, arg, { timeout = 30000, polling = 100 } = {}) {
    return pollUntilTruthy((f, a) => this.evaluate(f, a), fn, arg, { timeout, polling }, 'frame.waitForFunction');
  }
}

/** In-page: the element a locator chain names (css selectors, nth indices), or null. */
function resolveChain(chain) {
  let scope = [document];
  for (const step of chain) {
    if (step.selector !== undefined) scope = scope.flatMap((root) => [...root.querySelectorAll(step.selector)]);
    else scope = step.nth < 0 ? scope.slice(step.nth) : scope.slice(step.nth, step.nth + 1);
  }
  return scope;
}

class Locator {
  constructor(page, chain) {
    this.page = page;
    this.chain = chain;
  }

  locator(selector) {
    return new Locator(this.page, [...this.chain, { selector }]);
  }

  nth(n) {
    return new Locator(this.page, [...this.chain, { nth: n }]);
  }

  first() {
    return this.nth(0);
  }

  /** Runs fn(element, arg) on the first match; throws if none. */
  evaluate(fn, arg) {
    return this.run(fn, arg);
  }

  async run(fn, arg) {
    const body = `const [el] = (${resolveChain.toString()})(arguments[0].chain);
      if (!el) throw new Error('no element matches ' + JSON.stringify(arguments[0].chain));
      return (${fn.toString()})(el, arguments[0].arg);`;
    const result = await this.page.cmd('POST', '/execute/async', {
      script: asyncScript(`{ ${body} }`),
      args: [{ chain: this.chain, arg: arg ?? null }],
    });
    return scriptValue(result, 'locator');
  }

  async count() {
    const script = `return (${resolveChain.toString()})(arguments[0]).length;`;
    return this.page.cmd('POST', '/execute/sync', { script, args: [this.chain] });
  }

  textContent() {
    return this.run((el) => el.textContent);
  }

  getAttribute(name) {
    return this.run((el, n) => el.getAttribute(n), name);
  }

  inputValue() {
    return this.run((el) => el.value);
  }

  isVisible() {
    return this.run((el) => el.checkVisibility?.() ?? el.getClientRects().length > 0).catch(() => false);
  }

  isDisabled() {
    return this.run((el) => el.disabled === true);
  }

  async focus() {
    await this.run((el) => el.focus());
  }

  /**
   * Scrolls the element to the viewport's middle. WebKit sometimes ignores a scrollIntoView()
   * issued while the page's sections are still being laid out, so this tries again a frame later
   * until the element is in view (a box of no size has nothing to show and counts as done).
   */
  async scrollIntoViewIfNeeded() {
    for (let tries = 0; tries < 20; tries++) {
      const inView = await this.run(async (el) => {
        el.scrollIntoView({ block: 'center', behavior: 'instant' });
        const r = el.getBoundingClientRect();
        if ((r.width === 0 && r.height === 0) || (r.bottom > 0 && r.top < innerHeight)) return true;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        return false;
      });
      if (inView) return;
    }
    throw new Error('scrollIntoViewIfNeeded: the element did not come into view after 20 tries');
  }

  async boundingBox() {
    return this.run((el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    });
  }

  /**
   * Scrolls the element into view and clicks its centre with the pointer, as Playwright does: the
   * box must hold still in view and uncovered, and the pointer's press must land on the element. A
   * page can still move the element between the last look and the press (in WebKit, which keeps
   * no scroll anchor, a block laid out late above it pushes it down): a press that lands elsewhere
   * is kept from the page, as Playwright's hit-target check keeps it, and the click is tried again.
   */
  async click() {
    const deadline = Date.now() + CLICK_SETTLE_MS;
    for (;;) {
      const box = await this.settledBox(deadline);
      await this.run((el) => {
        const guard = { landed: null, types: ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'] };
        // The gesture's first event decides: on the element (or inside it) it goes on to the page
        // whole; anywhere else, none of its events reach the page or do their default.
        guard.listener = (event) => {
          guard.landed ??= el.isConnected && el.contains(event.target);
          if (guard.landed) return;
          event.preventDefault();
          event.stopImmediatePropagation();
        };
        for (const type of guard.types) addEventListener(type, guard.listener, { capture: true });
        window.__webdriverClickGuard = guard;
      });
      await this.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      const landed = await this.page
        .evaluate(() => {
          const guard = window.__webdriverClickGuard;
          // A new document: the click followed a link, so it landed (a press kept from the page
          // navigates nowhere).
          if (!guard) return true;
          delete window.__webdriverClickGuard;
          for (const type of guard.types) removeEventListener(type, guard.listener, { capture: true });
          return guard.landed;
        })
        .catch((error) => {
          if (interruptedByNavigation(error)) return true;
          throw error;
        });
      if (landed === true) break;
      // No event at all would mean the press went astray in the driver: trying again could click twice.
      if (landed === null) throw new Error("click: the pointer's press reached no element of the page");
      if (Date.now() > deadline)
        throw new Error(`click: the pointer's press did not land on the element within ${CLICK_SETTLE_MS} ms`);
    }
    // The click's handlers and the layout they cause have run before the next command (unless the
    // click followed a link: then the next command waits for the new document instead).
    await this.page
      .evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
      .catch((error) => {
        if (!interruptedByNavigation(error)) throw error;
      });
  }

  /**
   * Where the element settles after scrolling (two frames apart, as Playwright waits for a stable
   * box). A page still laying out what it just revealed (a level shown, a section opened) can move
   * the element for many frames in WebKit: keep trying until the deadline, then say so rather than
   * click where the element was.
   */
  async settledBox(deadline) {
    for (;;) {
      if (Date.now() > deadline)
        throw new Error(`click: the element did not hold still under the pointer within ${CLICK_SETTLE_MS} ms`);
      await this.scrollIntoViewIfNeeded();
      const [first, second, width, height, hit] = await this.run(async (el) => {
        const at = () => JSON.stringify(el.getBoundingClientRect());
        const a = at();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const r = el.getBoundingClientRect();
        // What the pointer would land on (as Playwright's hit-target check): a block above that is
        // laid out late can still move the element after two still frames, or cover it.
        const target = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return [a, at(), innerWidth, innerHeight, target !== null && el.contains(target)];
      });
      const box = JSON.parse(second);
      // The pointer can only reach a point inside the viewport: a box that is in view only in part
      // (WebKit now and then leaves a scrollIntoView() short) is scrolled again.
      const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
      const reachable = cx >= 0 && cy >= 0 && cx < width && cy < height;
      if (first === second && box.width > 0 && reachable && hit) return box;
    }
  }

  /**
   * Replaces the field's text as Playwright's fill does: select it all (with the keyboard), then
   * insert the text in one editing step (execCommand insertText: beforeinput and input events,
   * as a paste), which the field cuts to its maxlength as a browser does. Typed key by key only if
   * the field refuses the insertion.
   */
  async fill(value) {
    await this.focus();
    await this.page.keyboard.press('Control+a');
    if (value === '') {
      await this.page.keyboard.press('Delete');
      return;
    }
    // The field keeps what it accepts: a single-line input drops line breaks and maxlength cuts the
    // rest (typing key by key would then send every refused key: 100,000 of them took minutes).
    const inserted = await this.run((el, v) => {
      if (!document.execCommand('insertText', false, v)) return false;
      let kept = el.localName === 'input' ? v.replace(/[\r\n]/g, '') : v;
      if (el.maxLength >= 0) kept = kept.slice(0, el.maxLength);
      return el.value === kept;
    }, value);
    if (!inserted) {
      await this.page.keyboard.press('Control+a');
      await this.page.keyboard.type(value);
    }
  }

  async press(key) {
    await this.focus();
    await this.page.keyboard.press(key);
  }

  async pressSequentially(text) {
    await this.focus();
    await this.page.keyboard.type(text);
  }

  async selectOption(value) {
    const values = Array.isArray(value) ? value : [value];
    await this.run((el, v) => {
      for (const option of el.options) option.selected = v.includes(option.value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }, values);
    return values;
  }
}

// WebDriver's key codes for the named keys the suites press.
const KEYS = {
  Enter: '\uE007',
  Tab: '\uE004',
  Escape: '\uE00C',
  Backspace: '\uE003',
  Delete: '\uE017',
  Space: ' ',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Home: '\uE011',
  End: '\uE010',
  PageUp: '\uE00E',
  PageDown: '\uE00F',
  Shift: '\uE008',
  Control: '\uE009',
  Alt: '\uE00A',
  Meta: '\uE03D',
  ControlOrMeta: '\uE009',
};

/**
 * Sends one input source's actions, then makes a round trip to the page so that its events have
 * been handled before the next command. Once, in a full run's controls-agreement suite, WebKitGTK's
 * driver answered an input sequence with "unknown error" and an empty message (the form of an error
 * the driver makes itself, not one carrying the browser's reason); the rest of the suite and three
 * reruns of that test went through. That one form is sent once more, after a round trip, and
 * said on stderr; a second failure, or any other error, is thrown. Only the driver's own error is
 * retried, so no fault of the page can pass this way.
 */
async function performInput(page, source) {
  const send = () => page.cmd('POST', '/actions', { actions: [source] });
  try {
    await send();
  } catch (error) {
    if (!/: unknown error: $/.test(error.message)) throw error;
    await page.drainProblems();
    process.stderr.write(`WebKit driver: ${error.message.trim()} on ${source.type} input; sent once more\n`);
    await send();
  }
  await page.drainProblems();
}

class Keyboard {
  constructor(page) {
    this.page = page;
  }

  async perform(actions) {
    await performInput(this.page, { type: 'key', id: 'keyboard', actions });
  }

  /** Presses a key or a chord such as Control+a (Playwright's key names). */
  async press(chord) {
    const parts = chord.split('+').map((k) => KEYS[k] ?? k);
    const actions = [
      ...parts.map((value) => ({ type: 'keyDown', value })),
      ...parts.reverse().map((value) => ({ type: 'keyUp', value })),
    ];
    await this.perform(actions);
  }

  async type(text) {
    await this.perform(
      [...text].flatMap((value) => [
        { type: 'keyDown', value },
        { type: 'keyUp', value },
      ]),
    );
  }
}

class Mouse {
  constructor(page) {
    this.page = page;
  }

  async perform(actions) {
    await performInput(this.page, { type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions });
  }

  async move(x, y) {
    await this.perform([{ type: 'pointerMove', duration: 0, origin: 'viewport', x: Math.round(x), y: Math.round(y) }]);
  }

  async down() {
    await this.perform([{ type: 'pointerDown', button: 0 }]);
  }

  async up() {
    await this.perform([{ type: 'pointerUp', button: 0 }]);
  }

  async click(x, y) {
    await this.perform([
      { type: 'pointerMove', duration: 0, origin: 'viewport', x: Math.round(x), y: Math.round(y) },
      { type: 'pointerDown', button: 0 },
      { type: 'pointerUp', button: 0 },
    ]);
  }
}
