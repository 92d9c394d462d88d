// A chart's controls built from its declaration: each control with its range, its value read from
// the URL through the control's own rules (clamped, with the control's message), and the URL kept
// in step with the accepted values. The only path from a URL parameter into a chart's state.
// Also holdWithin, with which a chart keeps one control inside the range another control sets.

import { checkboxControl, numberControl, selectControl, textAreaControl, textControl } from './controls.js';
import { readUrlParams, writeUrlState } from './url-state.js';

const BUILDERS = {
  number: numberControl,
  text: textControl,
  textarea: textAreaControl,
  select: selectControl,
  checkbox: checkboxControl,
};

/**
 * For a chart's reconcile(): keeps state[key] within { min, max }, bounds that another control's
 * value sets (a head beyond the head count). The reader's own value (the number control's chosen())
 * is what the bounds judge. Outside them, state[key] is held at the bound it crossed and the
 * control shows why() beside it, without onChange. Inside, any hold ends: the reader's value comes
 * back and the message goes. So typing 300 into n, which passes through n = 3, leaves "position 10"
 * where the reader put it rather than at 2 with a message about three positions.
 */
export function holdWithin(state, controls, key, { min = -Infinity, max = Infinity }, why) {
  const control = controls[key];
  const wanted = control.chosen();
  const bound = Math.min(Math.max(wanted, min), max);
  if (bound === wanted) {
    state[key] = control.release();
    return;
  }
  state[key] = bound;
  control.constrain(bound, why());
}

/** The defaults of a declaration: { key → value }. */
export function declaredDefaults(declarations) {
  return Object.fromEntries(Object.entries(declarations).map(([key, spec]) => [key, spec.value]));
}

/** The defaults of the keys a link carries: all but those declared `url: false` (a pasted file). */
function linkedDefaults(declarations) {
  return declaredDefaults(Object.fromEntries(Object.entries(declarations).filter(([, spec]) => spec.url !== false)));
}

/**
 * Builds the controls that `declarations` ({ key → { kind: 'number' | 'text' | 'select' |
 * 'checkbox' | 'textarea', label, value (the default), …the control's rules } }) describe, starting
 * from the URL parameters `id.key` (or `alias.key`). A declaration with `url: false` is neither read
 * from nor written to the URL; `unlinked: [values]` are values the URL never holds (the key is
 * left out, so a reload shows the default). onChange(patch) fires with { key: accepted value }; an
 * error it throws is shown in the chart (shell.fail) instead of escaping into the page.
 * Returns { state, controls, defaults, writeUrl(state) }: state holds the accepted values.
 */
export function createDeclaredControls({ id, aliases = [], declarations, shell, onChange }) {
  const defaults = declaredDefaults(declarations);
  const linked = linkedDefaults(declarations);
  const fromUrl = readUrlParams(id, linked, aliases);
  const controls = {};
  const state = {};
  for (const [key, { kind, ...spec }] of Object.entries(declarations)) {
    const build = BUILDERS[kind];
    if (!build) throw new Error(`${id}: control "${key}" has the unknown kind "${kind}"`);
    const { url: _url, unlinked: _unlinked, ...rules } = spec;
    let value = spec.value;
    if (key in fromUrl) value = kind === 'checkbox' ? fromUrl[key] === '1' || fromUrl[key] === 'true' : fromUrl[key];
    controls[key] = build({
      name: key,
      ...rules,
      value,
      fallback: spec.value,
      onChange: (v) => {
        state[key] = v;
        try {
          onChange({ [key]: v });
        } catch (error) {
          shell.fail(error);
        }
      },
    });
    state[key] = controls[key].get();
  }
  return {
    state,
    controls,
    defaults,
    /** Schedules the URL write of `current` (the keys that differ from the defaults). */
    writeUrl: (current) =>
      writeUrlState(
        id,
        Object.fromEntries(
          Object.keys(linked).map((key) => [
            key,
            declarations[key].unlinked?.includes(current[key]) ? undefined : current[key],
          ]),
        ),
        linked,
        aliases,
      ),
  };
}
