// Figure: the length lab. The reader picks a task, a trained length and position schemes and presses
// Train: one small decoder-only transformer per scheme trains (engine.trainLengthLab, in Workers where
// the browser has them: lab/lab-runner.js), its loss drawn as it falls, then each model is scored at 1× to
// 8× the length it was trained at; the RoPE model also with position interpolation, the NTK-aware base
// and YaRN applied at evaluation. The controls are in the URL like every chart's; the results are not,
// but the same settings give the same bits, so a shared address trains to the same curves.

import { grouped, listed, sentences } from '../locale/format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import * as plot from '../chart-kit/plot.js';
import { FONT } from '../chart-kit/canvas.js';
import { linearScale, logScale, logTicks, niceTicks } from '../chart-kit/scales.js';
import { CHART_DECLARATIONS, chartDeclaration, LAB_SCHEMES } from './declarations.js';
import { createLabRunner } from '../lab/lab-runner.js';
// The recorded medians at the default size, written by web/site-builder/lab-recorded.mjs.
import RECORDED from '../lab/recorded-runs.json' with { type: 'json' };
import { loadEngine } from '../engine/engine.js';
import { t, tn } from '../locale/i18n.js';

/** Each accuracy line: the engine's variant name, its label, the scheme whose colour it takes, its dash. */
const VARIANTS = [
  { name: 'none', label: t('no positions'), scheme: 'none' },
  { name: 'learned', label: t('learned table'), scheme: 'learned' },
  { name: 'sinusoidal', label: t('sinusoidal'), scheme: 'sinusoidal' },
  { name: 'rope', label: t('RoPE'), scheme: 'rope' },
  { name: 'rope+pi', label: t('RoPE + interpolation'), scheme: 'rope', dash: [7, 4] },
  { name: 'rope+ntk', label: t('RoPE + NTK base'), scheme: 'rope', dash: [2, 3] },
  { name: 'rope+yarn', label: t('RoPE + YaRN'), scheme: 'rope', dash: [9, 3, 2, 3] },
  { name: 'alibi', label: t('ALiBi'), scheme: 'alibi' },
  { name: 'rnope-swa', label: t('RNoPE-SWA'), scheme: 'rnope-swa' },
  { name: 'drope', label: t('DroPE'), scheme: 'drope' },
  { name: 'cope', label: t('CoPE'), scheme: 'cope' },
];
const SCHEME_NAMES = LAB_SCHEMES.map((s) => s.value);
const SCHEME_KEYS = LAB_SCHEMES.map((s) => s.key);
const schemeLabel = (name) => LAB_SCHEMES.find((s) => s.value === name).label;
const colorOf = (colors, scheme) => colors.cycle[SCHEME_NAMES.indexOf(scheme) % colors.cycle.length];
const percent = (x) => `${Math.round(x * 100)}%`;

/** The least time between two redraws of the loss plot while models train (ms). */
const LIVE_REDRAW_MS = 150;

/** The schemes ticked, in the declared order. */
export const chosenSchemes = (state) => LAB_SCHEMES.filter((s) => state[s.key]).map((s) => s.value);

/** The engine options of one scheme's run under `state` (the rest are the engine's defaults, the results file's size). */
export const labOptions = (state, scheme) => ({
  scheme,
  task: state.task,
  trainLength: state.length,
  steps: state.steps,
  seed: state.seed,
  lengthScaledSoftmax: state.ssmax,
  // DroPE recalibrates without positions for the last tenth of the same steps.
  recalibrationSteps: Math.round(state.steps / 10),
});

/** What a run depends on: a run made under other settings is not shown. */
const settingsKey = (state) =>
  JSON.stringify([state.task, state.length, state.steps, state.seed, state.ssmax, ...chosenSchemes(state)]);

/** The engine names a length-scaled softmax model's variants "rope+ssmax+pi"; the lines are keyed without it. */
const withoutSsmax = (result) => ({ ...result, variants: result.variants.map((v) => v.replace('+ssmax', '')) });

/** The evaluation lengths L, 2L, …, 8L (the engine's default factor). */
const evalLengths = (length) => Array.from({ length: 8 }, (_, i) => length * (i + 1));

