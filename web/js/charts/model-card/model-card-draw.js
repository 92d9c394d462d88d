// The drawing of the "Read your model's card" widget, from a readModelConfig report alone: per RoPE
// pair each wavelength before and after the config's scaling against the trained and prompt
// lengths, or for the other schemes the trained positions against the prompt's. Its parts are
// 'trained' (the trained length), 'prompt' (the prompt's length) and 'beyond' (what goes past
// training: the red pairs or positions); the layout it leaves behind lets partAt() find them.

import { grouped, trimmed } from '../../locale/format.js';
import { FONT } from '../../chart-kit/canvas.js';
import { wrapLines } from '../../chart-kit/text-fit.js';
import {
  drawAxes,
  drawCentredNote,
  drawLegend,
  drawLine,
  legendCorner,
  legendSpace,
  plotFrame,
} from '../../chart-kit/plot.js';
import { linearScale, logScale, logTicks, niceTicks } from '../../chart-kit/scales.js';
import { layerKindTerm, noLengthMessage, showsLayerKinds, tokens, turnsPairs } from './model-card-text.js';
import { t } from '../../locale/i18n.js';

const LINE_HIT = 6; // px: how close the pointer must be to a length's line
const Y_TICK_SPACING = 18; // px: the least room a y-axis label takes, a line of the axis font and a gap

/** A length or count as the lesson prints it: "131,072". */
const count = (n) => grouped(n);

/**
 * The lines a kind without positions gets under the panels at `width`: two on a phone, one on wider
 * screens; one more for Llama 4's query temperature where the longer line would not fit.
 */
const noneLines = (width, kind) => {
  const longer = kind.queryTemperature !== 1;
  if (width < 480) return longer ? 3 : 2;
  return longer && width < 720 ? 2 : 1;
};
/** The height of that kind's row: 22 px for one line, 18 px a line for more. */
const noneRow = (width, kind) => {
  const lines = noneLines(width, kind);
  return lines === 1 ? 22 : 18 * lines;
};
const noneHeight = (width, kinds) =>
  kinds.length > 0 ? kinds.reduce((sum, kind) => sum + noneRow(width, kind), 0) + 8 : 0;

/**
 * The per-pair panels of a config whose layers differ: one per kind of layer that turns pairs, drawn
 * from that kind's own frequencies (only the pairs that turn) against the distances it spans. The
 * kind that spans the whole prompt comes first and is drawn from the report itself, so the prompt's
 * handle and the parts stay where a single-kind card has them; null when the card has one kind.
 */
export function ropePanels(r) {
  if (!r || r.scheme !== 'rope' || !showsLayerKinds(r)) return null;
  const turning = r.layerKinds.filter(turnsPairs);
  const whole = (k) => k.window === 0 && k.chunk === 0;
  const ordered = [...turning.filter(whole), ...turning.filter((k) => !whole(k))];
  return ordered.map((kind, index) => {
    const pairs = kind.rotaryDim / 2;
    const main = index === 0 && whole(kind);
    const report = main
      ? r
      : {
          wavelengths: kind.wavelengths.slice(0, pairs),
          baseWavelengths: Float64Array.from(kind.baseInvFreq.slice(0, pairs), (theta) => (2 * Math.PI) / theta),
          beyond: kind.beyond.slice(0, pairs),
          trainedLength: r.trainedLength,
          promptLength: kind.longestDistance + 1,
        };
    return { kind, report, main };
  });
}

/** Height / width of the plot for `report` (null: the config did not read) at `width` CSS px. */
export function cardAspect(width, report) {
  const panels = ropePanels(report);
  if (panels) {
    const none = report.layerKinds.filter((k) => !turnsPairs(k));
    // No panel when no kind turns pairs (Kimi Linear's MLA without RoPE beside linear attention).
    return (width < 480 ? 1.0 : 0.42) * panels.length + noneHeight(width, none) / width;
  }
  const message = report && (report.scheme === 'unknown' || (report.scheme !== 'rope' && !(report.trainedLength > 0)));
  if (message) return width < 480 ? 0.4 : 0.14; // one message
  return report && report.scheme !== 'rope' ? (width < 480 ? 0.8 : 0.36) : width < 480 ? 1.15 : 0.5;
}

