// Labelled native inputs for the charts: numbers (optionally with a slider), text, selects,
// checkboxes and buttons. Every value, typed, dragged or read from the URL, passes the same rules;
// a value that had to change is clamped and the control says why beside itself.

import { sentences } from '../locale/format.js';
import { t } from '../locale/i18n.js';
import { numberRule } from './number-rule.js';

let uid = 0;
const nextId = (name) => `chart-${name}-${++uid}`;

function field(labelText, input, extra = []) {
  const wrap = document.createElement('div');
  wrap.className = 'chart-field';
  const label = document.createElement('label');
  label.htmlFor = input.id;
  label.textContent = labelText;
  const message = document.createElement('span');
  message.className = 'chart-message';
  message.setAttribute('role', 'status');
  message.id = `${input.id}-message`;
  input.setAttribute('aria-describedby', message.id);
  wrap.append(label, input, ...extra, message);
  return { wrap, message };
}

/**
 * A number control. rules: { min, max, step, integer, even, above } — values outside are clamped
 * (odd → even, below min → min …) and `message` says why; `above` refuses values ≤ it and keeps
 * the previous value. `value` is validated like any other (a URL may hand it in): `fallback` is
 * kept when it is not a number. slider: also show a range input (aria-labelled by the same label).
 * The accepted value is the one source of truth: the box, the slider and onChange(value) all follow it.
 * Returns { element, input, range, get(), set(value), constrain(value, why), chosen(), release(),
 * message() }.
 */
export function numberControl({
  name,
  label,
  value,
  fallback = value,
  min,
  max,
  step = 1,
  integer = true,
  even = false,
  above,
  slider = false,
  onChange,
}) {
  const input = document.createElement('input');
  input.type = 'number';
  input.id = nextId(name);
  input.name = name;
  input.inputMode = integer ? 'numeric' : 'decimal';
  if (min !== undefined) input.min = String(min);
  if (max !== undefined) input.max = String(max);
  input.step = String(step);
  input.dataset.control = name;
  let range = null;
  if (slider) {
    range = document.createElement('input');
    range.type = 'range';
    range.min = String(min);
    range.max = String(max);
    range.step = String(step);
    range.dataset.control = `${name}-slider`;
    range.className = 'chart-slider';
  }
  const { wrap, message } = field(label, input, range ? [range] : []);
  if (range) range.setAttribute('aria-label', label);
  let current = Number(fallback);
  // The value the reader (or set()) last gave the control, and whether `current` is instead one a
  // bound imposed (constrain) and `chosen` waits for the bound to let go (release).
  let chosen = current;
  let held = false;

  const rule = numberRule({ label, min, max, integer, even, above, step });
  /** The accepted value for `raw` and, when it had to change, why (the one number rule: number-rule.js). */
  const validate = (raw) => rule.validate(raw, current);

  // Each write only when it changes what is shown: a handle's step calls this on every frame, and a
  // number box's value, even an equal one, is sanitized and restyled when set.
  function show(v, why, { keepBox = false } = {}) {
    if (message.textContent !== why) message.textContent = why;
    wrap.classList.toggle('has-message', Boolean(why));
    // The box keeps what is being typed until it is committed; every other source rewrites it.
    const text = String(v);
    if (!keepBox && input.value !== text) input.value = text;
    if (range && range.value !== text) range.value = text;
  }

  function accept(raw, { keepBox = false, notify = true } = {}) {
    const { value: v, why } = validate(raw);
    show(v, why, { keepBox: keepBox && !why });
    chosen = v;
    held = false;
    if (v !== current) {
      current = v;
      if (notify) onChange(v);
    }
  }

  // Whether the reader is typing in the box: from its first input event to the commit (change) or
  // blur. While typing, a bound another control sets (constrain) holds the chart's value and says
  // why, but leaves the box's text alone: a number typed digit by digit passes through values the
  // bound refuses (6 and 65 on the way to 65536), and rewriting the box there would put the next
  // digit after the bound's value.
  let editing = false;
  accept(value, { notify: false });
  input.addEventListener('change', () => {
    editing = false;
    accept(input.value);
  });
  input.addEventListener('blur', () => {
    editing = false;
  });
  input.addEventListener('input', () => {
    editing = true;
    const { value: v, why } = validate(input.value);
    if (!why && v !== current) accept(input.value, { keepBox: true });
  });
  range?.addEventListener('input', () => accept(range.value));
  return {
    element: wrap,
    input,
    range,
    get: () => current,
    /** Sets the value programmatically (clamped, with the message), without echoing onChange when unchanged. */
    set(v) {
      accept(v);
    },
    /**
     * Takes `v` imposed by another control (e.g. a head beyond the head count) and shows `why`,
     * without onChange. The box shows `v` too, unless the reader is typing in it (see `editing`).
     */
    constrain(v, why) {
      current = v;
      held = true;
      show(v, why, { keepBox: editing });
    },
    /** The value the reader last chose, which a bound may be holding elsewhere (constrain). */
    chosen: () => chosen,
    /**
     * Ends a hold: the reader's chosen value comes back and the hold's message goes, without
     * onChange (the bound's control is the one that changed). Returns the value now accepted.
     */
    release() {
      if (!held) return current;
      held = false;
      current = chosen;
      show(current, '', { keepBox: editing });
      return current;
    },
    message: () => message.textContent,
  };
}