export const LENGTH_LAB = defineChart(chartDeclaration('length-lab'), {
  parts: ['trained-length', ...VARIANTS.map((v) => v.name)],
  compute: {
    // What Train will run: a light plan, no engine call (training is the reader's to start).
    plan: {
      reads: ['task', 'length', 'steps', 'seed', 'ssmax', ...SCHEME_KEYS],
      run: (state) => ({ key: settingsKey(state), schemes: chosenSchemes(state) }),
    },
  },
  canvases: [
    {
      label: t('Line chart: training loss against step, one line per position scheme'),
      aspect: plot.legendAspect(0.8, 0.42),
      minHeight: 200,
      draw: drawLosses,
    },
    {
      label: t(
        'Line chart: accuracy against evaluation length, one line per scheme and stretch, the trained length marked',
      ),
      aspect: plot.legendAspect(1.05, 0.55),
      draw: drawAccuracy,
      hit: hitAccuracy,
    },
  ],
  describe: describeLab,
  table: ({ state, marks, data }) =>
    accuracyTable(state, shownRun({ state, marks }), data.plan.schemes, recordedRevealed(marks)),
  csv: ({ state, marks }) => labCsv(shownRun({ state, marks })),
  values: ({ state, marks, data }) => {
    const run = shownRun({ state, marks });
    return {
      plan: data.plan,
      phase: run?.phase ?? 'idle',
      mode: run?.mode ?? null,
      fallback: run?.fallback ?? null,
      losses: Object.fromEntries([...(run?.models ?? [])].map(([name, m]) => [name, [...m.losses]])),
      results: Object.fromEntries(
        [...(run?.models ?? [])].filter(([, m]) => m.result).map(([name, m]) => [name, m.result]),
      ),
      failures: Object.fromEntries(
        [...(run?.models ?? [])].filter(([, m]) => m.failure).map(([name, m]) => [name, m.failure]),
      ),
    };
  },
  extend: attachTraining,
});

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createLengthLabChart = LENGTH_LAB.create;

// The self-test's prediction for this lab ("which scheme holds up best at 4×?"): the recorded
// results would answer it, so they stay hidden until the reader has answered it or pressed Train.
const PREDICTION_ITEM = 'predict_length_lab';

/** The prediction's slot on the page, or null where the page asks none (the chart embedded alone). */
const predictionSlot = () => globalThis.document?.querySelector(`.graded-item[data-item="${PREDICTION_ITEM}"]`) ?? null;

/**
 * Whether the recorded medians may be shown: after Train, after the prediction, or where there is none
 * to spoil. Read from the marks the page keeps (attachTraining), never from the page itself: the
 * chart's Worker draws from the same marks and has no page to read.
 */
const recordedRevealed = (marks) => Boolean(marks.trainPressed) || !marks.predictionOpen;

/** The recorded rows the chart may show now (recordedRows, or none while the prediction is open). */
const shownRecorded = (view, schemes) => (recordedRevealed(view.marks) ? recordedRows(view.state, schemes) : []);

/** The run the chart shows: the last one, if it was made under the present settings. */
function shownRun({ state, marks }) {
  return marks.run && marks.run.key === settingsKey(state) ? marks.run : null;
}

/**
 * The Train and Stop buttons, the progress bar and the message beside them, in the chart's controls:
 * { train, stop, bar, say(text) } (say('') clears the message).
 */
function trainingControls(shell) {
  const train = document.createElement('button');
  train.type = 'button';
  train.className = 'chart-button';
  train.dataset.control = 'train';
  train.textContent = t('Train');
  const stop = document.createElement('button');
  stop.type = 'button';
  stop.className = 'chart-button';
  stop.dataset.control = 'stop';
  stop.textContent = t('Stop');
  stop.disabled = true;
  const bar = document.createElement('progress');
  bar.className = 'lab-progress';
  bar.max = 1;
  bar.value = 0;
  bar.setAttribute('aria-label', t('Training progress'));
  // Beside Train: why it cannot start (no scheme ticked), or what went wrong in a run.
  const message = document.createElement('span');
  message.className = 'chart-message';
  message.setAttribute('role', 'status');
  message.id = `length-lab-train-message`;
  train.setAttribute('aria-describedby', message.id);
  const field = document.createElement('div');
  field.className = 'chart-field lab-actions';
  field.append(train, stop, bar, message);
  shell.controls.append(field);
  const say = (text) => {
    if (message.textContent !== text) message.textContent = text;
    field.classList.toggle('has-message', Boolean(text));
  };
  return { train, stop, bar, say };
}