/** Draws the report (or, with none, `message`); records where the parts are in `layout`. */
export function drawCard(ctx, width, height, colors, { report, message, highlighted, layout }) {
  layout.pairs = null;
  layout.positions = null;
  const panels = ropePanels(report);
  if (!report) drawMessage(ctx, width, height, colors, message);
  else if (panels) drawKinds(ctx, width, height, colors, report, panels, highlighted, layout);
  else if (report.scheme === 'unknown') drawMessage(ctx, width, height, colors, noLengthMessage(report));
  else if (report.scheme === 'rope') drawPairs(ctx, width, height, colors, report, highlighted, layout);
  else drawPositions(ctx, width, height, colors, report, highlighted, layout);
}

/** The part at (px, py) of what drawCard last drew: 'trained', 'prompt', 'beyond' or null. */
export function partAt(report, layout, px, py) {
  if (!report) return null;
  if (layout.pairs) {
    const { frame, x, y, band } = layout.pairs;
    if (px < frame.x || px > frame.x + frame.w || py < frame.y || py > frame.y + frame.h) return null;
    if (Math.abs(py - y(report.trainedLength)) <= LINE_HIT) return 'trained';
    if (Math.abs(py - y(report.promptLength)) <= LINE_HIT) return 'prompt';
    const i = Math.round(x.invert(px));
    return i >= 0 && i < report.beyond.length && report.beyond[i] && Math.abs(x(i) - px) <= band / 2 ? 'beyond' : null;
  }
  if (layout.positions) {
    const { x, rows, rowH } = layout.positions;
    const inRow = (row) => py >= row.top && py <= row.top + rowH;
    if (inRow(rows[0]) && px >= x(0) && px <= x(report.trainedLength)) return 'trained';
    if (inRow(rows[1]) && px >= x(0) && px <= x(report.promptLength)) {
      return px > x(report.trainedLength) ? 'beyond' : 'prompt';
    }
  }
  return null;
}

/** Draws a centred, muted message (the empty and error states, and schemes with nothing to plot). */
const drawMessage = (ctx, width, height, colors, text) =>
  drawCentredNote(ctx, text, { x: 0, y: 0, w: width, h: height }, colors, { margin: 24, lineHeight: 18 });

/** Bottom margin for a plot whose legend sits under the x-axis label (narrow canvases), its labels wrapped as they need. */
const bottomWithLegend = (ctx, items, width) => 46 + legendSpace(ctx, items, width);

/**
 * A config whose layers differ: a panel per kind of layer that turns pairs, stacked, then one line per
 * kind without positions. Only the first panel, when it spans the whole prompt, carries the parts and
 * the prompt's handle (layout.pairs); the others are drawn against the distances their window or chunk allows.
 */
