// Geometry of a drawn diagram, read back from its SVG: node boxes, and points along each edge.
// Used by the lesson tests to check that no edge runs through a box it does not join.

/** Node boxes { x0, y0, x1, y1 } of an SVG string from web/site-builder/diagrams.mjs, in drawing order. */
export function nodeBoxes(svg) {
  const boxes = [];
  for (const g of svg.matchAll(/<g class="diagram-node[^"]*">(.*?)<\/g>/g)) {
    const shape = g[1];
    let m;
    if ((m = /<rect x="([-\d.]+)" y="([-\d.]+)" width="([-\d.]+)" height="([-\d.]+)"/.exec(shape))) {
      const [x, y, w, h] = m.slice(1).map(Number);
      boxes.push({ x0: x, y0: y, x1: x + w, y1: y + h });
    } else if ((m = /<circle cx="([-\d.]+)" cy="([-\d.]+)" r="([-\d.]+)"/.exec(shape))) {
      const [cx, cy, r] = m.slice(1).map(Number);
      boxes.push({ x0: cx - r, y0: cy - r, x1: cx + r, y1: cy + r });
    } else if ((m = /<polygon points="([^"]+)"/.exec(shape))) {
      const pts = m[1].split(' ').map((p) => p.split(',').map(Number));
      boxes.push({
        x0: Math.min(...pts.map((p) => p[0])),
        y0: Math.min(...pts.map((p) => p[1])),
        x1: Math.max(...pts.map((p) => p[0])),
        y1: Math.max(...pts.map((p) => p[1])),
      });
    }
  }
  return boxes;
}

/** Points every 1/64 along each cubic of each edge path: [[{x, y}, …], …] in drawing order. */
export function edgePoints(svg) {
  const edges = [];
  for (const m of svg.matchAll(/<path class="diagram-edge[^"]*" d="([^"]+)"/g)) {
    const numbers = m[1].match(/-?[\d.]+/g).map(Number);
    const points = [];
    let [x, y] = numbers.slice(0, 2);
    for (let i = 2; i + 5 < numbers.length; i += 6) {
      const [c1x, c1y, c2x, c2y, ex, ey] = numbers.slice(i, i + 6);
      for (let k = 0; k <= 64; k++) {
        const t = k / 64;
        const u = 1 - t;
        points.push({
          x: u * u * u * x + 3 * u * u * t * c1x + 3 * u * t * t * c2x + t * t * t * ex,
          y: u * u * u * y + 3 * u * u * t * c1y + 3 * u * t * t * c2y + t * t * t * ey,
        });
      }
      [x, y] = [ex, ey];
    }
    edges.push(points);
  }
  return edges;
}
