// Canvas plumbing shared by every chart: a crisp canvas at any devicePixelRatio, redrawn on
// resize and on theme change, theme colours from CSS custom properties, scales, axes and legends.

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** The chart palette, read from CSS custom properties on `element` (see web/css/charts.css). */
export function themeColors(element) {
  const css = getComputedStyle(element);
  const get = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  return {
    fg: get('--chart-fg', '#111827'),
    muted: get('--chart-muted', '#6b7280'),
    grid: get('--chart-grid', '#e5e7eb'),
    bg: get('--chart-bg', '#ffffff'),
    red: get('--chart-red', '#dc2626'),
    blue: get('--chart-blue', '#2563eb'),
    grey: get('--chart-grey', '#9ca3af'),
    black: get('--chart-black', '#111827'),
    cycle: [1, 2, 3, 4, 5, 6].map((i) => get(`--chart-c${i}`, ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b'][i - 1])),
  };
}

/**
 * A canvas inside `host` sized to its box, drawn by `draw(ctx, width, height, colors)` in CSS
 * pixels; `aspect` is height / width (or a function of the width). Redraws on resize (ResizeObserver), on data-theme changes and on prefers-color-scheme.
 * Returns { canvas, redraw(), destroy() }.
 */
export function createPlotCanvas(host, { label, aspect = 0.6, minHeight = 220, maxHeight = 520, draw }) {
  const canvas = document.createElement('canvas');
  canvas.className = 'chart-canvas';
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  host.append(canvas);
  let frame = 0;
  let width = 0; // CSS pixels, from the ResizeObserver: redraws never force a layout
  let styledHeight = 0;
  let colors = null; // read once per theme change, not per frame
  const render = () => {
    frame = 0;
    if (!width) width = Math.max(200, Math.floor(host.clientWidth || 600));
    const ratioOfWidth = typeof aspect === 'function' ? aspect(width) : aspect;
    const height = Math.round(Math.min(maxHeight, Math.max(minHeight, width * ratioOfWidth)));
    const ratio = window.devicePixelRatio || 1;
    const w = Math.round(width * ratio);
    const h = Math.round(height * ratio);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    if (styledHeight !== height) {
      canvas.style.height = `${height}px`;
      styledHeight = height;
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    colors ??= themeColors(host);
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, width, height);
    ctx.font = `12px ${FONT}`;
    draw(ctx, width, height, colors);
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(render);
  };
  const resize = new ResizeObserver((entries) => {
    const next = Math.max(200, Math.floor(entries[entries.length - 1].contentRect.width));
    if (next !== width) {
      width = next;
      schedule();
    }
  });
  resize.observe(host);
  const restyle = () => {
    colors = null;
    schedule();
  };
  const themeWatch = new MutationObserver(restyle);
  themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const media = matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', restyle);
  render();
  return {
    canvas,
    /** Draws now (synchronously), e.g. after the state changed. */
    redraw: render,
    destroy() {
      resize.disconnect();
      themeWatch.disconnect();
      media.removeEventListener('change', restyle);
      if (frame) cancelAnimationFrame(frame);
      canvas.remove();
    },
  };
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

/** About `count` round tick values covering [lo, hi]. */
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return ticks;
}

/** Powers of ten within [lo, hi] (at most ~8, thinned evenly). */
export function logTicks(lo, hi) {
  const ticks = [];
  for (let e = Math.ceil(Math.log10(lo) - 1e-9); e <= Math.floor(Math.log10(hi) + 1e-9); e++) ticks.push(10 ** e);
  const stride = Math.ceil(ticks.length / 8);
  return ticks.filter((_, i) => i % stride === 0);
}

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** A tick label: "1,000", "0.25", "−0.5", or "10⁻³" for powers of ten on log axes. */
export function tickLabel(v, log = false) {
  if (log) {
    const e = Math.round(Math.log10(v));
    if (e >= 0 && e <= 4) return (10 ** e).toLocaleString('en-US');
    return `10${String(e).replace(/./g, (c) => SUPERSCRIPT[c])}`;
  }
  const text = Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : String(Number(v.toPrecision(6)));
  return text.replace('-', '\u2212');
}

/** Python's "%.2g" (as the lesson's legends use): 0.000115 → "0.00012", 1 → "1", 1e-5 → "1e-05". */
export function formatG2(x) {
  if (x === 0) return '0';
  const exponent = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(2)))));
  if (exponent < -4 || exponent >= 2) {
    const [m, e] = x.toExponential(1).split('e');
    const mant = m.replace(/\.0$/, '');
    const sign = e.startsWith('-') ? '-' : '+';
    return `${mant}e${sign}${e.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  return String(Number(x.toPrecision(2)));
}

/** The canvas's size in CSS pixels (what draw() callbacks call width and height). */
export function cssSize(ctx) {
  const ratio = window.devicePixelRatio || 1;
  return { width: ctx.canvas.width / ratio, height: ctx.canvas.height / ratio };
}

/** Splits `text` at spaces (not no-break spaces) into lines no wider than maxWidth at the current font (a word wider than that gets a line of its own). */
export function wrapLines(ctx, text, maxWidth) {
  const lines = [];
  let line = '';
  for (const word of String(text).split(/[ \t\n]+/).filter(Boolean)) { // a no-break space (U+00A0) holds words together
    const next = line ? `${line} ${word}` : word;
    if (!line || ctx.measureText(next).width <= maxWidth) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
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
  return result(size, kept.map((l) => ellipsize(ctx, l, maxWidth)));
}

/** Draws a fitText() layout: line i at (x, y + i·lineHeight) with the current alignment and baseline. */
export function drawFitted(ctx, fitted, x, y) {
  ctx.font = fitted.font;
  fitted.lines.forEach((line, i) => ctx.fillText(line, x, y + i * fitted.lineHeight));
}

/** The centre for a block `size` wide, as near `preferred` as the range [lo, hi] allows. */
function clampCentre(preferred, size, lo, hi) {
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

/** The plot area inside a (width × height) canvas, leaving room for title, labels and ticks. */
export function plotFrame(width, height, { left = 64, right = 16, top = 34, bottom = 46 } = {}) {
  return { x: left, y: top, w: Math.max(20, width - left - right), h: Math.max(20, height - top - bottom) };
}

/**
 * Draws the axes box, ticks, grid, tick labels, axis labels and the title.
 * opts: { x, y (scales), xTicks, yTicks, xLabel, yLabel, title, xTickLabel?, yTickLabel?, grid? }
 */
export function drawAxes(ctx, frame, colors, opts) {
  const { x, y } = opts;
  ctx.save();
  ctx.lineWidth = 1;
  ctx.font = `11px ${FONT}`;
  ctx.fillStyle = colors.muted;
  ctx.strokeStyle = colors.grid;
  const xLabelOf = opts.xTickLabel ?? ((v) => tickLabel(v, x.log));
  const yLabelOf = opts.yTickLabel ?? ((v) => tickLabel(v, y.log));
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  let lastRight = -Infinity;
  for (const v of opts.xTicks ?? []) {
    const px = Math.round(x(v)) + 0.5;
    if (px < frame.x - 1 || px > frame.x + frame.w + 1) continue;
    if (opts.grid !== false) {
      ctx.beginPath();
      ctx.moveTo(px, frame.y);
      ctx.lineTo(px, frame.y + frame.h);
      ctx.stroke();
    }
    const text = xLabelOf(v);
    const half = ctx.measureText(text).width / 2;
    if (px - half > lastRight + 4) {
      ctx.fillText(text, px, frame.y + frame.h + 5);
      lastRight = px + half;
    }
  }
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const v of opts.yTicks ?? []) {
    const py = Math.round(y(v)) + 0.5;
    if (py < frame.y - 1 || py > frame.y + frame.h + 1) continue;
    if (opts.grid !== false) {
      ctx.beginPath();
      ctx.moveTo(frame.x, py);
      ctx.lineTo(frame.x + frame.w, py);
      ctx.stroke();
    }
    ctx.fillText(yLabelOf(v), frame.x - 5, py);
  }
  ctx.strokeStyle = colors.muted;
  ctx.strokeRect(frame.x + 0.5, frame.y + 0.5, frame.w, frame.h);
  ctx.fillStyle = colors.fg;
  // Labels and title are never squeezed (no fillText maxWidth): they shrink a little, wrap onto
  // a second line, and may use the whole canvas width rather than only the frame's.
  const canvas = cssSize(ctx);
  if (opts.xLabel) {
    const fitted = fitText(ctx, opts.xLabel, canvas.width - 8, { sizes: [12, 11, 10], maxLines: 2 });
    const bottom = Math.min(frame.y + frame.h + 40 + (fitted.lines.length - 1) * 4, canvas.height - 2);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    const cx = clampCentre(frame.x + frame.w / 2, fitted.width, 4, canvas.width - 4);
    drawFitted(ctx, fitted, cx, bottom - (fitted.lines.length - 1) * fitted.lineHeight);
  }
  if (opts.yLabel) {
    // Beside the frame, from the canvas top to just under the frame (not into a legend below it).
    const bottom = Math.min(canvas.height, frame.y + frame.h + 20);
    const fitted = fitText(ctx, opts.yLabel, bottom - 8, { sizes: [12, 11, 10], maxLines: 2 });
    const cy = clampCentre(frame.y + frame.h / 2, fitted.width, 4, bottom - 4);
    ctx.save();
    ctx.translate(fitted.lines.length > 1 ? 8 : 13, cy);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    drawFitted(ctx, fitted, 0, 0);
    ctx.restore();
  }
  if (opts.title) {
    const fitted = fitTitle(ctx, opts.title, canvas.width);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const top = Math.max(2, frame.y - 26 - (fitted.lines.length - 1) * fitted.lineHeight);
    drawFitted(ctx, fitted, clampCentre(frame.x + frame.w / 2, fitted.width, 6, canvas.width - 6), top);
  }
  ctx.restore();
}

/** A polyline through (xs[i], ys[i]) clipped to the frame. style: { color, width, dash }. */
export function drawLine(ctx, frame, x, y, xs, ys, { color, width = 2, dash = [] }) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(frame.x, frame.y, frame.w, frame.h);
  ctx.clip();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.lineJoin = 'round';
  ctx.beginPath();
  for (let i = 0; i < xs.length; i++) {
    const px = x(xs[i]);
    const py = y(ys[i]);
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.stroke();
  ctx.restore();
}

/** Below this canvas width (CSS px) legends go under the plot instead of over its corner. */
export const NARROW_LEGEND = 480;

/** Legend items flowed into rows across `width` for a legend under the plot: [{ ...item, x, y }] and the height. */
function flowLegend(ctx, items, width) {
  ctx.font = `11px ${FONT}`;
  const room = width - 16;
  const placed = [];
  let x = 0;
  let y = 0;
  for (const it of items) {
    const label = ellipsize(ctx, it.label, room - 38);
    const w = 38 + ctx.measureText(label).width + 14;
    if (x > 0 && x + w > room) {
      x = 0;
      y += 16;
    }
    placed.push({ ...it, label, x, y });
    x += w;
  }
  return { placed, height: items.length ? y + 16 + 8 : 0 };
}

/**
 * The extra bottom margin a plot needs for its legend: 0 on wide canvases (the legend sits in a
 * corner of the frame), the height of the legend under the x label on narrow ones.
 */
export function legendSpace(ctx, items, width) {
  return width < NARROW_LEGEND ? flowLegend(ctx, items, width).height + 4 : 0;
}

/** The legend's place for drawLegend(): `corner` on wide canvases, 'below' on narrow ones (see legendSpace). */
export function legendCorner(width, corner) {
  return width < NARROW_LEGEND ? 'below' : corner;
}

/**
 * A legend box in the frame's corner (`corner`: 'tr', 'tl', 'br', 'bl'), or 'below': flowed in
 * rows under the x-axis label (reserve the room with legendSpace(); legendCorner() picks).
 * items: [{ label, color, dash?, fill? }]; fill draws a swatch instead of a line.
 */
export function drawLegend(ctx, frame, colors, items, corner = 'tr') {
  if (corner === 'below') {
    drawLegendBelow(ctx, frame, colors, items, cssSize(ctx));
    return;
  }
  ctx.save();
  ctx.font = `11px ${FONT}`;
  const lineHeight = 13;
  // Labels wrap to the frame's width (minus the swatch) instead of running out of the canvas.
  const room = Math.max(40, frame.w - 12 - 38);
  const laid = items.map((it) => ({ ...it, lines: wrapLines(ctx, it.label, room).map((l) => ellipsize(ctx, l, room)) }));
  const widest = Math.max(...laid.flatMap((it) => it.lines.map((l) => ctx.measureText(l).width)));
  const heights = laid.map((it) => Math.max(16, it.lines.length * lineHeight + 3));
  const boxW = widest + 38;
  const boxH = heights.reduce((a, b) => a + b, 0) + 8;
  const bx = corner.endsWith('r') ? frame.x + frame.w - boxW - 6 : frame.x + 6;
  const by = corner.startsWith('t') ? frame.y + 6 : frame.y + frame.h - boxH - 6;
  ctx.globalAlpha = 0.85;
  ctx.fillStyle = colors.bg;
  ctx.fillRect(bx, by, boxW, boxH);
  ctx.globalAlpha = 1;
  let rowTop = by + 4;
  laid.forEach((it, i) => {
    const cy = rowTop + 8;
    if (it.fill) {
      ctx.fillStyle = it.fill;
      ctx.fillRect(bx + 6, cy - 5, 22, 10);
    } else {
      ctx.strokeStyle = it.color;
      ctx.lineWidth = 2;
      ctx.setLineDash(it.dash ?? []);
      ctx.beginPath();
      ctx.moveTo(bx + 6, cy);
      ctx.lineTo(bx + 28, cy);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.fillStyle = colors.fg;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    it.lines.forEach((line, k) => ctx.fillText(line, bx + 33, cy + k * lineHeight));
    rowTop += heights[i];
  });
  ctx.restore();
}

/** The narrow-screen legend: items flowed into rows under the x-axis label (room made by legendSpace()). */
function drawLegendBelow(ctx, frame, colors, items, canvas) {
  ctx.save();
  const { placed, height } = flowLegend(ctx, items, canvas.width);
  const top = Math.min(frame.y + frame.h + 46, canvas.height - height);
  for (const it of placed) {
    const x = 8 + it.x;
    const cy = top + it.y + 8;
    if (it.fill) {
      ctx.fillStyle = it.fill;
      ctx.fillRect(x + 4, cy - 5, 22, 10);
    } else {
      ctx.strokeStyle = it.color;
      ctx.lineWidth = 2;
      ctx.setLineDash(it.dash ?? []);
      ctx.beginPath();
      ctx.moveTo(x + 4, cy);
      ctx.lineTo(x + 26, cy);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.fillStyle = colors.fg;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(it.label, x + 31, cy);
  }
  ctx.restore();
}

/** A vertical colour bar for `table` (see colormap.js) on [lo, hi] at the right of the frame. */
export function drawColorBar(ctx, colors, table, lo, hi, { x, y, w = 12, h, label, ticks }) {
  ctx.save();
  // One gradient fill (64 stops of the table) rather than a fillRect per pixel row: the heatmap
  // redraws this on every frame of a slider drag.
  const gradient = ctx.createLinearGradient(0, y + h, 0, y);
  for (let k = 0; k <= 63; k++) gradient.addColorStop(k / 63, table.css[Math.round((k / 63) * (table.size - 1))]);
  ctx.fillStyle = gradient;
  ctx.fillRect(x, y, w, h);
  ctx.strokeStyle = colors.muted;
  ctx.strokeRect(x + 0.5, y + 0.5, w, h);
  ctx.fillStyle = colors.muted;
  ctx.font = `11px ${FONT}`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const v of ticks ?? niceTicks(lo, hi, 4)) ctx.fillText(tickLabel(v), x + w + 4, y + (1 - (v - lo) / (hi - lo)) * h);
  if (label) {
    ctx.fillStyle = colors.fg;
    ctx.translate(x + w + 40, y + h / 2);
    ctx.rotate(Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText(label, 0, 0);
  }
  ctx.restore();
}

export { FONT };