/**
 * The recorded results wait for the prediction: marks.predictionOpen says whether it is still open,
 * and the chart is drawn again once it is answered (now, or restored from an earlier visit).
 */
function watchPrediction(marks, update) {
  const slot = predictionSlot();
  marks.predictionOpen = Boolean(slot && !slot.dataset.answered);
  // The chart's first picture and words came before this mark was set: with the prediction open, again.
  if (marks.predictionOpen) update();
  if (slot)
    new MutationObserver(() => {
      marks.predictionOpen = !slot.dataset.answered;
      update();
    }).observe(slot, { attributeFilter: ['data-answered'] });
}

/**
 * The Train and Stop buttons, the progress bar and the runner. A run lives in marks.run: { key, phase
 * ('training' | 'done' | 'stopped'), mode ('worker' | 'page'), models: Map(scheme → { losses, result,
 * failure }) }, and is drawn at most once a frame while it trains.
 */
function attachTraining(chart, { state, data, marks, shell, canvases, update, afterUpdate }) {
  const runner = createLabRunner({ loadEngine });
  const { train, stop, bar, say } = trainingControls(shell);

  // While models train only the loss plot changes (the scores come with each model's end, through
  // update()), and it is redrawn at most every LIVE_REDRAW_MS: each redraw is main-thread work in the
  // frame of whatever the reader is doing meanwhile.
  let frame = 0;
  let timer = 0;
  let drawnAt = -Infinity;
  const drawSoon = () => {
    if (frame || timer) return;
    timer = setTimeout(
      () => {
        timer = 0;
        frame = requestAnimationFrame(() => {
          frame = 0;
          drawnAt = performance.now();
          canvases[0].redraw();
          showProgress();
        });
      },
      Math.max(0, LIVE_REDRAW_MS - (performance.now() - drawnAt)),
    );
  };
  const showProgress = () => {
    const run = marks.run;
    if (!run) return;
    const total = run.schemes.length * run.steps;
    const done = [...run.models.values()].reduce((sum, m) => sum + (m.result ? run.steps : m.losses.length), 0);
    bar.value = total ? done / total : 0;
    bar.setAttribute(
      'aria-valuetext',
      t('{done} of {total} models trained', { done: run.finished, total: run.schemes.length }),
    );
  };
  const settle = (phase) => {
    if (!marks.run) return;
    marks.run.phase = phase;
    marks.run.mode = runner.mode; // 'page' if the Workers' script did not load and the page took over
    marks.run.fallback = runner.fallback;
    train.disabled = false;
    stop.disabled = true;
    update(); // the description, the table and both canvases, once
    showProgress();
  };

  watchPrediction(marks, update);

  train.addEventListener('click', async () => {
    marks.trainPressed = true;
    const schemes = chosenSchemes(state);
    if (!schemes.length) return;
    const run = {
      key: settingsKey(state),
      ssmax: state.ssmax,
      phase: 'training',
      mode: null,
      schemes,
      steps: state.steps,
      length: state.length,
      finished: 0,
      models: new Map(schemes.map((s) => [s, { losses: [], result: null, failure: null }])),
    };
    marks.run = run;
    train.disabled = true;
    stop.disabled = false;
    const outcome = runner.train(
      schemes.map((scheme) => ({ name: scheme, options: labOptions(state, scheme) })),
      {
        progress(name, step, losses) {
          if (marks.run !== run) return;
          run.models.get(name).losses.push(...losses);
          drawSoon();
        },
        done(name, result) {
          if (marks.run !== run) return;
          const model = run.models.get(name);
          model.result = withoutSsmax(result);
          model.losses = Array.from(result.losses);
          run.finished += 1;
          if (run.finished < run.schemes.length) update();
          drawSoon();
        },
        failed(name, message) {
          if (marks.run !== run) return;
          run.models.get(name).failure = message;
          run.finished += 1;
          drawSoon();
        },
      },
    );
    run.mode = runner.mode;
    update(); // "Training …" in the description
    const { stopped } = await outcome;
    if (marks.run === run) settle(stopped ? 'stopped' : 'done');
  });
  stop.addEventListener('click', () => runner.stop());
  // A change of settings leaves the last run behind: training stops, and the chart waits for Train.
  afterUpdate((view) => {
    if (marks.run && marks.run.key !== settingsKey(view.state) && marks.run.phase === 'training') {
      runner.stop();
    }
    train.disabled =
      (marks.run?.phase === 'training' && marks.run.key === settingsKey(view.state)) || !data.plan.schemes.length;
    const failures = shownRun(view) ? [...marks.run.models].filter(([, m]) => m.failure) : [];
    say(
      !data.plan.schemes.length
        ? t('Tick at least one scheme to train.')
        : sentences(
            ...failures.map(([scheme, m]) =>
              t('{scheme} did not train: {why}', { scheme: schemeLabel(scheme), why: m.failure }),
            ),
          ),
    );
    if (!marks.run || marks.run.key !== settingsKey(view.state)) {
      stop.disabled = true;
      bar.value = 0;
      bar.removeAttribute('aria-valuetext');
    }
  });
  const destroy = chart.destroy;
  chart.destroy = () => {
    runner.stop();
    if (frame) cancelAnimationFrame(frame);
    clearTimeout(timer);
    destroy();
  };
}

