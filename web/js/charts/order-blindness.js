// Figure 1, live: cosine similarity of the pooled attention outputs of two typed sentences,
// with no positions, sinusoidal codes, RoPE, and a causal mask only (engine.orderSimilarities).

import { buttonControl, textControl } from './controls.js';
import { createPlotCanvas, drawAxes, linearScale, niceTicks, plotFrame } from './plot.js';
import { createChartShell } from './shell.js';
import { readUrlState, writeUrlState } from './url-state.js';

const DEFAULTS = { a: 'dog bites man', b: 'man bites dog' };
const BARS = [
  { key: 'none', label: 'no positions' },
  { key: 'sinusoidal', label: 'sinusoidal' },
  { key: 'rope', label: 'RoPE' },
  { key: 'causal', label: 'causal mask only' },
];

/** The lesson's order-blindness bars for the sentences in the two text fields. */
export function createOrderBlindnessChart(slot, engine) {
  const state = readUrlState('order', DEFAULTS);
  let sims = null;
  let error = '';
  const shell = createChartShell(slot, 'order-blindness', {
    exports: {
      getCanvases: () => [plot.canvas],
      getCsv: () => ({ header: ['scheme', 'cosine'], rows: sims ? BARS.map((b) => [b.label, sims[b.key]]) : [] }),
    },
  });
  const fieldA = textControl({ name: 'a', label: 'Sentence A', value: state.a, onChange: (v) => update({ a: v }) });
  const fieldB = textControl({ name: 'b', label: 'Sentence B', value: state.b, onChange: (v) => update({ b: v }) });
  const swap = buttonControl({ name: 'reverse', label: 'B = A reversed', onClick: () => fieldB.set(state.a.trim().split(/\s+/).reverse().join(' ')) });
  shell.controls.append(fieldA.element, fieldB.element, swap.element);

  const plot = createPlotCanvas(shell.plot, {
    label: 'Bar chart: cosine similarity of the two sentences’ pooled attention outputs for four position schemes',
    aspect: 0.56,
    draw(ctx, width, height, colors) {
      const frame = plotFrame(width, height, { left: 58, bottom: 40 });
      const values = sims ? BARS.map((b) => sims[b.key]) : [];
      const lo = values.length ? Math.min(...values) - 0.1 : 0;
      const y = linearScale(lo, 1.05, frame.y + frame.h, frame.y);
      const band = frame.w / BARS.length;
      const x = linearScale(-0.5, BARS.length - 0.5, frame.x, frame.x + frame.w);
      drawAxes(ctx, frame, colors, {
        x,
        y,
        xTicks: [],
        yTicks: niceTicks(lo, 1.05, 5),
        yLabel: 'cosine similarity of pooled outputs',
        title: `'${truncate(state.a)}' vs '${truncate(state.b)}'`,
      });
      ctx.textAlign = 'center';
      ctx.textBaseline = 'top';
      BARS.forEach((bar, i) => {
        ctx.fillStyle = colors.fg;
        ctx.fillText(bar.label, x(i), frame.y + frame.h + 6, band - 4);
      });
      if (!sims) {
        ctx.fillStyle = colors.muted;
        ctx.fillText(error, frame.x + frame.w / 2, frame.y + frame.h / 2, frame.w - 10);
        return;
      }
      values.forEach((v, i) => {
        const top = y(Math.max(v, lo));
        ctx.fillStyle = i === 0 ? colors.red : colors.blue;
        ctx.fillRect(x(i) - band * 0.4, top, band * 0.8, frame.y + frame.h - top);
        ctx.fillStyle = colors.fg;
        ctx.textBaseline = 'bottom';
        ctx.fillText(v.toFixed(3), x(i), y(v + 0.01));
      });
    },
  });

  function update(patch = {}) {
    Object.assign(state, patch);
    writeUrlState('order', state, DEFAULTS);
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
        `Cosine similarity of “${a}” and “${b}”: no positions ${sims.none.toFixed(3)}, sinusoidal ${sims.sinusoidal.toFixed(3)}, RoPE ${sims.rope.toFixed(3)}, causal mask only ${sims.causal.toFixed(3)}.` +
          (same ? ' Without positions the two are indistinguishable.' : ''),
      );
      shell.setData({ caption: 'Cosine similarity per scheme', columns: ['scheme', 'cosine'], rows: BARS.map((bar) => [bar.label, sims[bar.key]]) });
    } else {
      shell.describe(error);
      shell.setData({ caption: 'Cosine similarity per scheme', columns: ['scheme', 'cosine'], rows: [] });
    }
  }
  update();
  return { update, destroy: () => { plot.destroy(); shell.destroy(); }, get state() { return { ...state }; }, get values() { return sims; } };
}

function truncate(text, n = 28) {
  const t = text.trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}