function drawKinds(ctx, width, height, colors, r, panels, highlighted, layout) {
  const none = r.layerKinds.filter((k) => !turnsPairs(k));
  const belowPanels = noneHeight(width, none);
  // The first panel carries the legend under its plot, and the room for it on top of its share.
  const legendRoom = panels.length > 1 ? legendSpace(ctx, pairLegend(colors), width) : 0;
  const panelHeight = (height - belowPanels - legendRoom) / Math.max(1, panels.length);
  const narrow = width < 480;
  panels.forEach(({ kind, report, main }, k) => {
    const term = layerKindTerm(kind);
    ctx.save();
    ctx.translate(0, k * panelHeight + (k > 0 ? legendRoom : 0));
    const own = panelHeight + (k === 0 ? legendRoom : 0);
    drawPairs(ctx, width, own, colors, report, main ? highlighted : null, main ? layout : {}, {
      title: narrow ? term : t('{term}: each pair’s wavelength before and after scaling', { term }),
      // A window or chunk caps what a layer spans; a second whole-prompt kind (DeepSeek-V4's heavily
      // compressed layers beside its sparse ones) spans the prompt.
      promptLabel: main ? null : t('spans {length}', { length: count(report.promptLength) }),
      legend: k === 0,
      axes: kind.positions === 'mrope' ? kind.mropeAxes : null,
    });
    ctx.restore();
  });
  ctx.save();
  ctx.fillStyle = colors.fg;
  ctx.font = `12px ${FONT}`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  let top = height - belowPanels + 4;
  none.forEach((kind) => {
    const words =
      kind.positions === 'unknown'
        ? t('{term}: not understood, not drawn', { term: layerKindTerm(kind) })
        : kind.noneReason === 'recurrence'
          ? t('{term}: no positions (Mamba recurrence)', { term: layerKindTerm(kind) })
          : kind.noneReason === 'linear_attention'
            ? t('{term}: no positions (linear attention)', { term: layerKindTerm(kind) })
            : kind.queryTemperature !== 1
              ? // Llama 4's layers without RoPE: the one thing the prompt's length changes on them.
                t('{term}: no positions (NoPE); queries × {temperature} at {tokens}', {
                  term: layerKindTerm(kind),
                  tokens: tokens(r.promptLength),
                  temperature: trimmed(kind.queryTemperature, 3),
                })
              : t('{term}: no positions (NoPE)', { term: layerKindTerm(kind) });
    const row = noneRow(width, kind);
    const lines = wrapLines(ctx, words, width - 24).slice(0, noneLines(width, kind));
    lines.forEach((line, j) => ctx.fillText(line, 12, top + (row / lines.length) * (j + 0.5), width - 24));
    top += row;
  });
  ctx.restore();
}

/** The per-pair plot's legend: the wavelengths before scaling, and after it within and beyond training. */
const pairLegend = (colors) => [
  { label: t('before scaling'), color: colors.grey, dash: [4, 3] },
  { label: t('after scaling, within training'), fill: colors.blue },
  { label: t('after scaling, beyond training'), fill: colors.red },
];

