// Widget: ALiBi's per-head slopes and the causal bias matrix −slope·(i − j) for one head, beside
// RoPE's long-term decay (the RoFormer bound) and ALiBi's attention multiplier e^(−slope·distance).

import { rdbu } from '../chart-kit/colormap.js';
import { fixed, grouped, sciUnicode, significant } from '../locale/format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import { holdWithin } from '../chart-kit/chart-controls.js';
import { drawCellHeatmap } from '../chart-kit/heatmap-cells.js';
import * as plot from '../chart-kit/plot.js';
import { linearScale, logScale, logTicks, niceTicks } from '../chart-kit/scales.js';
import { drawWithKnobs } from '../chart-kit/handles.js';
import { chartDeclaration } from './declarations.js';
import { t, tn } from '../locale/i18n.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */

/**
 * The head shown as a handle on the slope bars: its knob rides on top of the selected bar, and a
 * drag across the bars (or anywhere on that bar) picks the head under the pointer.
 */
const HEAD_HANDLE = {
  key: 'head',
  part: 'head',
  label: t('head shown'),
  axis: 'x',
  scale: ({ layout: { bars } }) => bars?.x ?? null,
  across: ({ state, data: { slopes }, layout: { bars } }) =>
    Math.max(bars.frame.y + 8, bars.y(slopes[state.head - 1]) - 10),
  near: ({ state, layout: { bars } }, px, py) =>
    Boolean(bars) &&
    Math.round(bars.x.invert(px)) === state.head &&
    py >= bars.frame.y &&
    py <= bars.frame.y + bars.frame.h,
  snap: Math.round,
  max: ({ state }) => state.heads,
  step: 1,
  bigStep: 4,
  valueText: (v, { data: { slopes } }) =>
    t('head {head} of {heads}, slope {slope}', { head: v, heads: slopes.length, slope: formatSlope(slopes[v - 1]) }),
};

/** ALiBi slopes and bias beside RoPE's decay, on the chart skeleton. */
export const ALIBI = defineChart(chartDeclaration('alibi'), {
  parts: ['head'],
  focusParts: { head: 'head' },
  handles: [HEAD_HANDLE],
  reconcile(state, controls) {
    holdWithin(state, controls, 'head', { max: state.heads }, () =>
      tn(
        'There is only {heads} head; showing head {heads}.',
        'There are only {heads} heads; showing head {heads}.',
        state.heads,
        {
          heads: grouped(state.heads),
        },
      ),
    );
  },
  compute: {
    slopes: { reads: ['heads'], run: (state, engine) => engine.alibiSlopes(state.heads) },
    bias: {
      reads: ['head', 'length'],
      after: ['slopes'],
      run: (state, engine, data) => engine.alibiBias(data.slopes[state.head - 1], state.length),
    },
    // The RoFormer bound costs d × distance (the most expensive call here): only when its inputs change.
    decay: {
      reads: ['d', 'base', 'distance'],
      run: (state, engine) => engine.ropeDecayCurve(state.d, state.base, state.distance),
    },
  },
  canvases: [
    {
      label: t('Bar chart of ALiBi slopes per head, and a heatmap of one head’s causal bias matrix'),
      // Side by side from 560 px; below that the heatmap goes under the bars and needs the height.
      aspect: (width) => (width < 560 ? 1.45 : 0.45),
      minHeight: 300,
      maxHeight: 640,
      draw: drawWithKnobs(drawSlopesAndBias, [HEAD_HANDLE]),
      hit: (view, px, py, width, height) => {
        const { bars, box } = topLayout(view, width, height);
        const h = Math.round(bars.x.invert(px));
        const onBar = py >= bars.frame.y && py <= bars.frame.y + bars.frame.h && h === view.state.head;
        const onBox = px >= box.x && px <= box.x + box.size && py >= box.y && py <= box.y + box.size;
        return onBar || onBox ? 'head' : null;
      },
    },
    {
      label: t(
        'Line chart: relative attention against distance for RoPE’s long-term decay and for the selected ALiBi head',
      ),
      aspect: plot.legendAspect(0.9, 0.45),
      minHeight: 220,
      maxHeight: 380,
      draw: drawDecay,
    },
  ],
  describe({ state, data: { slopes, decay } }) {
    const slope = slopes[state.head - 1];
    const half = Math.log(2) / slope;
    return tn(
      '{heads} head with slope {first}. Head {head} (slope {slope}) halves a key’s weight every {half} positions; RoPE’s bound at distance {distance} is {ratio} of its value at distance 0.',
      '{heads} heads with slopes from {first} down to {last}. Head {head} (slope {slope}) halves a key’s weight every {half} positions; RoPE’s bound at distance {distance} is {ratio} of its value at distance 0.',
      state.heads,
      {
        heads: grouped(state.heads),
        first: formatSlope(slopes[0]),
        last: formatSlope(Math.min(...slopes)),
        head: state.head,
        slope: formatSlope(slope),
        half: fixed(half, 1),
        distance: grouped(state.distance),
        ratio: fixed(decay[state.distance] / decay[0], 3),
      },
    );
  },
  table: ({ data: { slopes } }) => ({
    caption: t('ALiBi slopes'),
    columns: [t('head'), t('slope')],
    rows: Array.from(slopes, (s, h) => [h + 1, s]),
  }),
  csv: ({ data: { slopes, decay } }) => ({
    header: [
      'distance',
      'rope_decay_bound',
      'rope_decay_relative',
      ...Array.from(slopes, (_, h) => `alibi_bias_head${h + 1}`),
    ],
    rows: Array.from(decay, (v, m) => [m, v, v / decay[0], ...Array.from(slopes, (s) => -s * m)]),
  }),
  values: ({ data: { slopes, bias, decay } }) => ({ slopes, bias, decay }),
});

