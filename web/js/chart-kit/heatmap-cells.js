// A small labelled matrix heatmap (attention weights, ALiBi biases) drawn cell by cell, with the
// row and column labels and, when cells are big enough, the values written in them.

import { fixed } from '../locale/format.js';
import { FONT, drawCached } from './canvas.js';
import { drawFitted, ellipsize, fitText } from './text-fit.js';
import { colorIndex, textColorOn } from './colormap.js';

/**
 * Draws matrix m ({ rows, cols, data }) into the box { x, y, size } with colour `table` over
 * [lo, hi]. rowLabels/colLabels: arrays of strings (drawn with fillText: text only).
 * masked(i, j) → true greys a cell out. title is drawn above. The cells are drawn on every call;
 * the title, the border and the labels through a cached layer (canvas.js's drawCached).
 */
export function drawCellHeatmap(
  ctx,
  colors,
  m,
  box,
  { table, lo, hi, rowLabels, colLabels, masked, title, digits = 2 },
) {
  const { rows, cols, data } = m;
  const cell = box.size / Math.max(rows, cols);
  ctx.save();
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = data[i * cols + j];
      const off = masked?.(i, j);
      const index = colorIndex(table, v, lo, hi);
      ctx.fillStyle = off ? colors.grid : table.css[index];
      ctx.fillRect(box.x + j * cell, box.y + i * cell, Math.ceil(cell), Math.ceil(cell));
      if (!off && cell >= 30) {
        ctx.fillStyle = textColorOn(table, index);
        ctx.font = `${cell >= 44 ? 12 : 10}px ${FONT}`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(fixed(v, digits), box.x + (j + 0.5) * cell, box.y + (i + 0.5) * cell);
      }
    }
  }
  ctx.restore();
  const key = [
    'cells',
    box.x,
    box.y,
    box.size,
    rows,
    cols,
    colors.fg,
    colors.muted,
    title ?? '',
    (rowLabels ?? []).join('\u0002'),
    (colLabels ?? []).join('\u0002'),
  ].join('|');
  // The row labels (at most 70 px) left of the box, the title and the column labels (60 px at 45°) above it.
  const bounds = { x: box.x - 80, y: box.y - 64, w: box.size + 144, h: box.size + 68 };
  drawCached(
    ctx,
    key,
    (c) => drawFrameAndLabels(c, colors, box, rows, cols, cell, { rowLabels, colLabels, title }),
    bounds,
  );
}

/** The matrix's title (above it), its border and its row and column labels. */
function drawFrameAndLabels(ctx, colors, box, rows, cols, cell, { rowLabels, colLabels, title }) {
  ctx.save();
  ctx.font = `600 12px ${FONT}`;
  ctx.fillStyle = colors.fg;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  if (title) {
    // Shrunk or cut with "…", never squeezed; its last line sits where the single line did.
    const fitted = fitText(ctx, title, box.size + 40, { sizes: [12, 11, 10], weight: '600', maxLines: 1 });
    drawFitted(ctx, fitted, box.x + (cols * cell) / 2, box.y - (colLabels ? 30 : 6));
  }
  ctx.strokeStyle = colors.muted;
  ctx.strokeRect(box.x + 0.5, box.y + 0.5, cols * cell, rows * cell);
  ctx.font = `11px ${FONT}`;
  ctx.fillStyle = colors.fg;
  if (rowLabels && cell >= 9) {
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    rowLabels.forEach((label, i) =>
      ctx.fillText(ellipsize(ctx, label, Math.min(70, box.x - 8)), box.x - 4, box.y + (i + 0.5) * cell),
    );
  }
  if (colLabels && cell >= 9) {
    colLabels.forEach((label, j) => {
      ctx.save();
      ctx.translate(box.x + (j + 0.5) * cell, box.y - 4);
      ctx.rotate(-Math.PI / 4);
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText(ellipsize(ctx, label, 60), 0, 0);
      ctx.restore();
    });
  }
  ctx.restore();
}
