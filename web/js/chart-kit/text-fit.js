// Fitting text into a canvas: wrapping at spaces and between CJK characters, shortening with an ellipsis, and shrinking or
// wrapping titles and labels rather than squeezing them.

import { FONT } from './canvas.js';

// Where a line may break in Chinese or Japanese text: between any two characters, except before
// closing punctuation (，。）…) or after opening punctuation (（《…), which stay with their neighbour.
const CJK = '\u2e80-\u2fff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff';
const CLOSING = '\u3001\u3002\u300b\u300d\u300f\u3011\uff01\uff09\uff0c\uff1a\uff1b\uff1f';
const OPENING = '\u300a\u300c\u300e\u3010\uff08';
const PIECE = new RegExp(`[${OPENING}]*(?:[${CJK}]|[^${CJK}${OPENING}${CLOSING}]+)[${CLOSING}]*|.`, 'gu');

/**
 * Splits `text` into lines no wider than maxWidth at the current font: at spaces (not no-break
 * spaces, which hold words together) and between CJK characters. A piece wider than maxWidth
 * gets a line of its own. A CJK character is never left alone on the last line (see keepCompany).
 */
export function wrapLines(ctx, text, maxWidth) {
  const lines = [];
  let line = '';
  for (const [i, word] of String(text)
    .split(/[ \t\n]+/)
    .filter(Boolean)
    .entries()) {
    for (const [j, piece] of word.match(PIECE).entries()) {
      const gap = i > 0 && j === 0 ? ' ' : '';
      const next = line ? `${line}${gap}${piece}` : piece;
      if (!line || ctx.measureText(next).width <= maxWidth) line = next;
      else {
        lines.push(line);
        line = piece;
      }
    }
  }
  if (line) lines.push(line);
  return keepCompany(ctx, lines, maxWidth);
}

const CJK_START = new RegExp(`^[${OPENING}]*[${CJK}]`, 'u');

/**
 * A last line of one CJK character reads as a fragment of a word ("无位置编" over "码"): it takes
 * the previous line's last character with it ("无位置" over "编码"), as a typesetter would, when
 * that character is CJK too and the previous line keeps at least two pieces.
 */
function keepCompany(ctx, lines, maxWidth) {
  if (lines.length < 2) return lines;
  const last = lines[lines.length - 1];
  const pieces = lines[lines.length - 2].match(PIECE);
  if (last.match(PIECE).length !== 1 || !CJK_START.test(last) || pieces.length < 3) return lines;
  const moved = pieces[pieces.length - 1];
  if (!CJK_START.test(moved) || ctx.measureText(`${moved}${last}`).width > maxWidth) return lines;
  return [...lines.slice(0, -2), pieces.slice(0, -1).join(''), `${moved}${last}`];
}

/** `text` shortened with "…" until it fits maxWidth at the current font. */
export function ellipsize(ctx, text, maxWidth) {
  if (ctx.measureText(text).width <= maxWidth) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(`${text.slice(0, mid).trimEnd()}…`).width <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}

/**
 * Lays `text` out within maxWidth without squashing it: one line at the first of `sizes` (px)
 * that fits; else wrapped onto at most maxLines lines at the first size that allows it; else
 * wrapped at the smallest size with the overflow cut to "…". Sets ctx.font to the result's font.
 * Returns { font, size, lines, lineHeight, height, width } (width: the widest line).
 */
export function fitText(ctx, text, maxWidth, { sizes = [12, 11, 10], weight = '', maxLines = 2 } = {}) {
  const fontOf = (size) => `${weight ? `${weight} ` : ''}${size}px ${FONT}`;
  const result = (size, lines) => {
    ctx.font = fontOf(size);
    const lineHeight = Math.round(size * 1.2);
    const width = Math.max(0, ...lines.map((l) => ctx.measureText(l).width));
    return { font: fontOf(size), size, lines, lineHeight, height: lines.length * lineHeight, width };
  };
  const fits = (lines) => lines.length <= maxLines && lines.every((l) => ctx.measureText(l).width <= maxWidth);
  for (const size of sizes) {
    ctx.font = fontOf(size);
    if (ctx.measureText(text).width <= maxWidth) return result(size, [text]);
  }
  for (const size of sizes) {
    ctx.font = fontOf(size);
    const lines = wrapLines(ctx, text, maxWidth);
    if (fits(lines)) return result(size, lines);
  }
  const size = sizes[sizes.length - 1];
  ctx.font = fontOf(size);
  const lines = wrapLines(ctx, text, maxWidth);
  const kept = lines.slice(0, maxLines);
  kept[kept.length - 1] = lines.slice(kept.length - 1).join(' ');
  return result(
    size,
    kept.map((l) => ellipsize(ctx, l, maxWidth)),
  );
}

/** Draws a fitText() layout: line i at (x, y + i·lineHeight) with the current alignment and baseline. */
export function drawFitted(ctx, fitted, x, y) {
  ctx.font = fitted.font;
  fitted.lines.forEach((line, i) => ctx.fillText(line, x, y + i * fitted.lineHeight));
}

/** The centre for a block `size` wide, as near `preferred` as the range [lo, hi] allows. */
export function clampCentre(preferred, size, lo, hi) {
  return Math.min(Math.max(preferred, lo + size / 2), Math.max(lo + size / 2, hi - size / 2));
}

/** The title's layout in a canvas `width` CSS pixels wide: 13 px bold when it fits, else smaller or on two lines. */
export function fitTitle(ctx, title, width) {
  return fitText(ctx, title, width - 12, { sizes: [13, 12, 11], weight: '600', maxLines: 2 });
}

/** The top margin a plot needs for its title: 34 px, more when the title wraps. */
export function titleSpace(ctx, title, width) {
  const fitted = fitTitle(ctx, title, width);
  return 34 + (fitted.lines.length - 1) * fitted.lineHeight;
}
