// Drawing shared by the charts: the plot frame, axes with ticks and labels, lines, legends and
// colour bars (scales in scales.js, text fitting in text-fit.js, the canvas in canvas.js).

import { FONT, cssSize, drawCached, drawInProgress } from './canvas.js';
import { logAxisPowers, niceTicks, tickLabel } from './scales.js';
import { clampCentre, drawFitted, ellipsize, fitText, fitTitle, wrapLines } from './text-fit.js';

/** The width (CSS px) of the column a rotated y label takes at the canvas's left edge, two lines at most. */
const Y_LABEL_COLUMN = 24;

/** The least height (CSS px) of a plot panel: a canvas whose title, labels and legend would leave less grows instead. */
export const PLOT_FLOOR = 120;

/**
 * The plot area inside a (width × height) canvas, leaving room for title, labels and ticks. A frame
 * as tall as the canvas being drawn asks the canvas for the height that leaves it PLOT_FLOOR
 * (createPlotCanvas then draws it again that tall), rather than being squeezed by a long legend.
 */
export function plotFrame(width, height, { left = 64, right = 16, top = 34, bottom = 46 } = {}) {
  if (height === drawInProgress()?.height) needCanvasHeight(top + bottom + PLOT_FLOOR);
  return { x: left, y: top, w: Math.max(20, width - left - right), h: Math.max(20, height - top - bottom) };
}

/**
 * Asks the canvas being drawn to be at least `height` CSS px tall, past its aspect and maxHeight
 * (createPlotCanvas draws it again at that height). `height` must not depend on the height the
 * draw was given. A chart that stacks panels in one canvas asks for what keeps each readable; a
 * frame as tall as its canvas asks by itself (plotFrame). Outside a draw (e.g. in hit()) it does nothing.
 */
export function needCanvasHeight(height) {
  const drawing = drawInProgress();
  if (drawing) drawing.need = Math.max(drawing.need, height);
}

/**
 * Draws the axes box, ticks, grid, tick labels, axis labels and the title.
 * opts: { x, y (scales), xTicks, yTicks, xLabel, yLabel, title, xTickLabel?, yTickLabel?, grid? }
 * The axis labels and the title go through cached layers (canvas.js's drawCached), keyed by their
 * text and place, so a step that changes none of them only copies them; the ticks, grid and box are drawn
 * straight, since their domain often follows the very slider being moved.
 */
export function drawAxes(ctx, frame, colors, opts) {
  const { x, y } = opts;
  drawInProgress()?.panels.push({ x: frame.x, y: frame.y, w: frame.w, h: frame.h });
  const xPowers = x.log && logAxisPowers(opts.xTicks ?? []);
  const yPowers = y.log && logAxisPowers(opts.yTicks ?? []);
  const xLabelOf = opts.xTickLabel ?? ((v) => tickLabel(v, x.log, xPowers));
  const yLabelOf = opts.yTickLabel ?? ((v) => tickLabel(v, y.log, yPowers));
  // The ticks inside the frame: [pixel, label].
  const xTicks = [];
  for (const v of opts.xTicks ?? []) {
    const px = Math.round(x(v)) + 0.5;
    if (px >= frame.x - 1 && px <= frame.x + frame.w + 1) xTicks.push([px, xLabelOf(v)]);
  }
  const yTicks = [];
  for (const v of opts.yTicks ?? []) {
    const py = Math.round(y(v)) + 0.5;
    if (py >= frame.y - 1 && py <= frame.y + frame.h + 1) yTicks.push([py, yLabelOf(v)]);
  }
  drawTicks(ctx, frame, colors, xTicks, yTicks, opts.grid !== false);
  // Three layers, each copied over only its band of the canvas: the title above the frame, the
  // x label under it and the y label left of it; a title that follows the state (a marked position)
  // leaves the other two as they are.
  const place = `${frame.x},${frame.y},${frame.w},${frame.h}|${colors.fg}`;
  const all = Infinity;
  if (opts.title) {
    // Where a short panel's y label reaches up into the title's band, the title keeps clear of the
    // label's column (a long title centred over the frame ran into it). Worked out only when the
    // layer is drawn, not on every step.
    const titled = (c) => {
      const reaches = opts.yLabel && yLabelPlace(c, frame, opts.yLabel).top < frame.y - 4;
      drawAxisLabels(c, frame, colors, { title: opts.title, inset: reaches ? Y_LABEL_COLUMN : 0 });
    };
    drawCached(ctx, `title|${place}|${opts.title}|${opts.yLabel ?? ''}`, titled, {
      x: 0,
      y: 0,
      w: all,
      h: frame.y + 12, // a wrapped title's last line may reach just below the frame's top
    });
  }
  if (opts.xLabel) {
    const band = { x: 0, y: frame.y + frame.h + 1, w: all, h: all };
    drawCached(
      ctx,
      `xlabel|${place}|${opts.xLabel}`,
      (c) => drawAxisLabels(c, frame, colors, { xLabel: opts.xLabel }),
      band,
    );
  }
  if (opts.yLabel) {
    const band = { x: 0, y: 0, w: frame.x, h: all };
    drawCached(
      ctx,
      `ylabel|${place}|${opts.yLabel}`,
      (c) => drawAxisLabels(c, frame, colors, { yLabel: opts.yLabel }),
      band,
    );
  }
}

