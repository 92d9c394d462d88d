// Shared plumbing for the browser suites: where the built site is, how Chromium is launched, a
// page opener that records every problem (console errors, page errors, failed requests, CSP
// violations, requests to other origins), and the in-page discovery of the page's controls.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/build/serve.mjs';

export const repo = new URL('../../', import.meta.url).pathname;
export const dist = process.env.POSITIONAL_DIST ?? join(repo, 'dist');
export const singleFile = process.env.POSITIONAL_SINGLE_FILE ?? join(dist, '..', 'dist-single', 'positional-lesson.html');

/** Debian's Chromium, with the flags that keep it from reaching for the network. */
export const LAUNCH = {
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/** Starts the static server on dist/ and launches Chromium. Returns { server, browser, close() }. */
export async function startSite() {
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`no built site at ${dist}: run the wasm build's site target first`);
  const server = await startServer({ root: dist, port: 0 });
  const browser = await chromium.launch(LAUNCH);
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
export async function openPage(browser, url, { viewport = { width: 1280, height: 900 }, contextOptions = {}, setup, blockOtherOrigins = null, waitForLive = true } = {}) {
  const context = await browser.newContext({ viewport, ...contextOptions });
  const offOrigin = [];
  if (blockOtherOrigins) {
    await context.route('**/*', (route) => {
      const target = route.request().url();
      if (target.startsWith('data:') || target.startsWith('blob:') || new URL(target).origin === blockOtherOrigins) return route.fallback();
      offOrigin.push(target);
      return route.abort('blockedbyclient');
    });
  }
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.addInitScript(recordViolations);
  if (setup) await setup(page, context);
  const response = await page.goto(url);
  // Live numbers in, and the sections skipped while loading all laid out (main.js's finishLoading).
  if (waitForLive) await page.waitForFunction(() => document.documentElement.dataset.liveState && !document.documentElement.classList.contains('is-loading'), null, { timeout: 30000 });
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

/** Records console errors, uncaught exceptions, failed requests and HTTP errors of `page`. */
export function watchProblems(page) {
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.type()} ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  return problems;
}

/** An init script: keeps every securitypolicyviolation event in window.__cspViolations. */
export function recordViolations() {
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample ?? ''}`.trim());
  });
}

/** Mounts every chart that is still waiting to scroll into view, and waits two frames. */
export async function mountAllCharts(page) {
  await page.waitForFunction(() => window.positionalCharts || document.documentElement.dataset.liveState === 'failed', null, { timeout: 30000 });
  await page.evaluate(async () => {
    window.positionalCharts?.mountAll();
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
    const type = tag === 'input' ? (el.getAttribute('type') ?? 'text').toLowerCase() : tag === 'textarea' ? 'textarea' : el.getAttribute('type') ?? '';
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
    } else if (tag === 'textarea' || (tag === 'input' && ['text', 'search', 'url', 'email', 'tel', ''].includes(type))) {
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