/** The legend notes of the recorded medians: beside a run, and before one. */
const recordedNotes = () => [
  t('faint: median of {seeds} recorded seeds', { seeds: grouped(RECORDED.seeds) }),
  t('median of {seeds} recorded seeds (native build); Train draws your own', { seeds: grouped(RECORDED.seeds) }),
];

function drawLosses(ctx, width, height, colors, view) {
  const { state, data, layout } = view;
  const run = shownRun(view);
  const schemes = run ? run.schemes : (data.plan?.schemes ?? []);
  const legend = schemes.map((s) => ({ label: schemeLabel(s), color: colorOf(colors, s) }));
  // Room for every scheme's line, whichever are ticked (plot.legendSpaceFor).
  const room = plot.legendSpaceFor(
    ctx,
    legend,
    width,
    LAB_SCHEMES.map((s) => s.label),
  );
  const frame = plot.plotFrame(width, height, { bottom: 46 + room });
  const all = run ? [...run.models.values()].flatMap((m) => m.losses).filter((v) => v > 0 && Number.isFinite(v)) : [];
  // Whole decades around the losses drawn (0.001 to 10 before any).
  const lo = 10 ** Math.floor(Math.log10(all.length ? Math.min(...all) : 1e-3));
  const hi = Math.max(10 * lo, 10 ** Math.ceil(Math.log10(all.length ? Math.max(...all) : 10)));
  const y = logScale(lo, hi, frame.y + frame.h, frame.y);
  const x = linearScale(0, state.steps, frame.x, frame.x + frame.w);
  Object.assign(layout, { lossFrame: frame });
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, state.steps),
    yTicks: logTicks(lo, hi),
    xLabel: t('training step'),
    yLabel: t('loss (log)'),
    title: t('Training loss on sequences of {length} tokens', { length: grouped(state.length) }),
  });
  if (!run) plot.drawCentredNote(ctx, t('Press Train to train one model per scheme.'), frame, colors);
  for (const scheme of schemes) {
    const losses = run?.models.get(scheme)?.losses ?? [];
    if (!losses.length) continue;
    const xs = losses.map((_, i) => i + 1);
    plot.drawLine(
      ctx,
      frame,
      x,
      y,
      xs,
      losses.map((v) => Math.max(v, 1e-12)),
      { color: colorOf(colors, scheme), width: 1.5 },
    );
  }
  plot.drawLegend(ctx, frame, colors, legend, 'below');
}

/** The variants a run scored, in the legend's order. */
const scoredVariants = (run) => VARIANTS.filter((v) => run?.models.get(v.scheme)?.result?.variants.includes(v.name));

/**
 * The recorded medians (RECORDED, over its seeds, native build) of the variants of the ticked schemes,
 * when the settings are the size they were recorded at: [{ variant, row }], or [] at other settings.
 */
