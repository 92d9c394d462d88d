// The one rule for a number a reader can set, wherever it is set: a chart's number box and slider,
// a handle on a figure, a number in the prose, the RoPE clock. It decides what a typed, dragged or
// linked value becomes (a number, above a floor, whole, even, within min and max, in that order) and
// says why when it had to change; and it steps a value by the keys every such control answers
// (arrows, Shift for a larger step, Page Up/Down, Home/End), by plain steps or a control's own
// (geometric on a log axis).

import { t } from '../locale/i18n.js';
import { decimal } from '../locale/format.js';

/** The keys that step a number, and the direction each moves it. */
const STEP_KEYS = {
  ArrowRight: 1,
  ArrowUp: 1,
  PageUp: 1,
  ArrowLeft: -1,
  ArrowDown: -1,
  PageDown: -1,
};

/** A step that lands on the value a reader would type: no 0.30000000000000004. */
const tidy = (value) => Number(value.toPrecision(12));

/**
 * The rule of one number. spec: { label (the words the messages name it by), min, max, integer
 * (default true), even, above (values at or below it are refused: the previous value stays), step
 * (default 1), bigStep (Shift and Page keys; default 10 steps), keyStep(value, direction, big) (a
 * control's own stepping, e.g. geometric on a log axis), format(value) (how messages print numbers) }.
 * @param {object} spec
 * @param {string} spec.label
 * @param {number} [spec.min]
 * @param {number} [spec.max]
 * @param {boolean} [spec.integer]
 * @param {boolean} [spec.even]
 * @param {number} [spec.above]
 * @param {number | 'any'} [spec.step]
 * @param {number} [spec.bigStep]
 * @param {(value: number, direction: number, big: boolean) => number} [spec.keyStep]
 * @param {(value: number) => string} [spec.format]
 */
export function numberRule({
  label,
  min,
  max,
  integer = true,
  even = false,
  above,
  step = 1,
  bigStep,
  keyStep,
  format = (value) => decimal(value, 6),
}) {
  const plainStep = typeof step === 'number' && step > 0 ? step : 1;
  const big = bigStep ?? plainStep * 10;

  /** The value `raw` becomes and why ('' when it stands as given); `current` stays when `raw` is refused. */
  function validate(raw, current) {
    let v = Number(raw);
    if (raw === null || raw === undefined || String(raw).trim() === '' || !Number.isFinite(v))
      return { value: current, why: t('{label} must be a number; kept {value}.', { label, value: format(current) }) };
    if (above !== undefined && v <= above)
      return {
        value: current,
        why: t('{label} must be greater than {above}; kept {value}.', {
          label,
          above: format(above),
          value: format(current),
        }),
      };
    let why = '';
    if (integer && !Number.isInteger(v)) {
      v = Math.round(v);
      why = t('{label} must be a whole number; rounded to {value}.', { label, value: format(v) });
    }
    if (even && v % 2 !== 0) {
      v += v + 1 <= (max ?? Infinity) ? 1 : -1;
      why = t('{label} must be even (dimensions come in pairs); using {value}.', { label, value: format(v) });
    }
    if (min !== undefined && v < min) {
      v = min;
      why = t('{label} must be at least {min}; using {value}.', { label, min: format(min), value: format(v) });
    }
    if (max !== undefined && v > max) {
      v = max;
      why = t('{label} is at most {max}; using {value}.', { label, max: format(max), value: format(v) });
    }
    return { value: v, why };
  }

  /**
   * Where `key` (with Shift if `shift`) takes `value`, before validation; null for a key that steps
   * nothing. `bounds` ({ min, max }) overrides the rule's own for Home and End (a bound another control sets).
   */
  function stepped(value, key, { shift = false, bounds = {} } = {}) {
    if (key === 'Home') return bounds.min ?? min ?? null;
    if (key === 'End') return bounds.max ?? max ?? null;
    const direction = STEP_KEYS[key];
    if (!direction) return null;
    const large = shift || key.startsWith('Page');
    if (keyStep) return keyStep(value, direction, large);
    return tidy(value + direction * (large ? big : plainStep));
  }

  return { label, min, max, integer, even, above, step: plainStep, bigStep: big, validate, stepped };
}

/** Whether `event` is a key a number control answers (modifier combinations other than Shift are left to the browser). */
export function isStepKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return false;
  return event.key in STEP_KEYS || event.key === 'Home' || event.key === 'End';
}

/** A geometric step for a length on a log axis: ×1.25 a step, ×2 a large one, always at least 1. */
export function geometricKeyStep(value, direction, big) {
  const k = big ? 2 : 1.25;
  return direction > 0 ? Math.max(value + 1, Math.round(value * k)) : Math.min(value - 1, Math.round(value / k));
}