/** The grid lines, tick labels ([pixel, text] each) and the frame's box of drawAxes. */
function drawTicks(ctx, frame, colors, xTicks, yTicks, grid) {
  ctx.save();
  ctx.lineWidth = 1;
  ctx.font = `11px ${FONT}`;
  ctx.fillStyle = colors.muted;
  ctx.strokeStyle = colors.grid;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  let lastRight = -Infinity;
  for (const [px, text] of xTicks) {
    if (grid) {
      ctx.beginPath();
      ctx.moveTo(px, frame.y);
      ctx.lineTo(px, frame.y + frame.h);
      ctx.stroke();
    }
    const half = ctx.measureText(text).width / 2;
    if (px - half > lastRight + 4) {
      ctx.fillText(text, px, frame.y + frame.h + 5);
      lastRight = px + half;
    }
  }
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const [py, text] of yTicks) {
    if (grid) {
      ctx.beginPath();
      ctx.moveTo(frame.x, py);
      ctx.lineTo(frame.x + frame.w, py);
      ctx.stroke();
    }
    ctx.fillText(text, frame.x - 5, py);
  }
  ctx.strokeStyle = colors.muted;
  ctx.strokeRect(frame.x + 0.5, frame.y + 0.5, frame.w, frame.h);
  ctx.restore();
}

/**
 * Where a y label goes: beside the frame, from the canvas top to just under the frame (not into a legend
 * below it), fitted to that length and centred on the frame as far as it can be. { fitted, cy, top }, top
 * being where its first character lies. Leaves ctx.font at the size fitText chose.
 */
function yLabelPlace(ctx, frame, label) {
  const bottom = Math.min(cssSize(ctx).height, frame.y + frame.h + 20);
  const fitted = fitText(ctx, label, bottom - 8, { sizes: [12, 11, 10], maxLines: 2 });
  const cy = clampCentre(frame.y + frame.h / 2, fitted.width, 4, bottom - 4);
  return { fitted, cy, top: cy - fitted.width / 2 };
}

/** The axis labels and the title of drawAxes. */
function drawAxisLabels(ctx, frame, colors, opts) {
  ctx.save();
  ctx.lineWidth = 1;
  ctx.font = `11px ${FONT}`;
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
    const { fitted, cy } = yLabelPlace(ctx, frame, opts.yLabel);
    ctx.save();
    ctx.translate(fitted.lines.length > 1 ? 8 : 13, cy);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    drawFitted(ctx, fitted, 0, 0);
    ctx.restore();
  }
  if (opts.title) {
    const inset = opts.inset ?? 0;
    const fitted = fitTitle(ctx, opts.title, canvas.width - inset);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const top = Math.max(2, frame.y - 26 - (fitted.lines.length - 1) * fitted.lineHeight);
    drawFitted(ctx, fitted, clampCentre(frame.x + frame.w / 2, fitted.width, 6 + inset, canvas.width - 6), top);
  }
  ctx.restore();
}

