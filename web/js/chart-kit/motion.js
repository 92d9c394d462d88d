// Motion for the chart skeleton: a chart may declare one animation (a stretch, a sweep) that a
// Play button in its toolbar runs on requestAnimationFrame, every frame through the chart's own
// set(patch). None at all when the reader asks for reduced motion: the button is absent and a
// sentence says why. Any motion stops as soon as the reader takes control (a press, a key, a
// control's input) anywhere in the chart.

import { t } from '../locale/i18n.js';

const REDUCED = '(prefers-reduced-motion: reduce)';

/**
 * Attaches `spec` (spec.motion) to a chart. spec:
 * - label: the Play button's text (e.g. 'Play the stretch'); duration: ms for one run (default 4000).
 * - start(view) → plan: called when Play is pressed; frame(t, plan, view) → patch for t in [0, 1].
 * context: { root (the chart's element: the reader's input there stops the motion), toolbar (where
 * the button goes), view, set }. Returns { play(), stop(), playing (getter), destroy() }.
 */
export function attachMotion(spec, { root, toolbar, view, set }) {
  const duration = spec.duration ?? 4000;
  const media = matchMedia(REDUCED);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'chart-button chart-play';
  button.dataset.control = 'play';
  const why = document.createElement('p');
  why.className = 'chart-motion-note';
  why.textContent = t(
    'The animation is off because your device asks for reduced motion; drag the handles or use their arrow keys instead.',
  );
  toolbar.append(button, why);
  let frame = 0;
  let plan = null;
  let started = 0;

  const show = () => {
    const reduced = media.matches;
    button.hidden = reduced;
    why.hidden = !reduced;
    button.textContent = frame ? t('Pause') : spec.label;
    button.setAttribute('aria-pressed', String(Boolean(frame)));
    root.classList.toggle('is-playing', Boolean(frame));
  };

  function tick(now) {
    started ||= now;
    const progress = Math.min(1, (now - started) / duration);
    set(spec.frame(progress, plan, view()));
    if (progress < 1 && frame) frame = requestAnimationFrame(tick);
    else stop();
  }

  function play() {
    if (media.matches || frame) return;
    plan = spec.start(view());
    started = 0;
    frame = requestAnimationFrame(tick);
    show();
  }

  // Every step the reader takes stops the motion, so a stop with nothing playing writes nothing: the
  // button's text set again is a new text node, laid out again in each frame of a drag.
  function stop() {
    if (!frame) return;
    cancelAnimationFrame(frame);
    frame = 0;
    show();
  }

  // The reader takes over: any press, key or control input in the chart other than on the button.
  const takeOver = (event) => {
    if (frame && event.target !== button) stop();
  };
  const onReduced = () => {
    stop();
    show();
  };
  button.addEventListener('click', () => (frame ? stop() : play()));
  for (const type of ['pointerdown', 'keydown', 'input', 'change']) root.addEventListener(type, takeOver, true);
  media.addEventListener('change', onReduced);
  show();
  return {
    play,
    stop,
    get playing() {
      return Boolean(frame);
    },
    destroy() {
      stop();
      for (const type of ['pointerdown', 'keydown', 'input', 'change']) root.removeEventListener(type, takeOver, true);
      media.removeEventListener('change', onReduced);
      button.remove();
      why.remove();
    },
  };
}
