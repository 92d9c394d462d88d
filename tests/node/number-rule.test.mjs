// The one number rule (web/js/chart-kit/number-rule.js) over every number a reader can set: each
// declared chart control and each prose parameter validates and steps by it, with the same outcome
// whichever place a value comes from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { numberRule, isStepKey, geometricKeyStep } from '../../web/js/chart-kit/number-rule.js';
import { CHART_DECLARATIONS } from '../../web/js/charts/declarations.js';
import { LIVE_PARAMETERS, parameterRule, validateParameter } from '../../web/js/prose/live-values.js';

/** Every declared number: [where, rule spec]. */
function declaredNumbers() {
  const out = [];
  for (const [chart, declaration] of Object.entries(CHART_DECLARATIONS))
    for (const [key, control] of Object.entries(declaration.controls ?? {}))
      if (control.kind === 'number') out.push([`${chart}.${key}`, { label: control.label, ...control }]);
  for (const name of Object.keys(LIVE_PARAMETERS)) out.push([`param ${name}`, null]);
  return out;
}

const ruleOf = (where, spec) => (spec ? numberRule(spec) : parameterRule(where.slice('param '.length)));

test('every declared number keeps its value inside its bounds whatever is typed', () => {
  // Every kind of value an address, a paste or a script can hand a control.
  const hostile = [
    ...['', 'x', 'twelve', 'NaN', 'Infinity', '-Infinity', '1e308', '-1e308', '-1', '0', '0.5', '9007199254740993'],
    ...[NaN, Infinity, -Infinity, -1e300, 1e300, 0.5, -0.5, 3.7, 1e-9, '  12 ', '0x10', null, undefined],
  ];
  let checked = 0;
  for (const [where, spec] of declaredNumbers()) {
    const rule = ruleOf(where, spec);
    const start = spec ? spec.value : LIVE_PARAMETERS[where.slice(6)].value;
    for (const raw of hostile) {
      const { value, why } = rule.validate(raw, start);
      assert.ok(Number.isFinite(value), `${where}: ${raw} → ${value}`);
      if (rule.min !== undefined) assert.ok(value >= rule.min, `${where}: ${raw} → ${value} < min`);
      if (rule.max !== undefined) assert.ok(value <= rule.max, `${where}: ${raw} → ${value} > max`);
      if (rule.integer) assert.ok(Number.isInteger(value), `${where}: ${raw} → ${value} not whole`);
      if (rule.even) assert.equal(value % 2, 0, `${where}: ${raw} → ${value} odd`);
      if (rule.above !== undefined) assert.ok(value > rule.above, `${where}: ${raw} → ${value}`);
      if (value !== Number(raw)) assert.ok(why.length > 0, `${where}: ${raw} changed to ${value} without a word`);
      checked += 1;
    }
    // The declared value stands as it is.
    assert.deepEqual(rule.validate(start, start), { value: start, why: '' }, where);
  }
  assert.ok(checked > 1000, `${checked} checks`);
});

test('the keys step every declared number the same way: arrows by a step, Shift and Page by a larger one, Home and End to the ends', () => {
  for (const [where, spec] of declaredNumbers()) {
    const rule = ruleOf(where, spec);
    const start = spec ? spec.value : LIVE_PARAMETERS[where.slice(6)].value;
    const up = rule.stepped(start, 'ArrowRight');
    const down = rule.stepped(start, 'ArrowLeft');
    assert.ok(up > start && down < start, `${where}: ${down} < ${start} < ${up}`);
    assert.equal(rule.stepped(start, 'ArrowUp'), up, where);
    assert.equal(rule.stepped(start, 'PageUp'), rule.stepped(start, 'ArrowRight', { shift: true }), where);
    assert.ok(
      rule.stepped(start, 'PageUp') - start >= up - start,
      `${where}: Page Up moves at least as far as an arrow`,
    );
    if (rule.min !== undefined) assert.equal(rule.stepped(start, 'Home'), rule.min, where);
    if (rule.max !== undefined) assert.equal(rule.stepped(start, 'End'), rule.max, where);
    assert.equal(rule.stepped(start, 'a'), null, where);
    // A step is then validated like a typed value: it never leaves the bounds.
    const { value } = rule.validate(rule.stepped(rule.max ?? start, 'End'), start);
    if (rule.max !== undefined) assert.equal(value, rule.max, where);
  }
});

test('steps land on the numbers a reader would type, and a bound from elsewhere moves Home and End', () => {
  const rule = numberRule({ label: 'θ', step: 0.1, integer: false, min: 0, max: 1 });
  assert.equal(rule.stepped(0.2, 'ArrowRight'), 0.3);
  assert.equal(rule.stepped(0.5, 'Home', { bounds: { min: 0.25 } }), 0.25);
  assert.equal(rule.stepped(0.5, 'End', { bounds: { max: 0.75 } }), 0.75);
  assert.equal(geometricKeyStep(100, 1, false), 125);
  assert.equal(geometricKeyStep(100, 1, true), 200);
  assert.equal(geometricKeyStep(1, -1, false), 0);
  assert.equal(geometricKeyStep(2, 1, false), 3, 'at least one step');
  const log = numberRule({ label: 'n', keyStep: geometricKeyStep, min: 1, max: 4096 });
  assert.equal(log.stepped(100, 'PageDown'), 50);
});

test('only plain and Shift presses step: Ctrl, Alt and Meta combinations are left to the browser', () => {
  assert.equal(isStepKey({ key: 'ArrowRight' }), true);
  assert.equal(isStepKey({ key: 'ArrowRight', shiftKey: true }), true);
  for (const modifier of ['altKey', 'ctrlKey', 'metaKey'])
    assert.equal(isStepKey({ key: 'ArrowRight', [modifier]: true }), false);
  assert.equal(isStepKey({ key: 'Tab' }), false);
});

test('a prose parameter and its chart control give the same value and the same reason', () => {
  for (const [name, p] of Object.entries(LIVE_PARAMETERS)) {
    if (!p.chart) continue;
    const control = CHART_DECLARATIONS[p.chart.id].controls[p.chart.key];
    const chartRule = numberRule({ label: control.label, ...control });
    for (const raw of [p.min - 1, p.max + 1, p.value + 0.4, p.value + 1, 'x'])
      assert.equal(
        validateParameter(name, raw, p.value).value,
        chartRule.validate(raw, p.value).value,
        `${name}: ${raw}`,
      );
  }
});
