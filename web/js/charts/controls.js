// Labelled native inputs for the charts: numbers (optionally with a slider), text, selects,
// checkboxes and buttons. Number inputs clamp to their rules and say why beside the control.

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
 * the previous value. slider: also show a range input (aria-labelled by the same label).
 * onChange(value) fires with accepted values. Returns { element, input, set(value), get(), message() }.
 */
export function numberControl({ name, label, value, min, max, step = 1, integer = true, even = false, above, slider = false, onChange }) {
  const input = document.createElement('input');
  input.type = 'number';
  input.id = nextId(name);
  input.name = name;
  input.inputMode = integer ? 'numeric' : 'decimal';
  if (min !== undefined) input.min = String(min);
  if (max !== undefined) input.max = String(max);
  input.step = String(step);
  input.value = String(value);
  input.dataset.control = name;
  let range = null;
  if (slider) {
    range = document.createElement('input');
    range.type = 'range';
    range.min = String(min);
    range.max = String(max);
    range.step = String(step);
    range.value = String(value);
    range.dataset.control = `${name}-slider`;
    range.className = 'chart-slider';
  }
  const { wrap, message } = field(label, input, range ? [range] : []);
  if (range) range.setAttribute('aria-label', label);
  let current = value;

  /** The accepted value for `raw` and, when it had to change, why. */
  function validate(raw) {
    let v = Number(raw);
    if (String(raw).trim() === '' || !Number.isFinite(v)) return { value: current, why: `${label} must be a number; kept ${current}.` };
    let why = '';
    if (above !== undefined && v <= above) return { value: current, why: `${label} must be greater than ${above}; kept ${current}.` };
    if (integer && !Number.isInteger(v)) {
      v = Math.round(v);
      why = `${label} must be a whole number; rounded to ${v}.`;
    }
    if (even && v % 2 !== 0) {
      v += v + 1 <= (max ?? Infinity) ? 1 : -1;
      why = `${label} must be even (dimensions come in pairs); using ${v}.`;
    }
    if (min !== undefined && v < min) {
      v = min;
      why = `${label} must be at least ${min}; using ${v}.`;
    }
    if (max !== undefined && v > max) {
      v = max;
      why = `${label} is at most ${max}; using ${v}.`;
    }
    return { value: v, why };
  }

  function accept(raw, rewrite) {
    const { value: v, why } = validate(raw);
    message.textContent = why;
    wrap.classList.toggle('has-message', Boolean(why));
    if (rewrite || why) input.value = String(v);
    if (range) range.value = String(v);
    if (v !== current) {
      current = v;
      onChange(v);
    }
  }

  input.addEventListener('change', () => accept(input.value, true));
  input.addEventListener('input', () => {
    const { value: v, why } = validate(input.value);
    if (!why && v !== current) accept(input.value, false);
  });
  range?.addEventListener('input', () => accept(range.value, false));
  return {
    element: wrap,
    input,
    range,
    get: () => current,
    /** Sets the value programmatically (clamped, with the message), without echoing onChange when unchanged. */
    set(v) {
      accept(v, true);
    },
    message: () => message.textContent,
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
  input.addEventListener('input', () => onChange(input.value));
  return {
    element: wrap,
    input,
    get: () => input.value,
    set(v) {
      input.value = v;
      onChange(v);
    },
    /** Shows (or clears) a note beside the field; text only. */
    note(text) {
      message.textContent = text;
      wrap.classList.toggle('has-message', Boolean(text));
    },
  };
}

/** A select from options [{ value, label }]. */
export function selectControl({ name, label, value, options, onChange }) {
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
  select.value = value;
  const { wrap } = field(label, select);
  select.addEventListener('change', () => onChange(select.value));
  return { element: wrap, input: select, get: () => select.value, set(v) { select.value = v; onChange(v); } };
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
  return { element: wrap, input, get: () => input.checked, set(v) { input.checked = v; onChange(v); } };
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