/**
 * A muted note centred in `box` ({ x, y, w, h }): the empty and error states of a plot. Wrapped
 * onto as many lines as `box.w - margin` needs (lineHeight apart, centred as a block); only a single
 * word wider than that is squeezed to fit.
 */
export function drawCentredNote(ctx, text, box, colors, { font = `13px ${FONT}`, margin = 16, lineHeight = 16 } = {}) {
  ctx.save();
  ctx.fillStyle = colors.muted;
  ctx.font = font;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const lines = wrapLines(ctx, text, box.w - margin);
  lines.forEach((line, i) =>
    ctx.fillText(
      line,
      box.x + box.w / 2,
      box.y + box.h / 2 + (i - (lines.length - 1) / 2) * lineHeight,
      box.w - margin,
    ),
  );
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

/** A vertical line at canvas x from the frame's top to its bottom. style: { color, width, dash }. */
export function drawFrameColumn(ctx, frame, px, { color, width, dash = [] }) {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(px, frame.y);
  ctx.lineTo(px, frame.y + frame.h);
  ctx.stroke();
  ctx.restore();
}

/** Below this canvas width (CSS px) legends go under the plot instead of over its corner. */
export const NARROW_LEGEND = 480;

/**
 * A canvas's aspect (height ÷ width) for a plot with a legend: `narrow` below NARROW_LEGEND, where the
 * legend goes under the plot and takes height of its own, `wide` from there up.
 */
export const legendAspect = (narrow, wide) => (width) => (width < NARROW_LEGEND ? narrow : wide);

const LEGEND_FONT = `11px ${FONT}`;
const LEGEND_ROW = 16; // a legend row of one-line labels
const LEGEND_LINE = 13; // between the lines of a wrapped label
const LEGEND_KEY = 38; // the key and the gaps around it, before a label's text

/**
 * A legend label's lines within maxWidth at the current font: wrapped (at spaces, and between CJK
 * characters without orphaning one) rather than cut; only a single word wider than maxWidth is
 * shortened with "…". Returns { lines, cut }.
 */
function legendLines(ctx, label, maxWidth) {
  const wrapped = wrapLines(ctx, label, maxWidth);
  const lines = wrapped.map((l) => ellipsize(ctx, l, maxWidth));
  return { lines, cut: lines.some((l, i) => l !== wrapped[i]) };
}

/** The height of a legend row whose tallest label has `lines` lines. */
const rowHeight = (lines) => LEGEND_ROW + (lines - 1) * LEGEND_LINE;

/**
 * Legend items flowed into rows across `width` for a legend under the plot: [{ ...item, lines, cut,
 * x, y }] and the height. A label too long for the row wraps onto more lines (its row grows), so
 * it is never cut.
 */
function flowLegend(ctx, items, width) {
  // Leaves the legend's font set, as callers (and the labels drawn after a legendSpace()) expect.
  ctx.font = LEGEND_FONT;
  // Laid out once per set of labels and width: legendSpace() and drawLegend() both ask, on every draw.
  const key = `${width}|${items.map((it) => it.label).join('\u0001')}`;
  let flowed = legendLayouts.get(key);
  if (!flowed) {
    flowed = flowLabels(ctx, items, width);
    if (legendLayouts.size >= 64) legendLayouts.delete(legendLayouts.keys().next().value);
    legendLayouts.set(key, flowed);
  }
  return { placed: items.map((it, i) => ({ ...it, ...flowed.placed[i] })), height: flowed.height };
}

// Legend layouts by width and labels (flowLegend), the oldest dropped past 64.
const legendLayouts = new Map();

/** flowLegend's layout: for each item { lines, cut, x, y }, and the height. */
function flowLabels(ctx, items, width) {
  const room = width - 16;
  const textRoom = room - LEGEND_KEY;
  const placed = [];
  let x = 0;
  let y = 0;
  let tallest = 1; // lines of the current row's tallest label
  for (const it of items) {
    const { lines, cut } = legendLines(ctx, it.label, textRoom);
    const w = LEGEND_KEY + Math.max(...lines.map((l) => ctx.measureText(l).width)) + 14;
    if (x > 0 && x + w > room) {
      x = 0;
      y += rowHeight(tallest);
      tallest = 1;
    }
    tallest = Math.max(tallest, lines.length);
    placed.push({ lines, cut, x, y });
    x += w;
  }
  return { placed, height: items.length ? y + rowHeight(tallest) + 8 : 0 };
}

/** The extra bottom margin a plot needs for its legend: the height of the legend flowed under the x label. */
export function legendSpace(ctx, items, width) {
  return flowLegend(ctx, items, width).height + 4;
}

/**
 * legendSpace() for the legend `items` shown now, or for the tallest of the legends the chart can
 * show (`possible`: lists of labels), whichever is more: a chart whose legend grows and shrinks with
 * the reader's choices keeps its canvas's height. A canvas whose height changes gets a new bitmap
 * (a cost of its own on a phone, BENCHMARKS.md, Measurements) and moves the text below it.
 */
export function legendSpaceFor(ctx, items, width, ...possible) {
  const labelled = (labels) => labels.map((label) => ({ label }));
  const spaces = possible.map((labels) => legendSpace(ctx, labelled(labels), width));
  return Math.max(legendSpace(ctx, items, width), ...spaces);
}

/**
 * The legend's place for drawLegend(): 'below' the plot at every width, so a legend never covers
 * the data (a corner box sat on RoPE's sawtooth lines at desktop widths). `corner` is kept for
 * callers that name where a box would go.
 */
export function legendCorner(width, corner) {
  return 'below';
}

/**
 * A legend box in the frame's corner (`corner`: 'tr', 'tl', 'br', 'bl'), or 'below': flowed in
 * rows under the x-axis label (reserve the room with legendSpace(); legendCorner() picks).
 * items: [{ label, color, dash?, fill? }]; fill draws a swatch instead of a line. Drawn through a
 * cached layer (canvas.js's drawCached) keyed by the items, the frame and the corner.
 */
export function drawLegend(ctx, frame, colors, items, corner = 'tr') {
  const keys = items.map((it) => `${it.label}\u0002${it.color}\u0002${it.dash ?? ''}\u0002${it.fill ?? ''}`);
  const key = `legend|${corner}|${frame.x},${frame.y},${frame.w},${frame.h}|${colors.fg}|${colors.bg}|${keys.join('\u0003')}`;
  drawCached(ctx, key, (c) => drawLegendNow(c, frame, colors, items, corner), legendBounds(ctx, frame, items, corner));
}

/** Where drawLegend() draws: the frame for a box in its corner, the band under the plot for 'below'. */
function legendBounds(ctx, frame, items, corner) {
  if (corner !== 'below') return { x: frame.x, y: frame.y, w: frame.w, h: frame.h };
  const canvas = cssSize(ctx);
  ctx.save();
  const { height } = flowLegend(ctx, items, canvas.width);
  ctx.restore();
  return { x: 0, y: Math.min(frame.y + frame.h + 46, canvas.height - height), w: Infinity, h: Infinity };
}

function drawLegendNow(ctx, frame, colors, items, corner) {
  if (corner === 'below') {
    drawLegendBelow(ctx, frame, colors, items, cssSize(ctx));
    return;
  }
  ctx.save();
  ctx.font = LEGEND_FONT;
  // Labels wrap to the frame's width (minus the swatch) instead of running out of the canvas.
  const room = Math.max(40, frame.w - 12 - LEGEND_KEY);
  const laid = items.map((it) => ({ ...it, ...legendLines(ctx, it.label, room) }));
  const widest = Math.max(...laid.flatMap((it) => it.lines.map((l) => ctx.measureText(l).width)));
  const heights = laid.map((it) => rowHeight(it.lines.length));
  const boxW = widest + LEGEND_KEY;
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
    const labelX = drawLegendKey(ctx, colors, it, bx + 6, cy);
    it.lines.forEach((line, k) => ctx.fillText(line, labelX, cy + k * LEGEND_LINE));
    rowTop += heights[i];
  });
  recordLegend({ x: bx, y: by, w: boxW, h: boxH }, laid);
  ctx.restore();
}

