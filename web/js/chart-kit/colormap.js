// Colour maps for the heatmaps: matplotlib's RdBu (diverging, −1 red … +1 blue) and Blues
// (sequential, 0 … 1), as lookup tables of packed RGBA for ImageData.

// matplotlib's RdBu anchor colours (ColorBrewer), low to high.
const RDBU = [
  '#67001f',
  '#b2182b',
  '#d6604d',
  '#f4a582',
  '#fddbc7',
  '#f7f7f7',
  '#d1e5f0',
  '#92c5de',
  '#4393c3',
  '#2166ac',
  '#053061',
];
const BLUES = ['#f7fbff', '#deebf7', '#c6dbef', '#9ecae1', '#6baed6', '#4292c6', '#2171b5', '#08519c', '#08306b'];

function hexToRgb(hex) {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

function buildTable(anchors, size) {
  const rgb = anchors.map(hexToRgb);
  const packed = new Uint32Array(size);
  const css = new Array(size);
  const luminance = new Float64Array(size);
  const little = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  for (let i = 0; i < size; i++) {
    const t = (i / (size - 1)) * (rgb.length - 1);
    const k = Math.min(Math.floor(t), rgb.length - 2);
    const f = t - k;
    const c = [0, 1, 2].map((j) => Math.round(rgb[k][j] + (rgb[k + 1][j] - rgb[k][j]) * f));
    packed[i] = little
      ? (255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0]
      : (c[0] << 24) | (c[1] << 16) | (c[2] << 8) | 255;
    css[i] = `rgb(${c[0]},${c[1]},${c[2]})`;
    luminance[i] = relativeLuminance(c);
  }
  return { packed, css, luminance, size };
}

/** WCAG 2 relative luminance of an sRGB colour [r, g, b] (0–255). */
function relativeLuminance(rgb) {
  const [r, g, b] = rgb.map((v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const DARK_TEXT = '#111827';
const DARK_TEXT_LUMINANCE = relativeLuminance(hexToRgb(DARK_TEXT));

/**
 * The text colour for a number written on entry i of `table`: white or near-black, whichever has the
 * higher WCAG contrast on that cell (both ends of a diverging map are dark, so it is not a threshold
 * on the value).
 */
export function textColorOn(table, i) {
  const l = table.luminance[i];
  return 1.05 / (l + 0.05) >= (l + 0.05) / (DARK_TEXT_LUMINANCE + 0.05) ? '#ffffff' : DARK_TEXT;
}

/** RdBu with 1,024 entries: packed[i] is an RGBA pixel (ImageData byte order), css[i] a CSS colour. */
export const rdbu = buildTable(RDBU, 1024);
/** Blues with 256 entries. */
export const blues = buildTable(BLUES, 256);

/** Index into `table` for value v on [lo, hi] (clamped). */
export function colorIndex(table, v, lo, hi) {
  const t = (v - lo) / (hi - lo);
  const i = Math.round(t * (table.size - 1));
  return i < 0 ? 0 : i >= table.size ? table.size - 1 : i;
}
