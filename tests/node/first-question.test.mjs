// The first question's verdict (web/js/page/first-question.js): each sentence it can say, against the
// engine's similarities for the sentences it is given; no claim that its own numbers contradict.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstQuestionVerdict } from '../../web/js/page/first-question.js';
import { loadEngine } from './engine-loader.mjs';

const engine = await loadEngine();
const verdict = (a, b) => firstQuestionVerdict(a, b, engine.orderSimilarities(a, b));

test('a reordering: the same vector without positions, and RoPE tells them apart', () => {
  const sims = engine.orderSimilarities('dog bites man', 'man bites dog');
  // Exactly 1 to the printed three decimals: pooling a permuted set gives the same vector.
  assert.ok(Math.abs(sims.none - 1) < 5e-4);
  assert.ok(Math.abs(sims.rope - 1) >= 5e-4);
  assert.equal(
    verdict('dog bites man', 'man bites dog'),
    `Same words, new order. Without positions: similarity 1.000, the same vector, so attention cannot tell them apart. With RoPE: ${sims.rope.toFixed(3)}, no longer the same.`,
  );
});

test('the same sentence, other words, and empty fields each get a sentence of their own', () => {
  assert.match(
    verdict('dog bites man', 'dog bites man'),
    /^The same sentence twice: similarity 1\.000 without positions and 1\.000 with RoPE/,
  );
  assert.match(
    verdict('dog  bites man ', ' dog bites man'),
    /^The same sentence twice/,
    'spaces do not make a new sentence',
  );
  const other = engine.orderSimilarities('dog bites man', 'cat bites man');
  assert.ok(Math.abs(other.none - 1) >= 5e-4, 'other words differ without positions');
  assert.equal(
    verdict('dog bites man', 'cat bites man'),
    `B has other words than A, so they differ even without positions (similarity ${other.none.toFixed(3)}). Use the same words in another order to see attention’s blind spot.`,
  );
  assert.equal(firstQuestionVerdict('', 'man', { none: NaN, rope: NaN }), 'Type a sentence in both fields.');
  assert.equal(firstQuestionVerdict('dog', '   ', { none: NaN, rope: NaN }), 'Type a sentence in both fields.');
});

test('a claim follows its numbers, not the words: no "same vector" when the similarity is not 1', () => {
  // Numbers the engine does not give for a reordering, to reach the branches a future engine could.
  assert.equal(
    firstQuestionVerdict('a b', 'b a', { none: 0.9, rope: 0.8 }),
    'Without positions the similarity is 0.900; with RoPE it is 0.800.',
  );
  assert.match(firstQuestionVerdict('a b', 'b a', { none: 1, rope: 0.99999 }), /With RoPE it is 1\.000 too/);
  assert.match(firstQuestionVerdict('a a', 'a', { none: 1, rope: 0.9 }), /^Different words, yet similarity 1\.000/);
});
