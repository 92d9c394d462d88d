// Figure 1, live: cosine similarity of the pooled attention outputs of two typed sentences,
// with no positions, sinusoidal codes, RoPE, and a causal mask only (engine.orderSimilarities).

import { createDeclaredControls } from '../chart-kit/chart-controls.js';
import { buttonControl } from '../chart-kit/controls.js';
import { fixed } from '../format.js';
import { FONT, createPlotCanvas } from '../chart-kit/canvas.js';
import { drawAxes, plotFrame } from '../chart-kit/plot.js';
import { linearScale, niceTicks } from '../chart-kit/scales.js';
import { drawFitted, fitText, titleSpace } from '../chart-kit/text-fit.js';
import { createChartShell } from '../chart-kit/shell.js';
import { CHART_DECLARATIONS } from './declarations.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
export const { controls: CONTROLS, aliases: URL_ALIASES } = CHART_DECLARATIONS['order-blindness'];
const BARS = [
  { key: 'none', label: 'no positions' },
  { key: 'sinusoidal', label: 'sinusoidal' },
  { key: 'rope', label: 'RoPE' },
  { key: 'causal', label: 'causal mask only' },
];

/** The lesson's order-blindness bars for the sentences in the two text fields. */
export function createOrderBlindnessChart(slot, engine) {
  let sims = null;
  let error = '';
  const shell = createChartShell(slot, 'order-blindness', {
    exports: {
      getCanvases: () => [plot.canvas],
      getCsv: () => ({ header: ['scheme', 'cosine'], rows: sims ? BARS.map((b) => [b.label, sims[b.key]]) : [] }),
    },
  });
  const { state, controls, writeUrl } = createDeclaredControls({
    id: 'order-blindness',
    aliases: URL_ALIASES,
    declarations: CONTROLS,
    shell,
    onChange: update,
  });
  const { a: fieldA, b: fieldB } = controls;
  const swap = buttonControl({
    name: 'reverse',
    label: 'B = A reversed',
    onClick: () => fieldB.set(state.a.trim().split(/\s+/).reverse().join(' ')),
  });
  shell.controls.append(fieldA.element, fieldB.element, swap.element);

  const plot = createPlotCanvas(shell.plot, {
    label: 'Bar chart: cosine similarity of the two sentences’ pooled attention outputs for four position schemes',
    aspect: 0.56,
    draw(ctx, width, height, colors) {
      const title = `'${truncate(state.a)}' vs '${truncate(state.b)}'`;
      // The bar names wrap onto up to three lines under their bar; the bottom margin grows to hold them.
      const left = 58;
      const right = 16;
      const band = Math.max(20, width - left - right) / BARS.length;
      // One size for all four names: the largest at which each fits its band whole (no "…").
      const layouts = [12, 11, 10].map((size) =>
        BARS.map((bar) => fitText(ctx, bar.label, band - 2, { sizes: [size], maxLines: 3 })),
      );
      const whole = (fitted, i) => fitted.lines.join(' ') === BARS[i].label;
      const names = layouts.find((set) => set.every(whole)) ?? layouts[layouts.length - 1];
      const nameLines = Math.max(...names.map((f) => f.lines.length));
      const bottom = 12 + nameLines * names[0].lineHeight;
      const frame = plotFrame(width, height, { left, right, bottom, top: titleSpace(ctx, title, width) });
      const values = sims ? BARS.map((b) => sims[b.key]) : [];
      const lo = values.length ? Math.min(...values) - 0.1 : 0;
      // The lesson's y limits are (min − 0.1, 1.05) with each value printed just above its bar.
      // On a short canvas that leaves no room for the text, so the top grows until the tallest
      // bar's label (LABEL px high) fits inside the frame.
      const LABEL = 18;
      const tallest = values.length ? Math.max(...values) : 1;
      const hi = Math.max(1.05, lo + ((tallest - lo) * frame.h) / Math.max(1, frame.h - LABEL));
      const y = linearScale(lo, hi, frame.y + frame.h, frame.y);
      const x = linearScale(-0.5, BARS.length - 0.5, frame.x, frame.x + frame.w);
      drawAxes(ctx, frame, colors, {
        x,
        y,
        xTicks: [],
        yTicks: niceTicks(lo, Math.min(hi, 1.05), 5),
        yLabel: 'cosine similarity of pooled outputs',
        title,
      });
      ctx.textAlign = 'center';
      ctx.textBaseline = 'top';
      ctx.fillStyle = colors.fg;
      names.forEach((fitted, i) => drawFitted(ctx, fitted, x(i), frame.y + frame.h + 6));
      if (!sims) {
        ctx.fillStyle = colors.muted;
        const fitted = fitText(ctx, error, frame.w - 10, { sizes: [12, 11], maxLines: 4 });
        drawFitted(ctx, fitted, frame.x + frame.w / 2, frame.y + frame.h / 2 - fitted.height / 2);
        return;
      }
      ctx.font = `12px ${FONT}`;
      const valueFont = ctx.measureText('0.000').width + 4 > band * 0.8 ? `10px ${FONT}` : ctx.font;
      values.forEach((v, i) => {
        const top = y(Math.max(v, lo));
        ctx.fillStyle = i === 0 ? colors.red : colors.blue;
        ctx.fillRect(x(i) - band * 0.4, top, band * 0.8, frame.y + frame.h - top);
        ctx.fillStyle = colors.fg;
        ctx.font = valueFont;
        ctx.textBaseline = 'bottom';
        ctx.fillText(fixed(v, 3), x(i), top - 3);
      });
    },
  });

  function update(patch = {}) {
    Object.assign(state, patch);
    writeUrl(state);
    const a = state.a.trim();
    const b = state.b.trim();
    error = '';
    sims = null;
    if (!a || !b) {
      error = 'Type a sentence in both fields.';
    } else {
      try {
        sims = engine.orderSimilarities(a, b);
      } catch (e) {
        error = e.message;
      }
    }
    fieldA.note(!a ? 'Type at least one word.' : '');
    fieldB.note(!b ? 'Type at least one word.' : error && a && b ? error : '');
    plot.redraw();
    if (sims) {
      const same = Math.abs(sims.none - 1) < 5e-4;
      shell.describe(
        `Cosine similarity of “${a}” and “${b}”: no positions ${fixed(sims.none, 3)}, sinusoidal ${fixed(sims.sinusoidal, 3)}, RoPE ${fixed(sims.rope, 3)}, causal mask only ${fixed(sims.causal, 3)}.` +
          (same ? ' Without positions the two are indistinguishable.' : ''),
      );
      shell.setData({
        caption: 'Cosine similarity per scheme',
        columns: ['scheme', 'cosine'],
        rows: BARS.map((bar) => [bar.label, sims[bar.key]]),
      });
    } else {
      shell.describe(error);
      shell.setData({ caption: 'Cosine similarity per scheme', columns: ['scheme', 'cosine'], rows: [] });
    }
  }
  update();
  return {
    update,
    controls,
    destroy: () => {
      plot.destroy();
      shell.destroy();
    },
    get state() {
      return { ...state };
    },
    get values() {
      return sims;
    },
  };
}

function truncate(text, n = 28) {
  const t = text.trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}
