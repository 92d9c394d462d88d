// A 2D context that lays a chart out without painting it. When the chart Worker paints a canvas, the
// page still runs the chart's draw on this context: the draw's record (its panels, legends and the
// height it asks for), its layout (the scales hit() and the handles read) and the canvas's size come
// out of it as they would from a real draw, while every painting call does nothing. Only text is
// measured for real, on a context of its own, and each (font, text) is measured once: a step that
// moves one number measures almost nothing new.

/** The painting calls a draw may make; here they do nothing. */
const PAINTING = [
  'arc',
  'arcTo',
  'beginPath',
  'bezierCurveTo',
  'clearRect',
  'clip',
  'closePath',
  'drawImage',
  'ellipse',
  'fill',
  'fillRect',
  'fillText',
  'lineTo',
  'moveTo',
  'putImageData',
  'quadraticCurveTo',
  'rect',
  'roundRect',
  'stroke',
  'strokeRect',
  'strokeText',
];

/** At most this many measured texts are kept; past it the cache starts again (a long session of typed sentences). */
const MEASURED_MAX = 4000;

let measurer = null;
const measured = new Map(); // font + '\u0001' + text → TextMetrics

function measure(font, text) {
  const key = `${font}\u0001${text}`;
  let metrics = measured.get(key);
  if (!metrics) {
    measurer ??= (
      typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1) : document.createElement('canvas')
    ).getContext('2d');
    measurer.font = font;
    metrics = measurer.measureText(text);
    if (measured.size >= MEASURED_MAX) measured.clear();
    measured.set(key, metrics);
  }
  return metrics;
}

/**
 * A layout context: the state a draw sets and reads back (font, alignment, line dash, the transform
 * with save and restore), text measured for real, and no pixels. `canvas` is a stand-in holding the
 * device-pixel size the caller gives it. `layoutOnly` tells drawCached (canvas.js) to skip its layers.
 */
export function createLayoutContext() {
  const defaults = () => ({
    font: '10px sans-serif',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    fillStyle: '#000000',
    strokeStyle: '#000000',
    lineWidth: 1,
    lineCap: 'butt',
    lineJoin: 'miter',
    globalAlpha: 1,
    imageSmoothingEnabled: true,
    dash: [],
    transform: [1, 0, 0, 1, 0, 0],
  });
  let current = defaults();
  const stack = [];
  const ctx = {
    layoutOnly: true,
    canvas: { width: 1, height: 1 },
    save() {
      stack.push({ ...current, dash: [...current.dash], transform: [...current.transform] });
    },
    restore() {
      if (stack.length) current = stack.pop();
    },
    reset() {
      stack.length = 0;
      current = defaults();
    },
    measureText: (text) => measure(current.font, String(text)),
    setLineDash(segments) {
      current.dash = [...segments];
    },
    getLineDash: () => [...current.dash],
    setTransform(a, b, c, d, e, f) {
      current.transform = typeof a === 'object' ? [a.a, a.b, a.c, a.d, a.e, a.f] : [a, b, c, d, e, f];
    },
    getTransform() {
      const [a, b, c, d, e, f] = current.transform;
      return { a, b, c, d, e, f, is2D: true };
    },
    transform(a, b, c, d, e, f) {
      const [A, B, C, D, E, F] = current.transform;
      current.transform = [
        A * a + C * b,
        B * a + D * b,
        A * c + C * d,
        B * c + D * d,
        A * e + C * f + E,
        B * e + D * f + F,
      ];
    },
    translate(x, y) {
      ctx.transform(1, 0, 0, 1, x, y);
    },
    scale(x, y) {
      ctx.transform(x, 0, 0, y, 0, 0);
    },
    rotate(angle) {
      const cos = Math.cos(angle);
      const sin = Math.sin(angle);
      ctx.transform(cos, sin, -sin, cos, 0, 0);
    },
    createLinearGradient: () => ({ addColorStop() {} }),
    createRadialGradient: () => ({ addColorStop() {} }),
    isPointInPath: () => false,
  };
  for (const name of PAINTING) ctx[name] = () => {};
  for (const name of [
    'font',
    'textAlign',
    'textBaseline',
    'fillStyle',
    'strokeStyle',
    'lineWidth',
    'lineCap',
    'lineJoin',
    'globalAlpha',
    'imageSmoothingEnabled',
  ]) {
    Object.defineProperty(ctx, name, {
      get: () => current[name],
      set: (value) => {
        current[name] = value;
      },
    });
  }
  return ctx;
}
