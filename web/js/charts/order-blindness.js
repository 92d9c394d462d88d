// Figure 1, live: cosine similarity of the pooled attention outputs of two typed sentences,
// with no positions, sinusoidal codes, RoPE, and a causal mask only (engine.orderSimilarities).

import { fixed } from '../locale/format.js';
import { FONT } from '../chart-kit/canvas.js';
import { defineChart } from '../chart-kit/define-chart.js';
import { drawAxes, plotFrame } from '../chart-kit/plot.js';
import { linearScale, niceTicks } from '../chart-kit/scales.js';
import { clampCentre, drawFitted, fitText, fitTitle, titleSpace } from '../chart-kit/text-fit.js';
import { chartDeclaration } from './declarations.js';
import { t } from '../locale/i18n.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
// Each scheme's bar: `label` shown (translated), `name` in the CSV (English, machine-readable).
const BARS = [
  { key: 'none', name: 'no positions', label: t('no positions') },
  { key: 'sinusoidal', name: 'sinusoidal', label: t('sinusoidal') },
  { key: 'rope', name: 'RoPE', label: 'RoPE' },
  { key: 'causal', name: 'causal mask only', label: t('causal mask only') },
];
const EMPTY = t('Type at least one word.');

/**
 * The lesson's order-blindness bars for the sentences in the two text fields, on the chart
 * skeleton. Its parts are the two orderings compared: 'sentence-a' and 'sentence-b'.
 */
export const ORDER_BLINDNESS = defineChart(chartDeclaration('order-blindness'), {
  parts: ['sentence-a', 'sentence-b'],
  focusParts: { a: 'sentence-a', b: 'sentence-b' },
  buttons: [
    {
      name: 'reverse',
      label: t('B = A reversed'),
      onClick: (state, controls) => controls.b.set(state.a.trim().split(/\s+/).reverse().join(' ')),
    },
  ],
  compute: {
    // The four similarities, or why there are none (an empty field, or the engine's message).
    similarity: {
      reads: ['a', 'b'],
      run(state, engine) {
        const a = state.a.trim();
        const b = state.b.trim();
        if (!a || !b) return { a, b, sims: null, error: t('Type a sentence in both fields.') };
        try {
          return { a, b, sims: engine.orderSimilarities(a, b), error: '' };
        } catch (e) {
          return { a, b, sims: null, error: e.message };
        }
      },
    },
  },
  notes: ({ data: { similarity: s } }) => ({
    a: !s.a ? EMPTY : '',
    b: !s.b ? EMPTY : s.error && s.a && s.b ? s.error : '',
  }),
  canvases: [
    {
      label: t('Bar chart: cosine similarity of the two sentences’ pooled attention outputs for four position schemes'),
      aspect: 0.56,
      draw: drawBars,
      hit({ layout: { spans } }, px, py) {
        for (const [part, s] of Object.entries(spans ?? {})) {
          if (px >= s.x0 && px <= s.x1 && py >= s.y0 - 2 && py <= s.y1 + 2) return part;
        }
        return null;
      },
    },
  ],
  describe({ data: { similarity: s } }) {
    if (!s.sims) return s.error;
    const { sims } = s;
    const same = Math.abs(sims.none - 1) < 5e-4;
    const params = {
      a: s.a,
      b: s.b,
      none: fixed(sims.none, 3),
      sinusoidal: fixed(sims.sinusoidal, 3),
      rope: fixed(sims.rope, 3),
      causal: fixed(sims.causal, 3),
    };
    return same
      ? t(
          'Cosine similarity of “{a}” and “{b}”: no positions {none}, sinusoidal {sinusoidal}, RoPE {rope}, causal mask only {causal}. Without positions the two are indistinguishable.',
          params,
        )
      : t(
          'Cosine similarity of “{a}” and “{b}”: no positions {none}, sinusoidal {sinusoidal}, RoPE {rope}, causal mask only {causal}.',
          params,
        );
  },
  table: ({ data: { similarity: s } }) => ({
    caption: t('Cosine similarity per scheme'),
    columns: [t('scheme'), t('cosine')],
    rows: s.sims ? BARS.map((bar) => [bar.label, s.sims[bar.key]]) : [],
  }),
  csv: ({ data: { similarity: s } }) => ({
    header: ['scheme', 'cosine'],
    rows: s.sims ? BARS.map((b) => [b.name, s.sims[b.key]]) : [],
  }),
  values: ({ data }) => data.similarity.sims,
  extend(chart, { layout }) {
    /** Where the title quotes each sentence, in CSS pixels of the canvas (for tests). */
    chart.titleSpans = () => ({ ...layout.spans });
  },
});

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createOrderBlindnessChart = ORDER_BLINDNESS.create;