/** Per pair: wavelength before (grey) and after (blue / red) scaling against the trained and prompt lengths. */
function drawPairs(ctx, width, height, colors, r, highlighted, layout, panel = {}) {
  const narrow = width < 480;
  const legend = pairLegend(colors);
  // The legend goes under the plot at every width, as the kit places legends (legendCorner): a
  // corner box sat on the dots where the wavelengths stay low to the right (proportional RoPE).
  const frame = plotFrame(width, height, {
    left: 68,
    right: 14,
    bottom: panel.legend !== false ? bottomWithLegend(ctx, legend, width) : 46,
  });
  const pairs = r.wavelengths.length;
  const L = r.trainedLength;
  const n = r.promptLength;
  let lo = Math.min(L, n);
  let hi = Math.max(L, n);
  for (const arr of [r.wavelengths, r.baseWavelengths]) {
    for (const v of arr) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  lo /= 2;
  hi *= 3;
  const x = linearScale(-0.5, pairs - 0.5, frame.x, frame.x + frame.w);
  const y = logScale(lo, hi, frame.y + frame.h, frame.y);
  const band = frame.w / pairs;
  layout.pairs = { frame, x, y, band };
  const beyond = highlighted === 'beyond';
  ctx.save();
  ctx.fillStyle = colors.red;
  ctx.globalAlpha = beyond ? 0.3 : 0.12;
  for (let i = 0; i < pairs; i++) if (r.beyond[i]) ctx.fillRect(x(i) - band / 2, frame.y, band, frame.h);
  ctx.restore();
  drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, pairs - 1, narrow ? 4 : 8).filter((v) => Number.isInteger(v)),
    // A label a line apart at most: a layer kind's short panel holds two or three, not seven crowded ones.
    yTicks: logTicks(lo, hi, Math.max(2, Math.floor(frame.h / Y_TICK_SPACING))),
    xLabel: t('pair i (0 turns fastest)'),
    yLabel: t('wavelength 2π/θᵢ (tokens)'),
    title:
      panel.title ??
      (narrow ? t('Wavelength per pair') : t('Each pair’s wavelength before and after the config’s scaling')),
  });
  const xs = Array.from({ length: pairs }, (_, i) => i);
  // The trained and prompt lengths as horizontal lines, labelled above (or, when close, below) the line.
  const lines = [
    {
      value: L,
      label: t('trained {length}', { length: count(L) }),
      color: colors.fg,
      dash: [6, 4],
      parts: ['trained'],
    },
    {
      value: n,
      label: panel.promptLabel ?? t('prompt {length}', { length: count(n) }),
      color: colors.muted,
      dash: [2, 3],
      parts: ['prompt'],
    },
  ];
  const close = Math.abs(y(L) - y(n)) < 14;
  if (L === n)
    lines.splice(0, 2, {
      value: L,
      label: panel.promptLabel
        ? t('trained {length}; {span}', { length: count(L), span: panel.promptLabel })
        : t('trained = prompt {length}', { length: count(L) }),
      color: colors.fg,
      dash: [6, 4],
      parts: ['trained', 'prompt'],
    });
  lines.forEach((line, k) => {
    drawLine(ctx, frame, x, y, [-0.5, pairs - 0.5], [line.value, line.value], {
      color: line.color,
      width: line.parts.includes(highlighted) ? 3 : 1.2,
      dash: line.dash,
    });
    ctx.save();
    ctx.fillStyle = line.color;
    ctx.font = `${line.parts.includes(highlighted) ? '600 ' : ''}11px ${FONT}`;
    ctx.textAlign = 'left';
    const below = close && k === (y(L) > y(n) ? 0 : 1);
    ctx.textBaseline = below ? 'top' : 'bottom';
    ctx.fillText(line.label, frame.x + 4, y(line.value) + (below ? 3 : -3));
    ctx.restore();
  });
  drawLine(ctx, frame, x, y, xs, r.baseWavelengths, { color: colors.grey, width: 1.5, dash: [4, 3] });
  drawLine(ctx, frame, x, y, xs, r.wavelengths, { color: colors.muted, width: 1 });
  const radius = band >= 6 ? 3 : 2.2;
  for (let i = 0; i < pairs; i++) {
    ctx.beginPath();
    ctx.fillStyle = r.beyond[i] ? colors.red : colors.blue;
    ctx.arc(x(i), y(r.wavelengths[i]), beyond && r.beyond[i] ? radius + 1.5 : radius, 0, 2 * Math.PI);
    ctx.fill();
  }
  if (panel.axes) drawAxisSections(ctx, frame, x, band, colors, panel.axes);
  if (panel.legend !== false) drawLegend(ctx, frame, colors, legend, legendCorner(width, 'br'));
}

/**
 * M-RoPE: which position axis each pair turns by, as brackets along the top of the plot, one per run
 * of pairs on one axis ("time 0–15"); interleaved sections (runs of one pair) are named once instead.
 */
function drawAxisSections(ctx, frame, x, band, colors, axes) {
  const names = [t('time'), t('height'), t('width')];
  const runs = [];
  for (let i = 0; i < axes.length; i++) {
    if (runs.length > 0 && runs.at(-1).axis === axes[i]) runs.at(-1).last = i;
    else runs.push({ axis: axes[i], first: i, last: i });
  }
  ctx.save();
  ctx.strokeStyle = colors.muted;
  ctx.fillStyle = colors.muted;
  ctx.font = `11px ${FONT}`;
  ctx.textBaseline = 'top';
  const top = frame.y + 18;
  if (runs.some((run) => run.last - run.first < 2)) {
    ctx.textAlign = 'left';
    ctx.fillText(t('pairs cycle time, height, width in turn (interleaved M-RoPE)'), frame.x + 4, top + 4);
  } else {
    ctx.textAlign = 'center';
    for (const run of runs) {
      const left = x(run.first) - band / 2 + 2;
      const right = x(run.last) + band / 2 - 2;
      ctx.beginPath();
      ctx.moveTo(left, top + 4);
      ctx.lineTo(left, top);
      ctx.lineTo(right, top);
      ctx.lineTo(right, top + 4);
      ctx.stroke();
      ctx.fillText(`${names[run.axis]} ${run.first}–${run.last}`, (left + right) / 2, top + 4, right - left);
    }
  }
  ctx.restore();
}

