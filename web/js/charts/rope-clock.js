// Widget: one RoPE pair as a clock face (d = 2, θ = 1 by default). q and k are hands turned by
// m·θ and n·θ; the arc is the angle between them and the score depends only on n − m.
// Drag a hand, turn the selected hand with the arrow keys (the clock is focusable), or type m
// and n; presets replay the lesson's (3, 7), (103, 107) and (3, 8).

import { createDeclaredControls } from '../chart-kit/chart-controls.js';
import { buttonControl } from '../chart-kit/controls.js';
import { decimal, fixed, significant } from '../format.js';
import { FONT, createPlotCanvas } from '../chart-kit/canvas.js';
import { createChartShell } from '../chart-kit/shell.js';
import { CHART_DECLARATIONS } from './declarations.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
export const { controls: CONTROLS, aliases: URL_ALIASES } = CHART_DECLARATIONS['rope-clock'];
const fmt = (v, digits = 3) => fixed(v, digits);
const HANDS = { m: 'query hand q', n: 'key hand k' };

/** The RoPE clock. */
export function createRopeClockChart(slot, engine) {
  let clock = null;
  let geometry = null;
  let selected = 'm'; // the hand the arrow keys turn: 'm' (q) or 'n' (k)
  let focused = false;
  const shell = createChartShell(slot, 'rope-clock', {
    exports: {
      getCanvases: () => [plot.canvas],
      getCsv: () => ({
        header: ['m', 'n', 'theta', 'q_x', 'q_y', 'k_x', 'k_y', 'angle_between', 'score', 'relative_score'],
        rows: [
          [
            state.m,
            state.n,
            state.theta,
            ...clock.qRotated,
            ...clock.kRotated,
            clock.angleBetween,
            clock.score,
            clock.relativeScore,
          ],
        ],
      }),
    },
  });
  const { state, controls, writeUrl } = createDeclaredControls({
    id: 'rope-clock',
    aliases: URL_ALIASES,
    declarations: CONTROLS,
    shell,
    onChange: update,
  });
  const preset = (m, n) =>
    buttonControl({
      name: `preset-${m}-${n}`,
      label: `m = ${m}, n = ${n}`,
      onClick: () => {
        controls.m.set(m);
        controls.n.set(n);
      },
    });
  shell.controls.append(
    ...Object.values(controls).map((c) => c.element),
    preset(3, 7).element,
    preset(103, 107).element,
    preset(3, 8).element,
  );

  const plot = createPlotCanvas(shell.plot, {
    label:
      'Clock face: the query and key of one RoPE pair as hands turned by their positions, with the angle between them',
    aspect: 0.62,
    minHeight: 260,
    maxHeight: 440,
    draw(ctx, width, height, colors) {
      if (!clock) return;
      const r = Math.min(height / 2 - 26, width / 2 - 70, 190);
      const cx = width > 560 ? r + 90 : width / 2;
      const cy = height / 2 + 6;
      geometry = { cx, cy, r };
      ctx.strokeStyle = colors.grid;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.fillStyle = colors.muted;
      ctx.font = `11px ${FONT}`;
      for (let k = 0; k < 12; k++) {
        const a = (k * Math.PI) / 6;
        ctx.beginPath();
        ctx.moveTo(cx + Math.cos(a) * r * 0.93, cy - Math.sin(a) * r * 0.93);
        ctx.lineTo(cx + Math.cos(a) * r, cy - Math.sin(a) * r);
        ctx.strokeStyle = colors.muted;
        ctx.stroke();
      }
      // The unrotated q = k = (1, 0) as a faint hand.
      hand(ctx, cx, cy, r * 0.95, 0, colors.grey, 1.5, '');
      // The angle between the hands, from q to k.
      const qa = clock.qAngle;
      ctx.strokeStyle = colors.muted;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.arc(cx, cy, r * 0.3, -qa, -(qa + clock.angleBetween), clock.angleBetween > 0);
      ctx.stroke();
      hand(ctx, cx, cy, r * 0.9, clock.kAngle, colors.blue, 3.5, `k at n = ${trim(state.n)}`);
      hand(ctx, cx, cy, r * 0.75, clock.qAngle, colors.red, 3.5, `q at m = ${trim(state.m)}`);
      if (focused) {
        // The hand the arrow keys turn: a ring at its tip.
        const length = selected === 'm' ? r * 0.75 : r * 0.9;
        const angle = selected === 'm' ? clock.qAngle : clock.kAngle;
        ctx.strokeStyle = selected === 'm' ? colors.red : colors.blue;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(cx + Math.cos(angle) * length, cy - Math.sin(angle) * length, 9, 0, 2 * Math.PI);
        ctx.stroke();
      }
      ctx.fillStyle = colors.fg;
      ctx.beginPath();
      ctx.arc(cx, cy, 4, 0, 2 * Math.PI);
      ctx.fill();
      // Readout beside the clock (below it on narrow screens).
      const lines = [
        `q turned by m·θ = ${fmt(state.m * state.theta, 2)} rad → (${fmt(clock.qRotated[0])}, ${fmt(clock.qRotated[1])})`,
        `k turned by n·θ = ${fmt(state.n * state.theta, 2)} rad → (${fmt(clock.kRotated[0])}, ${fmt(clock.kRotated[1])})`,
        `angle from q to k: ${fmt(clock.angleBetween)} rad`,
        `score ⟨R_m q, R_n k⟩ = ${fmt(clock.score)}`,
        `⟨q, R_(n−m) k⟩ = ${fmt(clock.relativeScore)} (distance ${trim(state.n - state.m)})`,
      ];
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      const tx = cx + r + 28;
      // Beside the clock in 13 px, or 12 or 11 px when that is what fits; on narrow screens the
      // live description under the chart carries the numbers instead.
      const size = [13, 12, 11].find((px) => {
        ctx.font = `${px}px ${FONT}`;
        return Math.max(...lines.map((line) => ctx.measureText(line).width)) <= width - tx - 8;
      });
      if (!size) return;
      ctx.font = `${size}px ${FONT}`;
      let ty = cy - 50;
      for (const line of lines) {
        ctx.fillStyle = colors.fg;
        ctx.fillText(line, tx, ty);
        ty += size + 7;
      }
    },
  });

  function hand(ctx, cx, cy, length, angle, color, width, label) {
    const x = cx + Math.cos(angle) * length;
    const y = cy - Math.sin(angle) * length;
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.lineCap = 'round';
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.lineTo(x, y);
    ctx.stroke();
    if (label) {
      ctx.fillStyle = color;
      ctx.font = `600 12px ${FONT}`;
      ctx.textAlign = Math.cos(angle) >= 0 ? 'left' : 'right';
      ctx.textBaseline = 'middle';
      ctx.fillText(label, x + Math.cos(angle) * 8, y - Math.sin(angle) * 8 - (Math.abs(Math.sin(angle)) < 0.2 ? 8 : 0));
    }
  }

  // Dragging a hand: the nearer hand follows the pointer; its position changes by the turned angle / θ.
  let dragging = null;
  const pointerAngle = (event) => {
    const rect = plot.canvas.getBoundingClientRect();
    return Math.atan2(-(event.clientY - rect.top - geometry.cy), event.clientX - rect.left - geometry.cx);
  };
  plot.canvas.addEventListener('pointerdown', (event) => {
    if (!geometry || !clock) return;
    const a = pointerAngle(event);
    const distance = (b) => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));
    dragging = { which: distance(clock.qAngle) <= distance(clock.kAngle) ? 'm' : 'n', last: a };
    select(dragging.which);
    plot.canvas.setPointerCapture(event.pointerId);
  });
  plot.canvas.addEventListener('pointermove', (event) => {
    if (!dragging) return;
    const a = pointerAngle(event);
    const turned = Math.atan2(Math.sin(a - dragging.last), Math.cos(a - dragging.last));
    dragging.last = a;
    const next = Math.round((state[dragging.which] + turned / state.theta) * 100) / 100;
    controls[dragging.which].set(next);
  });
  const stop = () => {
    dragging = null;
  };
  plot.canvas.addEventListener('pointerup', stop);
  plot.canvas.addEventListener('pointercancel', stop);

  // Keyboard: the clock is a focusable slider for the selected hand. Arrows turn it by one
  // position (Page Up/Down by ten), Enter or Space switches hands, q/m and k/n pick one.
  const canvas = plot.canvas;
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'slider');
  canvas.setAttribute('aria-orientation', 'horizontal');
  canvas.setAttribute('aria-valuemin', String(controls.m.input.min));
  canvas.setAttribute('aria-valuemax', String(controls.m.input.max));
  canvas.setAttribute(
    'aria-label',
    'RoPE clock. Arrow keys turn the selected hand by one position, Enter switches between the q and k hands',
  );
  const hint = document.createElement('p');
  hint.className = 'chart-note';
  hint.textContent =
    'Keyboard: focus the clock, then ← → (or ↑ ↓) turn the selected hand one position, Page Up/Down ten; Enter switches between q and k. The m and n fields take exact positions.';
  function select(which) {
    selected = which;
    syncSlider();
  }
  function syncSlider() {
    canvas.setAttribute('aria-valuenow', String(state[selected]));
    canvas.setAttribute('aria-valuetext', `${HANDS[selected]} at position ${trim(state[selected])}`);
  }
  canvas.addEventListener('keydown', (event) => {
    const steps = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
    if (event.key in steps) {
      controls[selected].set(Math.round((state[selected] + steps[event.key]) * 100) / 100);
    } else if (event.key === 'Enter' || event.key === ' ') {
      select(selected === 'm' ? 'n' : 'm');
      plot.redraw();
    } else if (['q', 'm', 'k', 'n'].includes(event.key)) {
      select(event.key === 'q' || event.key === 'm' ? 'm' : 'n');
      plot.redraw();
    } else {
      return;
    }
    event.preventDefault();
  });
  canvas.addEventListener('focus', () => {
    focused = true;
    plot.redraw();
  });
  canvas.addEventListener('blur', () => {
    focused = false;
    plot.redraw();
  });
  shell.plot.append(hint);

  function update(patch = {}) {
    Object.assign(state, patch);
    writeUrl(state);
    clock = engine.ropeClock([1, 0], [1, 0], state.m, state.n, state.theta);
    plot.redraw();
    syncSlider();
    shell.describe(
      `q at position ${trim(state.m)} and k at position ${trim(state.n)}, θ ${significant(state.theta)}: the hands are ${fmt(Math.abs(clock.angleBetween))} rad apart and the score is ${fmt(clock.score)}, ` +
        `the same as ⟨q, R_(n−m) k⟩ = ${fmt(clock.relativeScore)} for distance ${trim(state.n - state.m)}.`,
    );
    shell.setData({
      caption: 'The two hands',
      columns: ['hand', 'position', 'turned (rad)', 'x', 'y'],
      rows: [
        ['q', state.m, state.m * state.theta, clock.qRotated[0], clock.qRotated[1]],
        ['k', state.n, state.n * state.theta, clock.kRotated[0], clock.kRotated[1]],
        ['score', '', '', clock.score, ''],
      ],
    });
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
      return clock;
    },
  };
}

function trim(v) {
  return decimal(v, 2);
}