function drawBars(ctx, width, height, colors, { state, data: { similarity }, highlighted, layout }) {
  if (!similarity) return; // the canvas's first paint comes before the first computation
  const { sims, error } = similarity;
  const quoted = { 'sentence-a': `'${truncate(state.a)}'`, 'sentence-b': `'${truncate(state.b)}'` };
  // Sentence A opens the title and sentence B closes it, in every language (titleSpans relies on it).
  const title = t('{a} vs {b}', { a: quoted['sentence-a'], b: quoted['sentence-b'] });
  // The bar names wrap onto up to three lines under their bar; the bottom margin grows to hold them.
  const left = 58;
  const right = 16;
  const band = Math.max(20, width - left - right) / BARS.length;
  // One size for all four names: the largest at which each fits its band whole (no "…"); 9 px for
  // "sinusoidal" in a 360 px phone's band in Firefox, whose sans is wider.
  const layouts = [12, 11, 10, 9].map((size) =>
    BARS.map((bar) => fitText(ctx, bar.label, band - 2, { sizes: [size], maxLines: 3 })),
  );
  // Whole: the lines hold every character of the name (compared without spaces, as Chinese names
  // wrap between characters, not at spaces).
  const bare = (text) => text.replace(/\s+/g, '');
  const whole = (fitted, i) => bare(fitted.lines.join('')) === bare(BARS[i].label);
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
    yLabel: t('cosine similarity of pooled outputs'),
    title,
  });
  layout.spans = titleSpans(ctx, title, quoted, frame, width);
  if (highlighted) {
    // The sentence emphasised: underlined where the title quotes it.
    const s = layout.spans[highlighted];
    ctx.save();
    ctx.fillStyle = colors.fg;
    ctx.fillRect(s.x0, s.y1 - 1, s.x1 - s.x0, 2);
    ctx.restore();
  }
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
}

/**
 * Where the title (laid out as drawAxes lays it out) shows each quoted sentence: { part → box }.
 * Sentence A opens the title's first line, sentence B closes its last (a sentence broken across
 * the two lines is boxed on the line it opens or closes).
 */
function titleSpans(ctx, title, quoted, frame, width) {
  const fitted = fitTitle(ctx, title, width);
  const top = Math.max(2, frame.y - 26 - (fitted.lines.length - 1) * fitted.lineHeight);
  const cx = clampCentre(frame.x + frame.w / 2, fitted.width, 6, width - 6);
  ctx.save();
  ctx.font = fitted.font;
  const box = (i, from, to) => {
    const line = fitted.lines[i];
    const left = cx - ctx.measureText(line).width / 2;
    return {
      x0: left + ctx.measureText(line.slice(0, from)).width,
      x1: left + ctx.measureText(line.slice(0, to)).width,
      y0: top + i * fitted.lineHeight,
      y1: top + (i + 1) * fitted.lineHeight,
    };
  };
  const first = fitted.lines[0];
  const last = fitted.lines.length - 1;
  const end = fitted.lines[last];
  const spans = {
    'sentence-a': box(0, 0, Math.min(first.length, quoted['sentence-a'].length)),
    'sentence-b': box(last, Math.max(0, end.length - quoted['sentence-b'].length), end.length),
  };
  ctx.restore();
  return spans;
}

function truncate(text, n = 28) {
  const trimmed = text.trim();
  return trimmed.length > n ? `${trimmed.slice(0, n - 1)}…` : trimmed;
}
