// The charts' scales and tick labels (web/js/chart-kit/scales.js): each log axis speaks one notation.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { logAxisPowers, logTicks, tickLabel } from '../../web/js/chart-kit/scales.js';

const SUPERSCRIPT = /10[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+$/;
const labels = (lo, hi) => {
  const ticks = logTicks(lo, hi);
  const powers = logAxisPowers(ticks);
  return ticks.map((v) => tickLabel(v, true, powers));
};

test('a log axis within 1 to 10,000 reads as plain grouped numbers', () => {
  assert.deepEqual(labels(1, 1e4), ['1', '10', '100', '1,000', '10,000']);
});

test('a log axis reaching past 10,000 or below 1 reads as powers of ten, every tick of it', () => {
  // The angle-precision chart's position axis (1 to 2^20) and its error axis (10⁻¹⁰ to 1), the
  // wavelength axes (1 to 10⁶) and ALiBi's slopes (10⁻² to 1): before, "10,000" stood beside "10⁵".
  for (const [lo, hi] of [
    [1, 2 ** 20],
    [1e-10, 1],
    [1, 1e6],
    [0.01, 1],
  ]) {
    const axis = labels(lo, hi);
    assert.ok(axis.length >= 3, `${lo}–${hi}: ${axis}`);
    assert.ok(
      axis.every((t) => SUPERSCRIPT.test(t)),
      `${lo}–${hi} mixes notations: ${axis.join(' ')}`,
    );
  }
  assert.deepEqual(labels(1, 1e6), ['10⁰', '10¹', '10²', '10³', '10⁴', '10⁵', '10⁶']);
});

test('linear ticks keep grouped numbers and the minus sign', () => {
  assert.equal(tickLabel(-0.5), '\u22120.5');
  assert.equal(tickLabel(32768), '32,768');
});