function recordedRows(state, schemes) {
  if (state.length !== RECORDED.trainLength || state.steps !== RECORDED.steps || state.ssmax) return [];
  const byVariant = RECORDED.tasks[state.task];
  return VARIANTS.filter((v) => schemes.includes(v.scheme) && byVariant?.[v.name]).map((v) => ({
    variant: v,
    row: byVariant[v.name],
  }));
}

/** A variant's accuracy row, or null. */
function accuracyRow(run, name) {
  const result = run?.models.get(VARIANTS.find((v) => v.name === name).scheme)?.result;
  const r = result?.variants.indexOf(name) ?? -1;
  if (!result || r < 0) return null;
  const { cols, data } = result.accuracy;
  return Array.from(data.subarray(r * cols, (r + 1) * cols));
}

function drawAccuracy(ctx, width, height, colors, view) {
  const { state, data, layout, highlighted } = view;
  const run = shownRun(view);
  const lengths = evalLengths(state.length);
  const variants = run ? scoredVariants(run) : [];
  // Until the reader trains, the recorded medians are the figure; beside a run they are drawn faint.
  const recorded = shownRecorded(view, run ? run.schemes : (data.plan?.schemes ?? []));
  const keyed = run ? variants : recorded.map((r) => r.variant);
  const legend = keyed.map((v) => ({ label: v.label, color: colorOf(colors, v.scheme), dash: v.dash }));
  const [besideRun, beforeRun] = recordedNotes();
  if (recorded.length) legend.push({ label: run ? besideRun : beforeRun, color: colors.muted, dash: [1, 3] });
  // Room for every variant's line and either note, whatever is ticked or scored (plot.legendSpaceFor).
  const variantLabels = VARIANTS.map((v) => v.label);
  const room = plot.legendSpaceFor(ctx, legend, width, [...variantLabels, besideRun], [...variantLabels, beforeRun]);
  const frame = plot.plotFrame(width, height, { bottom: 46 + room });
  const x = linearScale(0, lengths[lengths.length - 1], frame.x, frame.x + frame.w);
  const y = linearScale(0, 1, frame.y + frame.h, frame.y);
  Object.assign(layout, { frame, x, y, lengths, variants: keyed.map((v) => v.name), recorded: !run });
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: lengths.filter((_, i) => width >= 480 || i % 2 === 1 || i === 0),
    yTicks: [0, 0.25, 0.5, 0.75, 1],
    yTickLabel: percent,
    xLabel: t('evaluation length (tokens)'),
    yLabel: t('targets right'),
    title: t('Accuracy at lengths it never trained on'),
  });
  // The trained length: everything right of it is new to the model.
  const tx = Math.round(x(state.length)) + 0.5;
  plot.drawFrameColumn(ctx, frame, tx, {
    color: highlighted === 'trained-length' ? colors.fg : colors.muted,
    width: highlighted === 'trained-length' ? 2.5 : 1,
    dash: [4, 4],
  });
  if (!variants.length && !recorded.length) {
    const waiting = run
      ? t('Scores appear as each model finishes.')
      : recordedRevealed(view.marks)
        ? t('Press Train to train one model per scheme.')
        : t('Answer the prediction above, or press Train, to see the recorded results.');
    plot.drawCentredNote(ctx, waiting, frame, colors);
  }
  const fade = (name) => highlighted && highlighted !== 'trained-length' && highlighted !== name;
  for (const { variant: v, row } of recorded) {
    ctx.save();
    ctx.globalAlpha = run ? 0.35 : fade(v.name) ? 0.3 : 1;
    const emphasised = !run && highlighted === v.name;
    plot.drawLine(ctx, frame, x, y, lengths, row, {
      color: colorOf(colors, v.scheme),
      width: run ? 1 : emphasised ? 3.5 : 2,
      dash: v.dash ?? [],
    });
    ctx.restore();
  }
  for (const v of variants) {
    const row = accuracyRow(run, v.name);
    const emphasised = highlighted === v.name;
    ctx.save();
    if (fade(v.name)) ctx.globalAlpha = 0.3;
    plot.drawLine(ctx, frame, x, y, lengths, row, {
      color: colorOf(colors, v.scheme),
      width: emphasised ? 3.5 : 2,
      dash: v.dash ?? [],
    });
    ctx.fillStyle = colorOf(colors, v.scheme);
    for (let i = 0; i < lengths.length; i += 1) {
      ctx.beginPath();
      ctx.arc(x(lengths[i]), y(row[i]), emphasised ? 3.5 : 2.5, 0, 2 * Math.PI);
      ctx.fill();
    }
    ctx.restore();
  }
  // The trained length's name just above the x-axis, drawn over the lines on a backing of the chart's
  // background, so it stays readable where a line runs low.
  ctx.save();
  ctx.font = `11px ${FONT}`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'bottom';
  const name = t('trained length');
  ctx.globalAlpha = 0.85;
  ctx.fillStyle = colors.bg;
  ctx.fillRect(tx + 2, frame.y + frame.h - 17, ctx.measureText(name).width + 4, 14);
  ctx.globalAlpha = 1;
  ctx.fillStyle = highlighted === 'trained-length' ? colors.fg : colors.muted;
  ctx.fillText(name, tx + 4, frame.y + frame.h - 4);
  ctx.restore();
  plot.drawLegend(ctx, frame, colors, legend, 'below');
}