/** Schemes without rotary pairs: the trained positions against the prompt's, past-the-end in red. */
function drawPositions(ctx, width, height, colors, r, highlighted, layout) {
  const L = r.trainedLength;
  const n = r.promptLength;
  if (!(L > 0)) {
    drawMessage(ctx, width, height, colors, noLengthMessage(r));
    return;
  }
  const legend = [{ label: t('prompt within'), fill: colors.blue }];
  if (n > L)
    legend.push({
      label: r.scheme === 'learned' ? t('past the table') : t('past the trained length'),
      fill: colors.red,
    });
  const frame = plotFrame(width, height, { left: 70, right: 18, bottom: bottomWithLegend(ctx, legend, width) });
  const x = linearScale(0, Math.max(L, n) * 1.06, frame.x, frame.x + frame.w);
  const rowH = Math.min(36, frame.h / 4);
  const rows = [
    { label: r.scheme === 'learned' ? t('table rows') : t('trained'), top: frame.y + frame.h * 0.3 - rowH / 2 },
    { label: t('prompt'), top: frame.y + frame.h * 0.7 - rowH / 2 },
  ];
  layout.positions = { x, rows, rowH };
  drawAxes(ctx, frame, colors, {
    x,
    y: linearScale(0, 1, frame.y + frame.h, frame.y),
    xTicks: niceTicks(0, Math.max(L, n) * 1.06, width < 480 ? 3 : 6),
    yTicks: [],
    xLabel: t('position (tokens)'),
    title:
      width < 480
        ? t('Trained positions vs prompt')
        : r.scheme === 'learned'
          ? t('The table’s rows against your prompt')
          : t('Trained positions against your prompt'),
  });
  const px = (v) => Math.max(1.5, x(v) - x(0));
  // Each bar as [row, from, length, colour, part].
  const bars = [
    [rows[0], 0, L, colors.grey, 'trained'],
    [rows[1], 0, Math.min(n, L), colors.blue, 'prompt'],
  ];
  if (n > L) bars.push([rows[1], L, n - L, colors.red, 'beyond']);
  ctx.save();
  for (const [row, from, length, color] of bars) {
    ctx.fillStyle = color;
    ctx.fillRect(x(from), row.top, px(length), rowH);
  }
  // The highlighted part outlined in the text colour.
  for (const [row, from, length, , part] of bars) {
    if (part !== highlighted) continue;
    ctx.strokeStyle = colors.fg;
    ctx.lineWidth = 2.5;
    ctx.strokeRect(x(from), row.top, px(length), rowH);
  }
  ctx.fillStyle = colors.fg;
  ctx.font = `12px ${FONT}`;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const row of rows) ctx.fillText(row.label, frame.x - 6, row.top + rowH / 2);
  ctx.restore();
  drawLine(ctx, frame, x, linearScale(0, 1, frame.y + frame.h, frame.y), [L, L], [0, 1], {
    color: colors.fg,
    width: 1.2,
    dash: [6, 4],
  });
  ctx.save();
  ctx.fillStyle = colors.fg;
  ctx.font = `11px ${FONT}`;
  ctx.textBaseline = 'top';
  const label =
    r.scheme === 'learned'
      ? t('table ends at {length}', { length: count(L) })
      : t('trained {length}', { length: count(L) });
  const right = x(L) + 4 + ctx.measureText(label).width > frame.x + frame.w;
  ctx.textAlign = right ? 'right' : 'left';
  ctx.fillText(label, x(L) + (right ? -4 : 4), frame.y + 4);
  ctx.restore();
  drawLegend(ctx, frame, colors, legend, 'below');
}
