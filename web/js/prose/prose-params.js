// @ts-check
// Live parameters in the prose: each {{param:NAME}} of lesson.md is a <span role="slider"> holding the
// lesson's value. Arrow keys (Shift: a larger step), Page Up/Down, Home/End or a sideways drag move it;
// the live numbers of its section that read it (LIVE_QUANTITIES inputs) are recomputed by the engine
// in their own format, and the section's figure with a control of the same meaning follows through its
// set(). Each section keeps its own values: elsewhere the lesson's numbers stand. A reset button,
// shown once something moved, returns the section to the lesson's values. A value printed several
// times in a section is one tab stop (the copy last used; roving tabindex), and the focused number
// shows − and + beside it, for a pointer that cannot drag (WCAG 2.5.7).
import {
  chartParameters,
  claimHolds,
  computeEngineResults,
  dependentsOf,
  LIVE_CLAIMS,
  LIVE_PARAMETERS,
  LIVE_QUANTITIES,
  liveText,
  PARAMETER_DEFAULTS,
  PARAMETER_ECHOES,
  parameterRule,
  parameterText,
  settleParameter,
} from './live-values.js';
import { isStepKey } from '../chart-kit/number-rule.js';
import { formatValue, withUnit } from '../locale/format.js';
import { mountedChart, mountedCharts, setChartControl, watchChartMounts } from './prose-charts.js';
import { t } from '../locale/i18n.js';

/** Pixels of sideways pointer travel per step of a dragged number. */
const DRAG_PX_PER_STEP = 6;
const RESET_LABEL = t('Back to the lesson’s numbers');

/** A chart's caption, whose numbers follow the chart rather than the section. */
const CAPTION = '[data-chart] > figcaption';

export { chartParameters };

/** The block a handle sits in (where its section's reset button is shown). */
const blockOf = (handle) => handle.closest('li, .table-wrap, p, figcaption') ?? handle.parentElement;

/** The text a handle's slider role reads out: the value with its unit. */
function valueText(name, value) {
  const { unit } = LIVE_PARAMETERS[name];
  return withUnit(parameterText(name, value), unit);
}

/** A section's moved values and the elements that show them. */
function createScope(section) {
  const reset = document.createElement('button');
  reset.type = 'button';
  reset.className = 'param-reset';
  reset.textContent = RESET_LABEL;
  reset.hidden = true;
  // charts: chart id → its state before this section first moved it (what reset restores).
  return { section, values: {}, handles: [], reset, last: null, charts: new Map() };
}

let statusCount = 0;

/**
 * The status line of a handle's block, where a clamped value says why (role=status: read out
 * politely; the handle's aria-describedby names it). It closes the block (a list item or a caption)
 * or follows it (a paragraph or a table), never inside a sentence: one line for the block's handles.
 */
function statusFor(handle) {
  const block = blockOf(handle);
  const inside = block.matches('li, figcaption');
  const last = inside ? block.lastElementChild : block.nextElementSibling;
  let status = last?.classList.contains('param-status') ? last : null;
  if (!status) {
    status = document.createElement('span');
    status.className = 'param-status';
    status.id = `param-status-${++statusCount}`;
    status.setAttribute('role', 'status');
    if (inside) block.append(status);
    else block.after(status);
  }
  if (handle.getAttribute('aria-describedby') !== status.id) handle.setAttribute('aria-describedby', status.id);
  return status;
}

/**
 * Makes every [data-param] handle under `root` live with the loaded engine. Returns
 * { scopes, set(handle, value), reset(section?) } for the page (and its tests).
 */