/** The line nearest the pointer (within 10 px at the nearest evaluation length), or the trained-length marker. */
function hitAccuracy(view, px, py) {
  const { layout } = view;
  const run = shownRun(view);
  if (!layout.frame || px < layout.frame.x || px > layout.frame.x + layout.frame.w) return null;
  if (Math.abs(px - layout.x(view.state.length)) < 6) return 'trained-length';
  const rows = run
    ? Object.fromEntries(layout.variants.map((name) => [name, accuracyRow(run, name)]))
    : Object.fromEntries(shownRecorded(view, view.data.plan.schemes).map((r) => [r.variant.name, r.row]));
  let j = 0;
  layout.lengths.forEach((L, i) => {
    if (Math.abs(layout.x(L) - px) < Math.abs(layout.x(layout.lengths[j]) - px)) j = i;
  });
  let best = 10;
  let nearest = null;
  for (const name of layout.variants) {
    if (!rows[name]) continue;
    const gap = Math.abs(layout.y(rows[name][j]) - py);
    if (gap < best) [best, nearest] = [gap, name];
  }
  return nearest;
}

function describeLab(view) {
  const { state, data } = view;
  const run = shownRun(view);
  const task = taskLabel(state.task);
  if (!data.plan.schemes.length) return t('No scheme ticked: tick at least one to train.');
  if (!run) {
    const recorded = shownRecorded(view, data.plan.schemes);
    const drawn = !recordedRevealed(view.marks)
      ? t('Answer the prediction above, or press Train, to see the recorded results.')
      : recorded.length
        ? t('Drawn until then: the median of {seeds} recorded seeds; at 4× ({four} tokens): {atFour}.', {
            seeds: grouped(RECORDED.seeds),
            four: grouped(4 * state.length),
            atFour: listed(
              recorded.map((r) => t('{variant} {accuracy}', { variant: r.variant.label, accuracy: percent(r.row[3]) })),
            ),
          })
        : '';
    const planned = tn(
      'Not trained yet. Train runs {count} model ({schemes}) on the “{task}” task at length {length} for {steps} steps with seed {seed}, then scores it at 1× to 8× that length.',
      'Not trained yet. Train runs {count} models ({schemes}) on the “{task}” task at length {length} for {steps} steps with seed {seed}, then scores each at 1× to 8× that length.',
      data.plan.schemes.length,
      {
        schemes: listed(data.plan.schemes.map(schemeLabel)),
        task,
        length: grouped(state.length),
        steps: grouped(state.steps),
        seed: grouped(state.seed),
      },
    );
    return sentences(planned, ssmaxNote(state.ssmax), drawn);
  }
  if (run.phase === 'training') {
    const training = tn(
      'Training {count} model on the “{task}” task at length {length}…',
      'Training {count} models on the “{task}” task at length {length}…',
      run.schemes.length,
      { task, length: grouped(state.length) },
    );
    return sentences(training, ssmaxNote(run.ssmax));
  }
  const scored = scoredVariants(run);
  if (!scored.length) {
    return run.phase === 'stopped' ? t('Stopped before any model finished.') : t('No model finished.');
  }
  const at = (factor) =>
    listed(
      scored.map((v) =>
        t('{variant} {accuracy}', { variant: v.label, accuracy: percent(accuracyRow(run, v.name)[factor - 1]) }),
      ),
    );
  const stoppedNote = run.phase === 'stopped' ? t('Stopped: only the models that finished are scored.') : '';
  return sentences(
    t(
      'Trained at {length} tokens on the “{task}” task (seed {seed}). Targets right at the trained length: {one}. At 4× ({four} tokens): {atFour}.',
      {
        length: grouped(state.length),
        task,
        seed: grouped(state.seed),
        one: at(1),
        four: grouped(4 * state.length),
        atFour: at(4),
      },
    ),
    ssmaxNote(run.ssmax),
    stoppedNote,
  );
}