/**
 * One legend item's key, 22 px wide from `left` and centred on `cy`: a filled box for an area, a
 * short stroke (dashed like its line) for a line. Leaves the label's text style set and returns the
 * label's x.
 */
function drawLegendKey(ctx, colors, item, left, cy) {
  if (item.fill) {
    ctx.fillStyle = item.fill;
    ctx.fillRect(left, cy - 5, 22, 10);
  } else {
    ctx.strokeStyle = item.color;
    ctx.lineWidth = 2;
    ctx.setLineDash(item.dash ?? []);
    ctx.beginPath();
    ctx.moveTo(left, cy);
    ctx.lineTo(left + 22, cy);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  ctx.fillStyle = colors.fg;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  return left + 27;
}

/** The narrow-screen legend: items flowed into rows under the x-axis label (room made by legendSpace()). */
function drawLegendBelow(ctx, frame, colors, items, canvas) {
  ctx.save();
  const { placed, height } = flowLegend(ctx, items, canvas.width);
  const top = Math.min(frame.y + frame.h + 46, canvas.height - height);
  for (const it of placed) {
    const x = 8 + it.x;
    const cy = top + it.y + 8;
    const labelX = drawLegendKey(ctx, colors, it, x + 4, cy);
    it.lines.forEach((line, k) => ctx.fillText(line, labelX, cy + k * LEGEND_LINE));
  }
  recordLegend({ x: 8, y: top, w: canvas.width - 16, h: height }, placed);
  ctx.restore();
}

/** Adds a drawn legend to the draw's record (canvas.js's drawInProgress): its box and each label's lines. */
function recordLegend(box, items) {
  drawInProgress()?.legends.push({ ...box, items: items.map(({ label, lines, cut }) => ({ label, lines, cut })) });
}

/**
 * A vertical colour bar for `table` (see colormap.js) on [lo, hi] at the right of the frame, drawn
 * through a cached layer (canvas.js's drawCached).
 */
export function drawColorBar(ctx, colors, table, lo, hi, { x, y, w = 12, h, label, ticks }) {
  const key = `bar|${tableId(table)}|${lo}|${hi}|${x},${y},${w},${h}|${label ?? ''}|${ticks ?? ''}|${colors.fg}|${colors.muted}`;
  // Its tick labels and rotated label lie right of the bar.
  const band = { x: x - 1, y: 0, w: Infinity, h: Infinity };
  drawCached(ctx, key, (c) => drawColorBarNow(c, colors, table, lo, hi, { x, y, w, h, label, ticks }), band);
}

// A number for each colour table drawColorBar has drawn, for its layer's key.
const tableIds = new WeakMap();
let tablesSeen = 0;
const tableId = (table) => {
  if (!tableIds.has(table)) tableIds.set(table, ++tablesSeen);
  return tableIds.get(table);
};

function drawColorBarNow(ctx, colors, table, lo, hi, { x, y, w, h, label, ticks }) {
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
  for (const v of ticks ?? niceTicks(lo, hi, 4))
    ctx.fillText(tickLabel(v), x + w + 4, y + (1 - (v - lo) / (hi - lo)) * h);
  if (label) {
    ctx.fillStyle = colors.fg;
    ctx.translate(x + w + 40, y + h / 2);
    ctx.rotate(Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText(label, 0, 0);
  }
  ctx.restore();
}