export function setupProseParameters(root, engine) {
  const scopes = new Map();
  for (const handle of root.querySelectorAll('[data-param]')) {
    if (!LIVE_PARAMETERS[handle.dataset.param]) continue;
    const section = handle.closest('section') ?? root.body ?? root;
    if (!scopes.has(section)) scopes.set(section, createScope(section));
    const scope = scopes.get(section);
    // One tab stop per value of a section: its first copy, until the reader uses another (rove).
    handle.tabIndex = scope.handles.some((h) => h.dataset.param === handle.dataset.param) ? -1 : 0;
    scope.handles.push(handle);
    // The build names the handle in English (it runs in Node); say its name and value in the page's language.
    const name = handle.dataset.param;
    handle.setAttribute('aria-label', LIVE_PARAMETERS[name].label);
    handle.setAttribute('aria-valuetext', valueText(name, PARAMETER_DEFAULTS[name]));
    statusFor(handle);
    listen(handle, scope);
  }
  for (const scope of scopes.values()) scope.reset.addEventListener('click', () => resetScope(scope));

  /** The value a handle's section holds for its parameter (a view's: read from the ones it views). */
  const current = (scope, name) => {
    const view = LIVE_PARAMETERS[name].view;
    if (view) return view.read({ ...PARAMETER_DEFAULTS, ...scope.values });
    return scope.values[name] ?? PARAMETER_DEFAULTS[name];
  };

  /**
   * Takes `raw` for the handle's parameter through the engine's rules and updates the section. A
   * view (the stretch) moves the parameter it views (the target length), by that one's rules too.
   */
  function set(handle, raw, scope = scopeOf(handle)) {
    const { values, why, moved } = settleParameter(scope.values, handle.dataset.param, raw);
    const status = statusFor(handle);
    if (status.textContent !== why) status.textContent = why;
    if (!moved.length) return;
    scope.values = values;
    for (const n of moved) showValue(scope, n);
    recompute(scope, moved);
    scope.last = handle;
    showReset(scope);
    // The figure last: its drawing lays the page out (see define-chart.js), after every word is written.
    for (const n of moved) followChart(scope, n);
  }

  function scopeOf(handle) {
    for (const scope of scopes.values()) if (scope.handles.includes(handle)) return scope;
    throw new Error(`a prose parameter outside any section: ${handle.dataset.param}`);
  }

  /** Writes the section's value into every handle of that parameter in it (and each view of it), and every echo reading it. */
  function showValue(scope, name) {
    const values = { ...PARAMETER_DEFAULTS, ...scope.values };
    for (const echo of scope.section.querySelectorAll('[data-echo]')) {
      const spec = PARAMETER_ECHOES[echo.dataset.echo];
      if (!spec?.inputs.includes(name) || echo.closest(CAPTION)) continue;
      const text = formatValue(spec.value(values), spec.format);
      if (echo.textContent !== text) echo.textContent = text;
      echo.classList.toggle(
        'is-moved',
        spec.inputs.some((input) => input in scope.values),
      );
    }
    for (const handle of scope.handles) {
      const shown = handle.dataset.param;
      if (shown !== name && !LIVE_PARAMETERS[shown].view?.inputs.includes(name)) continue;
      const value = current(scope, shown);
      handle.textContent = parameterText(shown, value);
      handle.setAttribute('aria-valuenow', String(value));
      handle.setAttribute('aria-valuetext', valueText(shown, value));
      handle.classList.toggle('is-moved', value !== PARAMETER_DEFAULTS[shown]);
    }
  }

  /** Recomputes, through the engine, the section's live numbers that read any of `names`. */
  function recompute(scope, names) {
    const dependents = new Set(names.flatMap(dependentsOf));
    // A figure's caption describes the figure: it follows the figure's own state (followCaption).
    const elements = [...scope.section.querySelectorAll('[data-live]')].filter(
      (e) => dependents.has(e.dataset.live) && !e.closest(CAPTION),
    );
    const results = writeLiveNumbers(elements, scope.values, Object.keys(scope.values).length > 0);
    const branches = [...scope.section.querySelectorAll('[data-when], [data-unless]')].filter(
      (e) => !e.closest(CAPTION),
    );
    showClaims(branches, names, scope.values, results);
  }

  /**
   * Shows, of each claim sentence in `branches` whose claim reads one of `names`, the branch that
   * holds for parameter `values` ({{when:…}} while the claim holds, {{else}} otherwise).
   */
  function showClaims(branches, names, values, results) {
    if (!results) return;
    for (const branch of branches) {
      const name = branch.dataset.when ?? branch.dataset.unless;
      if (!LIVE_CLAIMS[name]?.inputs.some((input) => names.includes(input))) continue;
      let holds;
      try {
        holds = claimHolds(name, results, values);
      } catch (error) {
        console.warn(`The claim ${name} could not be checked:`, error);
        continue;
      }
      const hidden = branch.dataset.when !== undefined ? !holds : holds;
      if (branch.hidden !== hidden) branch.hidden = hidden;
    }
  }

  /**
   * Writes each element's live number for parameter `values` (the lesson's where one is missing).
   * Returns the engine's results for `values` (null when they could not be computed).
   */
  function writeLiveNumbers(elements, values, moved) {
    let results;
    try {
      results = computeEngineResults(engine, values);
    } catch (error) {
      results = null;
      console.warn('The prose parameters could not be computed:', error);
    }
    for (const element of elements) {
      let text;
      try {
        text = liveText(element.dataset.live, results, element.dataset.format);
        element.classList.toggle('live-unavailable', false); // remove() rewrites even an unchanged class
        element.removeAttribute('title');
      } catch (error) {
        // A value the engine refuses (say, a base so large the scaled one overflows) is said, not hidden.
        text = '—';
        element.classList.add('live-unavailable');
        element.title = error.message;
      }
      if (element.textContent !== text) element.textContent = text;
      element.classList.toggle('is-moved', moved);
    }
    return results;
  }

  /**
   * A chart's caption states what the chart draws: each time the chart changes (its controls, its
   * handles, or the prose moving it), its caption's live numbers and echoes are recomputed for the
   * chart's state, read through the parameters of the same meaning (LIVE_PARAMETERS `chart`).
   */
  function followCaption(id, state) {
    const caption = root.querySelector(`[data-chart="${CSS.escape(id)}"] > figcaption`);
    if (!caption) return;
    const values = chartParameters(id, state);
    const moved = Object.keys(values).some((name) => values[name] !== PARAMETER_DEFAULTS[name]);
    const results = writeLiveNumbers(
      [...caption.querySelectorAll('[data-live]')].filter((e) =>
        LIVE_QUANTITIES[e.dataset.live]?.inputs?.some((name) => name in values),
      ),
      values,
      moved,
    );
    showClaims([...caption.querySelectorAll('[data-when], [data-unless]')], Object.keys(values), values, results);
    const all = { ...PARAMETER_DEFAULTS, ...values };
    for (const echo of caption.querySelectorAll('[data-echo]')) {
      const spec = PARAMETER_ECHOES[echo.dataset.echo];
      if (!spec?.inputs.some((name) => name in values)) continue;
      const text = formatValue(spec.value(all), spec.format);
      if (echo.textContent !== text) echo.textContent = text;
      echo.classList.toggle('is-moved', moved);
    }
  }
  (root.body ?? root).addEventListener?.('chart-state', (event) =>
    followCaption(event.detail.chart, event.detail.state),
  );
  for (const [id, chart] of mountedCharts()) followCaption(id, chart.state);

  /** The section's figure with a control of the same meaning, if it is in this section. */
  function chartFor(scope, name) {
    const target = LIVE_PARAMETERS[name].chart;
    if (!target || !scope.section.querySelector(`[data-chart="${target.id}"]`)) return null;
    return target;
  }

  function followChart(scope, name) {
    const target = chartFor(scope, name);
    const chart = target && mountedChart(target.id);
    if (!chart) return;
    // A chart settles one control against another (a trained length past the target moves the
    // target): remember all of its state before the prose first moved it, for reset.
    if (!scope.charts.has(target.id)) scope.charts.set(target.id, { ...chart.state });
    setChartControl(chart, target.key, current(scope, name));
  }

  /** Returns each figure this section moved to the state it had before. */
  function restoreCharts(scope) {
    for (const [id, state] of scope.charts) {
      const chart = mountedChart(id);
      if (!chart) continue;
      for (const [key, value] of Object.entries(state)) setChartControl(chart, key, value);
    }
    scope.charts.clear();
  }

  function showReset(scope) {
    const moved = Object.keys(scope.values).length > 0;
    let block = moved && scope.last ? blockOf(scope.last) : null;
    // After the block's status line where that follows the block.
    if (block?.nextElementSibling?.classList.contains('param-status')) block = block.nextElementSibling;
    if (block && block.nextElementSibling !== scope.reset) block.after(scope.reset);
    if (scope.reset.hidden !== !moved) scope.reset.hidden = !moved;
  }

  /** Returns a section (or every section) to the lesson's values, its figure too. */
  function resetScope(scope) {
    const names = Object.keys(scope.values);
    scope.values = {};
    for (const handle of scope.handles) statusFor(handle).textContent = '';
    for (const name of names) showValue(scope, name);
    restoreCharts(scope);
    recompute(scope, names);
    const focusBack = scope.last;
    showReset(scope);
    if (focusBack && document.activeElement === scope.reset) focusBack.focus();
  }

  // The − and + shown beside the focused number: one pair for the page, moved to whichever has focus.
  const steppers = createSteppers();
  let stepping = null; // { handle, scope, rule } of the focused number

  function createSteppers() {
    const pair = document.createElement('span');
    pair.className = 'param-steppers';
    pair.hidden = true;
    for (const key of ['ArrowDown', 'ArrowUp']) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'param-step';
      // Out of the tab order (the number itself answers the arrow keys); a press keeps the focus on the number.
      button.tabIndex = -1;
      button.dataset.step = key === 'ArrowUp' ? 'up' : 'down';
      button.textContent = key === 'ArrowUp' ? '+' : '\u2212';
      for (const type of ['pointerdown', 'mousedown']) button.addEventListener(type, (event) => event.preventDefault());
      button.addEventListener('click', () => {
        if (!stepping) return;
        const { handle, scope, rule } = stepping;
        const next = rule.stepped(current(scope, handle.dataset.param), key);
        if (next !== null) set(handle, next, scope);
        handle.focus({ preventScroll: true });
        placeSteppers();
      });
      pair.append(button);
    }
    return pair;
  }

  function showSteppers(handle, scope, rule) {
    stepping = { handle, scope, rule };
    const label = LIVE_PARAMETERS[handle.dataset.param].label;
    const [down, up] = steppers.children;
    down.setAttribute('aria-label', t('Decrease {label}', { label }));
    up.setAttribute('aria-label', t('Increase {label}', { label }));
    // Out of the flow: showing or hiding them never moves the text (a press that blurs the number must
    // still land where the reader aimed).
    // In the page's main landmark, where every content lives (the accessibility suite checks it).
    const home = handle.closest('main') ?? document.body;
    if (steppers.parentElement !== home) home.append(steppers);
    steppers.hidden = false;
    placeSteppers();
  }

  // Where − and + go covers none of the text being read: beside the number's line in the margin right
  // of the text column where there is room for them, else docked at the bottom of the screen, within a
  // thumb's reach, with the page scrolled so the number's line stays above them.
  function placeSteppers() {
    if (!stepping) return;
    const box = stepping.handle.getBoundingClientRect();
    const column = (stepping.handle.closest('main') ?? document.body).getBoundingClientRect();
    const viewport = document.documentElement.clientWidth;
    steppers.classList.remove('is-docked');
    const pair = steppers.getBoundingClientRect();
    const GAP = 8;
    if (viewport - column.right >= pair.width + 2 * GAP) {
      // Absolute against its offset parent (the document when none is positioned).
      const parent = steppers.offsetParent;
      const origin =
        parent && parent !== document.body
          ? {
              x: parent.getBoundingClientRect().left - parent.scrollLeft,
              y: parent.getBoundingClientRect().top - parent.scrollTop,
            }
          : { x: -window.scrollX, y: -window.scrollY };
      steppers.style.left = `${column.right + GAP - origin.x}px`;
      steppers.style.top = `${box.top + (box.height - pair.height) / 2 - origin.y}px`;
      return;
    }
    steppers.classList.add('is-docked');
    steppers.style.left = '';
    steppers.style.top = '';
    const docked = steppers.getBoundingClientRect();
    const overlap = box.bottom + GAP - docked.top;
    if (overlap > 0) window.scrollBy({ top: overlap, behavior: 'instant' });
  }

  function listen(handle, scope) {
    const name = handle.dataset.param;
    const rule = parameterRule(name);
    const { step } = rule;
    handle.addEventListener('focus', () => {
      for (const other of scope.handles) if (other.dataset.param === name) other.tabIndex = other === handle ? 0 : -1;
      showSteppers(handle, scope, rule);
    });
    handle.addEventListener('blur', (event) => {
      if (steppers.contains(event.relatedTarget)) return;
      if (stepping?.handle === handle) {
        stepping = null;
        steppers.hidden = true;
      }
    });
    handle.addEventListener('keydown', (event) => {
      if (!isStepKey(event)) return;
      const next = rule.stepped(current(scope, name), event.key, { shift: event.shiftKey });
      if (next === null) return;
      event.preventDefault();
      set(handle, next, scope);
    });
    let drag = null;
    handle.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      event.preventDefault(); // no text selection while dragging; focus by hand instead
      handle.focus();
      handle.setPointerCapture(event.pointerId);
      drag = { id: event.pointerId, x: event.clientX, from: current(scope, name) };
      handle.classList.add('is-dragged');
    });
    handle.addEventListener('pointermove', (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const steps = Math.trunc((event.clientX - drag.x) / DRAG_PX_PER_STEP);
      set(handle, Number((drag.from + steps * step).toPrecision(12)), scope);
    });
    const end = (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      drag = null;
      handle.classList.remove('is-dragged');
      if (handle.hasPointerCapture(event.pointerId)) handle.releasePointerCapture(event.pointerId);
    };
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  }

  // A figure that mounts after its section moved starts from the section's values.
  watchChartMounts(root.body ?? root, (id) => {
    for (const scope of scopes.values()) {
      for (const name of Object.keys(scope.values)) if (chartFor(scope, name)?.id === id) followChart(scope, name);
    }
  });

  return {
    scopes,
    set,
    reset(section) {
      for (const scope of scopes.values()) if (!section || scope.section === section) resetScope(scope);
    },
  };
}