/** Mounts the ALiBi chart in `slot` (the factory index.js calls). */
export const createAlibiChart = ALIBI.create;

/** The least side (CSS px) of the bias matrix when it sits under the bars. */
const HEATMAP_FLOOR = 160;

/** Where the bars and the bias heatmap go on a top canvas of width × height. */
function topLayout({ data: { slopes } }, width, height) {
  const stacked = width < 560;
  const half = stacked ? width : width / 2;
  const margins = { left: 56, top: 34, bottom: 40 };
  // Stacked, the bars keep a readable plot (PLOT_FLOOR) and the bias matrix at least HEATMAP_FLOOR
  // px (or the width there is): on a phone the canvas grows past its aspect for them.
  const barsFloor = margins.top + margins.bottom + plot.PLOT_FLOOR;
  if (stacked) plot.needCanvasHeight(barsFloor + 56 + 12 + Math.min(width - 100, HEATMAP_FLOOR));
  const barsHeight = stacked ? Math.min(240, Math.max(barsFloor, height * 0.45)) : height;
  const frame = plot.plotFrame(half, barsHeight, margins);
  const x = linearScale(0.5, slopes.length + 0.5, frame.x, frame.x + frame.w);
  const y = logScale(Math.min(...slopes) / 2, 1, frame.y + frame.h, frame.y);
  const size = stacked ? Math.min(width - 100, height - barsHeight - 56 - 12) : Math.min(half - 110, height - 80);
  const box = stacked ? { x: 70, y: barsHeight + 56, size } : { x: half + 70, y: 60, size };
  return { bars: { frame, x, y }, box };
}

function drawSlopesAndBias(ctx, width, height, colors, view) {
  const {
    state,
    data: { slopes, bias },
    highlighted,
  } = view;
  if (!slopes) return;
  const {
    bars: { frame, x, y },
    box,
  } = topLayout(view, width, height);
  view.layout.bars = { frame, x, y };
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(1, slopes.length, Math.min(8, slopes.length)).filter(Number.isInteger),
    yTicks: logTicks(Math.min(...slopes) / 2, 1),
    xLabel: t('head'),
    yLabel: t('slope (log)'),
    title: tn('ALiBi slope for {heads} head', 'ALiBi slopes for {heads} heads', slopes.length, {
      heads: slopes.length,
    }),
  });
  const bw = Math.max(1, (frame.w / slopes.length) * 0.7);
  slopes.forEach((s, h) => {
    ctx.fillStyle = h + 1 === state.head ? colors.red : colors.blue;
    ctx.fillRect(x(h + 1) - bw / 2, y(s), bw, frame.y + frame.h - y(s));
  });
  const slope = slopes[state.head - 1];
  drawCellHeatmap(ctx, colors, bias, box, {
    table: rdbu,
    lo: -slope * (state.length - 1),
    hi: slope * (state.length - 1),
    rowLabels: Array.from({ length: state.length }, (_, i) => `q${i}`),
    colLabels: Array.from({ length: state.length }, (_, j) => `k${j}`),
    masked: (i, j) => j > i,
    title: t('head {head}: bias −{slope}·(i − j)', { head: state.head, slope: formatSlope(slope) }),
    digits: 1,
  });
  if (highlighted === 'head') {
    // The selected head emphasised: its bar and its bias matrix outlined in the foreground colour.
    ctx.save();
    ctx.strokeStyle = colors.fg;
    ctx.lineWidth = 2.5;
    const s = slopes[state.head - 1];
    ctx.strokeRect(x(state.head) - bw / 2 - 2, y(s) - 2, bw + 4, frame.y + frame.h - y(s) + 2);
    ctx.strokeRect(box.x - 3, box.y - 3, box.size + 6, box.size + 6);
    ctx.restore();
  }
}

function drawDecay(ctx, width, height, colors, { state, data: { slopes, decay }, highlighted }) {
  if (!decay) return;
  const slope = slopes[state.head - 1];
  const legend = [
    {
      label: t('RoPE bound (RoFormer), d\u00a0{d}, relative to distance\u00a00', { d: grouped(state.d) }),
      color: colors.blue,
    },
    {
      label: t('ALiBi head {head}: e^(−{slope}·distance)', { head: state.head, slope: formatSlope(slope) }),
      color: colors.red,
      dash: [6, 4],
    },
  ];
  const frame = plot.plotFrame(width, height, { bottom: 46 + plot.legendSpace(ctx, legend, width) });
  const x = linearScale(0, state.distance, frame.x, frame.x + frame.w);
  const y = linearScale(0, 1.05, frame.y + frame.h, frame.y);
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, state.distance, 6),
    yTicks: niceTicks(0, 1, 5),
    xLabel: t('distance between query and key'),
    yLabel: t('relative weight'),
    title: t('Both prefer nearby tokens: RoPE gently, ALiBi by design'),
  });
  const xs = Array.from(decay, (_, m) => m);
  plot.drawLine(
    ctx,
    frame,
    x,
    y,
    xs,
    Array.from(decay, (v) => v / decay[0]),
    { color: colors.blue },
  );
  plot.drawLine(
    ctx,
    frame,
    x,
    y,
    xs,
    xs.map((m) => Math.exp(-slope * m)),
    { color: colors.red, dash: [6, 4], ...(highlighted === 'head' ? { width: 3 } : {}) },
  );
  plot.drawLegend(ctx, frame, colors, legend, plot.legendCorner(width, 'tr'));
}

function formatSlope(s) {
  return s >= 0.01 ? significant(s, 3) : sciUnicode(s, 2);
}