/**
 * The handle of a control whose value is the input's own `property` (text, select, checkbox): no
 * rules stand between them, so set(v) writes it and reports onChange(v) as the reader's edit would.
 */
function inputHandle(element, input, property, onChange) {
  return {
    element,
    input,
    get: () => input[property],
    set(v) {
      input[property] = v;
      onChange(v);
    },
  };
}

/** A text control; onChange(text) on every input. maxLength bounds what can be typed. */
export function textControl({ name, label, value, maxLength = 120, onChange }) {
  const input = document.createElement('input');
  input.type = 'text';
  input.id = nextId(name);
  input.name = name;
  input.value = value;
  input.maxLength = maxLength;
  input.spellcheck = false;
  input.autocomplete = 'off';
  input.dataset.control = name;
  const { wrap, message } = field(label, input);
  // A value handed in (from a URL, say) obeys the same bound as typing, and says so until the text is edited.
  let shortened = '';
  if (String(value).length > maxLength) {
    input.value = String(value).slice(0, maxLength);
    shortened = t('{label} takes at most {max} characters; shortened.', { label, max: maxLength });
  }
  let chartNote = '';
  const note = (text) => {
    chartNote = text;
    const shown = sentences(shortened, text);
    message.textContent = shown;
    wrap.classList.toggle('has-message', Boolean(shown));
  };
  note('');
  input.addEventListener('input', () => {
    shortened = '';
    note(chartNote);
    onChange(input.value);
  });
  return {
    ...inputHandle(wrap, input, 'value', onChange),
    /** Shows (or clears) a note beside the field; text only. */
    note,
  };
}

/** A select from options [{ value, label }]; a `value` that is not one of them falls back to `fallback` (or the first option) and says so. */
export function selectControl({ name, label, value, fallback, options, onChange }) {
  const select = document.createElement('select');
  select.id = nextId(name);
  select.name = name;
  select.dataset.control = name;
  for (const o of options) {
    const option = document.createElement('option');
    option.value = o.value;
    option.textContent = o.label;
    select.append(option);
  }
  const { wrap, message } = field(label, select);
  const known = options.some((o) => o.value === value);
  select.value = known ? value : (fallback ?? options[0]?.value);
  if (!known) {
    message.textContent = t('{label}: no such choice; showing {choice}.', {
      label,
      choice: select.selectedOptions[0]?.textContent ?? select.value,
    });
    wrap.classList.add('has-message');
  }
  select.addEventListener('change', () => onChange(select.value));
  return {
    ...inputHandle(wrap, select, 'value', onChange),
    /** Shows `v` imposed by another control (e.g. "your pasted config" once the text is edited), without onChange. */
    constrain(v) {
      select.value = v;
    },
  };
}