/** The description's word on the length-scaled softmax: a setting the picture does not draw before a run. */
const ssmaxNote = (on) => (on ? t('Every model uses length-scaled softmax (SSMax).') : '');

const taskLabel = (task) => CHART_DECLARATIONS['length-lab'].controls.task.options.find((o) => o.value === task).label;

/**
 * The accuracy table: the run's scores, or before a run the recorded medians of `schemes`; while the
 * prediction is open (`revealed` false) their rows are named and their cells left empty.
 */
function accuracyTable(state, run, schemes, revealed) {
  const lengths = evalLengths(state.length);
  const columns = [t('scheme'), ...lengths.map((L) => grouped(L))];
  const recorded = recordedRows(state, schemes);
  if (!run && !revealed) {
    return {
      caption: t('Recorded results by evaluation length: answer the prediction above, or press Train, to see them'),
      columns,
      rows: recorded.map(({ variant }) => [variant.label, ...lengths.map(() => '—')]),
    };
  }
  if (!run) {
    return {
      caption: t('Median of {seeds} recorded seeds: fraction of targets right by evaluation length', {
        seeds: grouped(RECORDED.seeds),
      }),
      columns,
      rows: recorded.map(({ variant, row }) => [variant.label, ...row.map(percent)]),
    };
  }
  return {
    caption: run.ssmax
      ? t(
          'Fraction of targets right by evaluation length, with length-scaled softmax; below, each layer’s attention on position 0',
        )
      : t('Fraction of targets right by evaluation length; below, each layer’s attention on position 0'),
    columns,
    rows: [
      ...scoredVariants(run).map((v) => [v.label, ...accuracyRow(run, v.name).map(percent)]),
      ...sinkRows(run).map(({ scheme, layer, shares }) => [
        t('{scheme}: on position 0, layer {layer}', { scheme: schemeLabel(scheme), layer: grouped(layer) }),
        ...shares.map(percent),
      ]),
    ],
  };
}

/**
 * The sink diagnostic of every finished model: per layer (1, 2, …), the attention its queries put on
 * position 0 at each evaluation length (the engine's sinkShare, layers × lengths).
 */
function sinkRows(run) {
  const rows = [];
  for (const [scheme, model] of run?.models ?? []) {
    const sink = model.result?.sinkShare;
    if (!sink?.rows) continue;
    for (let l = 0; l < sink.rows; l += 1) {
      rows.push({ scheme, layer: l + 1, shares: Array.from(sink.data.slice(l * sink.cols, (l + 1) * sink.cols)) });
    }
  }
  return rows;
}

function labCsv(run) {
  const rows = [];
  for (const [scheme, model] of run?.models ?? []) {
    model.losses.forEach((loss, i) => rows.push(['loss', scheme, i + 1, loss]));
  }
  for (const v of run ? scoredVariants(run) : []) {
    const result = run.models.get(v.scheme).result;
    accuracyRow(run, v.name).forEach((a, i) => rows.push(['accuracy', v.name, result.evalLengths[i], a]));
  }
  for (const { scheme, layer, shares } of sinkRows(run)) {
    const lengths = run.models.get(scheme).result.evalLengths;
    shares.forEach((share, i) => rows.push(['sink', `${scheme} layer ${layer}`, lengths[i], share]));
  }
  return { header: ['measure', 'scheme', 'step_or_length', 'value'], rows };
}
