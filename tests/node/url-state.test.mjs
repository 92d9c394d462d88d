// How the charts' state is written into a query (web/js/chart-kit/url-state.js queryWithWrites):
// the charts' own parameters are set or removed, every other parameter is passed through as the
// address spells it, for hand-picked and 20,000 random queries.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { queryWithWrites } from '../../web/js/chart-kit/url-state.js';
import { seededGenerator } from '../../web/js/lms/record.js';

const DEFAULTS = { heads: 8, slope: 0.5, causal: false };
const write = (search, state) =>
  queryWithWrites(search, new Map([['alibi', { state, defaults: DEFAULTS, aliases: ['head'] }]]));

test('other parameters keep their spelling and place; own keys are replaced in place or appended', () => {
  const search = '?utm=a%7Eb&x=%20y&alibi.heads=3&bare&z=1+2&head.slope=0.1&alibi.heads=4&q=%E2%9C%93';
  assert.equal(
    write(search, { heads: 5, slope: 0.5, causal: true }),
    '?utm=a%7Eb&x=%20y&alibi.heads=5&bare&z=1+2&q=%E2%9C%93&alibi.causal=1',
  );
  // A value is written as URLSearchParams writes it; a key back at its default goes.
  assert.equal(write('?alibi.heads=3', { heads: 8, slope: 'a b&c', causal: false }), '?alibi.slope=a+b%26c');
  assert.equal(write('?alibi.heads=3', DEFAULTS), '');
  // A name spelled with escapes is still the chart's own.
  assert.equal(write('?alibi%2Eheads=3&k=%zz', { ...DEFAULTS, heads: 2 }), '?alibi.heads=2&k=%zz');
});

test('20,000 random queries: unrelated pieces verbatim and in order, each own key once and right', (t) => {
  const next = seededGenerator(7);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const NAMES = [
    'alibi.heads',
    'alibi.slope',
    'alibi.causal',
    'head.heads',
    'head.slope',
    'alibi%2Eheads',
    'alibi.other',
    'utm',
    'x',
    'a+b',
    '%zz',
    'alibi',
    '',
    'embed',
    'h%C3%A9ads',
    'alibi.heads ',
  ];
  const VALUES = ['', '=', '1', '%20', '+', '%zz', 'a%26b', '%E2%9C%93', '<script>', '0.5'];
  const owned = new Set(['alibi.heads', 'alibi.slope', 'alibi.causal', 'head.heads', 'head.slope', 'head.causal']);
  // The name as a browser's URLSearchParams reads it (an independent decoder).
  const nameOf = (piece) => {
    const raw = piece.split('=')[0].replace(/\+/g, ' ');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  };
  let tried = 0;
  for (let i = 0; i < 20_000; i += 1) {
    const pieces = Array.from({ length: Math.floor(next() * 8) }, () => {
      const name = pick(NAMES);
      return next() < 0.2 ? name : `${name}=${pick(VALUES)}`;
    });
    const search = pieces.length ? `?${pieces.join('&')}` : pick(['', '?']);
    const state = {
      heads: pick([8, 1, 12, 1e21]),
      slope: pick([0.5, -0.25, 'x y', '&=']),
      causal: pick([false, true]),
    };
    const out = write(search, state);
    tried += 1;
    const got = out ? out.slice(1).split('&') : [];
    const where = `${search} with ${JSON.stringify(state)} → ${out}`;
    // Unrelated pieces: the same, in the same order.
    assert.deepEqual(
      got.filter((p) => !owned.has(nameOf(p))),
      pieces.filter((p) => p !== '' && !owned.has(nameOf(p))),
      where,
    );
    // Own keys: once each, as URLSearchParams reads them, and only when not at the default.
    const read = new URLSearchParams(out);
    for (const key of Object.keys(DEFAULTS)) {
      const expected = state[key] === DEFAULTS[key] ? null : typeof state[key] === 'boolean' ? '1' : String(state[key]);
      assert.deepEqual(read.getAll(`alibi.${key}`), expected === null ? [] : [expected], `${where}: ${key}`);
      assert.deepEqual(read.getAll(`head.${key}`), [], `${where}: alias of ${key}`);
    }
    // Writing the same state again changes nothing.
    assert.equal(write(out, state), out, where);
  }
  t.diagnostic(`${tried} random queries written`);
});