/** A checkbox with its label after it. */
export function checkboxControl({ name, label, value, onChange }) {
  const wrap = document.createElement('div');
  wrap.className = 'chart-field chart-check';
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.id = nextId(name);
  input.name = name;
  input.checked = value;
  input.dataset.control = name;
  const labelEl = document.createElement('label');
  labelEl.htmlFor = input.id;
  labelEl.textContent = label;
  wrap.append(input, labelEl);
  input.addEventListener('change', () => onChange(input.checked));
  return inputHandle(wrap, input, 'checked', onChange);
}

/** A button. */
export function buttonControl({ name, label, onClick }) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'chart-button';
  button.textContent = label;
  button.dataset.control = name;
  button.addEventListener('click', onClick);
  return { element: button, input: button };
}

/**
 * A multi-line text box for a pasted file (a config.json). onChange(text) fires once typing pauses
 * for `debounce` ms (at once when 0), or at once on commit() (an "Analyse" button); maxLength bounds
 * it. Text that would make it longer than `maxCharacters` is refused at the box, by its length alone,
 * before anything reads it: a paste or a drop is not inserted, any other input puts the box back as
 * it was, and refusal(length) is shown; nothing reaches onChange. note(text) shows a message under
 * the box (role="alert": the reader's paste did not read) and marks the box invalid while one is
 * shown; className is added to the field (its look).
 * Returns { element, input, get(), set(text), commit(), constrain(text), note(text), message() }.
 */
export function textAreaControl({
  name,
  label,
  value = '',
  rows = 10,
  maxLength,
  maxCharacters = Infinity,
  refusal = (length) => `at most ${maxCharacters} characters, got ${length}`,
  debounce = 0,
  className,
  onChange,
}) {
  const input = document.createElement('textarea');
  input.id = nextId(name);
  input.name = name;
  input.rows = rows;
  if (maxLength !== undefined) input.maxLength = maxLength;
  input.spellcheck = false;
  input.autocomplete = 'off';
  input.dataset.control = name;
  input.value = value;
  const wrap = document.createElement('div');
  wrap.className = className ? `chart-field ${className}` : 'chart-field';
  const labelEl = document.createElement('label');
  labelEl.htmlFor = input.id;
  labelEl.textContent = label;
  const message = document.createElement('p');
  message.className = 'chart-textarea-error';
  message.id = `${input.id}-message`;
  message.setAttribute('role', 'alert');
  input.setAttribute('aria-describedby', message.id);
  wrap.append(labelEl, input, message);
  const note = (text) => {
    message.textContent = text;
    if (text) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };
  let current = input.value;
  let fitting = input.value; // the box's last text within maxCharacters
  let timer = 0;
  const accept = () => {
    clearTimeout(timer);
    timer = 0;
    if (input.value === current) return;
    current = input.value;
    onChange(current);
  };
  // A paste or drop of `text` that would overfill the box is cancelled before the text goes in.
  const refuseIncoming = (event, text, replaced) => {
    const length = input.value.length - replaced + text.length;
    if (length <= maxCharacters) return;
    event.preventDefault();
    note(refusal(length));
  };
  input.addEventListener('paste', (event) =>
    refuseIncoming(event, event.clipboardData?.getData('text/plain') ?? '', input.selectionEnd - input.selectionStart),
  );
  input.addEventListener('drop', (event) => refuseIncoming(event, event.dataTransfer?.getData('text/plain') ?? '', 0));
  input.addEventListener('input', () => {
    clearTimeout(timer);
    if (input.value.length > maxCharacters) {
      const length = input.value.length;
      input.value = fitting;
      note(refusal(length));
      return;
    }
    fitting = input.value;
    if (debounce > 0) timer = setTimeout(accept, debounce);
    else accept();
  });
  return {
    element: wrap,
    input,
    get: () => current,
    set(v) {
      input.value = String(v);
      fitting = input.value;
      accept();
    },
    /** Takes what is being typed now, without waiting for the pause. */
    commit: accept,
    /** Shows `text` imposed by another control (e.g. a chosen preset's file), without onChange. */
    constrain(v) {
      clearTimeout(timer);
      input.value = String(v);
      current = input.value;
      fitting = current;
    },
    note,
    message: () => message.textContent,
  };
}
