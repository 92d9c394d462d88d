// Scales and axis ticks: linear and logarithmic maps, round tick values and their labels.
// Every tick generator is bounded: whatever the range (huge, infinite, NaN), at most a few dozen ticks.

import { grouped, powerOfTen } from '../locale/format.js';

/** `count` log-spaced whole numbers from 1 to max, each once, ascending (the samples of a log axis). */
export function logSpacedWholes(max, count) {
  const out = new Set();
  for (let i = 0; i < count; i++) out.add(Math.round(Math.exp((Math.log(max) * i) / (count - 1))));
  return Float64Array.from([...out].sort((a, b) => a - b));
}

/** Linear map from [d0, d1] to [r0, r1], with .invert. */
export function linearScale(d0, d1, r0, r1) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const f = (v) => r0 + (v - d0) * k;
  f.invert = (p) => (k === 0 ? d0 : d0 + (p - r0) / k);
  f.domain = [d0, d1];
  f.log = false;
  return f;
}

/** Base-10 logarithmic map from [d0, d1] (both > 0) to [r0, r1]. */
export function logScale(d0, d1, r0, r1) {
  const l0 = Math.log10(d0);
  const l1 = Math.log10(d1);
  const k = l1 === l0 ? 0 : (r1 - r0) / (l1 - l0);
  const f = (v) => r0 + (Math.log10(Math.max(v, 1e-300)) - l0) * k;
  f.invert = (p) => 10 ** (l0 + (p - r0) / k);
  f.domain = [d0, d1];
  f.log = true;
  return f;
}

/** The most ticks any generator returns, whatever its input: drawing them stays cheap. */
export const MAX_TICKS = 40;

/**
 * About `count` round tick values covering [lo, hi] (at most MAX_TICKS). A range that is not
 * finite, or too narrow to step through at its magnitude, gives its finite ends only.
 */
export function niceTicks(lo, hi, count = 5) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [lo, hi].filter(Number.isFinite).slice(0, 1);
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, Math.min(count, MAX_TICKS));
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const first = Math.ceil(lo / step - 1e-9);
  const last = Math.floor(hi / step + 1e-9);
  // Counted by a small index, never by adding to v: where the step is below the spacing of doubles
  // (around 1e308, say) v += step never advances.
  if (!Number.isFinite(step) || step <= 0 || !(last - first < MAX_TICKS)) return [lo, hi];
  const ticks = [];
  for (let k = 0; k <= last - first; k++) {
    const v = (first + k) * step;
    const tick = Math.abs(v) < step * 1e-9 ? 0 : v;
    if (tick !== ticks[ticks.length - 1]) ticks.push(tick);
  }
  return ticks;
}

/**
 * Powers of ten within [lo, hi] (at most `most`, 8 unless a short axis asks for fewer, thinned evenly); none
 * when the range is not positive and finite.
 */
export function logTicks(lo, hi, most = 8) {
  const from = Math.ceil(Math.log10(lo) - 1e-9);
  const to = Math.floor(Math.log10(Math.min(hi, Number.MAX_VALUE)) + 1e-9);
  if (!Number.isFinite(from) || !Number.isFinite(to) || to < from) return [];
  const stride = Math.ceil((to - from + 1) / Math.max(1, most));
  const ticks = [];
  for (let e = from; e <= to; e += stride) ticks.push(10 ** e);
  return ticks;
}

/**
 * A tick label: "1,000", "0.25", "−0.5"; on log axes "1" to "10,000", or "10⁻³" — all of an axis's
 * ticks as powers (`powers`, from logAxisPowers) once any of them needs one, so one axis never mixes
 * "10,000" with "10⁵".
 */
export function tickLabel(v, log = false, powers = false) {
  if (log) {
    const e = Math.round(Math.log10(v));
    if (!powers && e >= 0 && e <= 4) return grouped(10 ** e);
    return powerOfTen(e);
  }
  const text = Math.abs(v) >= 1000 ? grouped(v) : String(Number(v.toPrecision(6)));
  return text.replace('-', '\u2212');
}

/** Whether a log axis with these ticks labels them all as powers of ten (one is below 1 or over 10⁴). */
export function logAxisPowers(ticks) {
  return ticks.some((v) => {
    const e = Math.round(Math.log10(v));
    return e < 0 || e > 4;
  });
}

/**
 * The powers of two within [lo, hi] (lo > 0), ascending: the values a drag on a log axis of lengths
 * settles on (at most ~60 of them for any finite range).
 */
export function powersOfTwo(lo, hi) {
  const out = [];
  if (!(lo > 0) || !(hi >= lo) || !Number.isFinite(hi)) return out;
  for (let e = Math.ceil(Math.log2(lo) - 1e-9); 2 ** e <= hi * (1 + 1e-12); e++) out.push(2 ** e);
  return out;
}

/** 1, 2, 5, 10, 20, 50 … within [lo, hi] (and 0 when lo ≤ 0), ascending: round stops on a log-like axis. */
export function oneTwoFive(lo, hi) {
  const out = lo <= 0 ? [0] : [];
  if (!(hi >= 1) || !Number.isFinite(hi)) return out;
  for (let e = 0; 10 ** e <= hi; e++)
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= lo && v <= hi) out.push(v);
    }
  return out;
}
