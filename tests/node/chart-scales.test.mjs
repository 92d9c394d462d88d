// The charts' scales, tick labels, colour maps and text wrapping (web/js/chart-kit/): each log axis
// speaks one notation, a number on a heatmap cell stays readable, and a Chinese title wraps.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { blues, rdbu, textColorOn } from '../../web/js/chart-kit/colormap.js';
import { logAxisPowers, logTicks, tickLabel } from '../../web/js/chart-kit/scales.js';
import { wrapLines } from '../../web/js/chart-kit/text-fit.js';

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

test('numbers written on heatmap cells take the text colour with the higher contrast, at both ends of RdBu', () => {
  // ALiBi's bias matrix runs into RdBu's darkest red: near-black text there was unreadable.
  const contrast = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const WHITE = 1;
  const DARK = 0.0103; // #111827
  for (const table of [rdbu, blues]) {
    for (let i = 0; i < table.size; i += 7) {
      const color = textColorOn(table, i);
      const chosen = contrast(table.luminance[i], color === '#ffffff' ? WHITE : DARK);
      const other = contrast(table.luminance[i], color === '#ffffff' ? DARK : WHITE);
      assert.ok(chosen >= other, `entry ${i}: ${color} gives ${chosen.toFixed(2)}, the other ${other.toFixed(2)}`);
      // The better of white and #111827 gives any colour at least √(1.05 / 0.0603) ≈ 4.17 (where
      // the two tie, at luminance 0.2); 4.1 leaves room for the table's steps. WCAG's 4.5 cannot be
      // had there with either colour: 62 of 1,280 entries fall between 4.15 and 4.5.
      assert.ok(chosen >= 4.1, `entry ${i} (${table.css[i]}): best text contrast ${chosen.toFixed(2)} < 4.1`);
    }
  }
  assert.equal(textColorOn(rdbu, 0), '#ffffff', "RdBu's dark red end takes white");
  assert.equal(textColorOn(rdbu, rdbu.size - 1), '#ffffff', 'and so does its dark blue end');
  assert.equal(textColorOn(rdbu, rdbu.size >> 1), '#111827', 'its pale middle takes near-black');
});

test('canvas text wraps at spaces in English and between characters in Chinese, never before closing punctuation', () => {
  // A stand-in for measureText: 6 px per Latin character, 12 px per CJK one (full width).
  const ctx = { measureText: (s) => ({ width: [...s].reduce((w, c) => w + (/[\u2e80-\uffff]/.test(c) ? 12 : 6), 0) }) };
  assert.deepEqual(wrapLines(ctx, 'Both prefer nearby tokens: RoPE gently, ALiBi by design', 120), [
    'Both prefer nearby',
    'tokens: RoPE gently,',
    'ALiBi by design',
  ]);
  // A no-break space holds its words together.
  assert.deepEqual(wrapLines(ctx, 'distance\u00a0between query', 50), ['distance\u00a0between', 'query']);
  const lines = wrapLines(ctx, '两者都偏好近处的词元：RoPE 温和地，ALiBi 按设计（对数）。', 100);
  assert.deepEqual(lines, ['两者都偏好近处的', '词元：RoPE 温和', '地，ALiBi 按设计', '（对数）。']);
  for (const line of lines) {
    assert.ok(ctx.measureText(line).width <= 100, line);
    assert.doesNotMatch(line, /^[，。：；）]/, `${line} begins with closing punctuation`);
  }
  // A break between two characters takes nothing away and adds nothing.
  assert.equal(lines.join(''), '两者都偏好近处的词元：RoPE 温和地，ALiBi 按设计（对数）。');
});

test('a Chinese label never leaves one character alone on its last line', () => {
  const ctx = { measureText: (s) => ({ width: [...s].reduce((w, c) => w + (/[\u2e80-\uffff]/.test(c) ? 12 : 6), 0) }) };
  // Four characters fit in 50 px: "无位置编" over "码" would orphan the last one.
  assert.deepEqual(wrapLines(ctx, '无位置编码', 50), ['无位置', '编码']);
  // Its closing punctuation travels with it.
  assert.deepEqual(wrapLines(ctx, '无位置编码。', 50), ['无位置', '编码。']);
  // A line of two pieces keeps them (taking one would orphan it instead), and Latin is left alone.
  assert.deepEqual(wrapLines(ctx, '位置编码', 30), ['位置', '编码']);
  assert.deepEqual(wrapLines(ctx, '编码', 12), ['编', '码']);
  assert.deepEqual(wrapLines(ctx, 'causal mask only', 70), ['causal mask', 'only']);
});

test('a short log axis asks for fewer ticks and gets them, evenly thinned, never more', () => {
  // The model card's panel for one kind of layer is a few lines tall: ten decades at 8 ticks crowded
  // their labels into one another.
  assert.deepEqual(logTicks(1, 1e7), [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7]);
  assert.deepEqual(logTicks(1, 1e7, 3), [1, 1e3, 1e6]);
  assert.deepEqual(logTicks(1, 1e7, 2), [1, 1e4]);
  for (let most = 1; most <= 9; most++) assert.ok(logTicks(0.5, 3e9, most).length <= Math.max(1, most), `most ${most}`);
});
