// Draws the lesson's flow diagrams as inline SVG at build time from a declarative description
// (web/lesson/diagrams.json): a layered layout, left to right for wide screens and top to bottom
// for narrow ones. Colours come from CSS classes and custom properties, never inline styles.
import { translate } from '../js/locale/i18n.js';

const FONT_PX = 13;
const LINE_PX = 17;
const PAD_X = 12;
const PAD_Y = 8;
const NODE_GAP = 16; // between nodes of one layer
const LAYER_GAP = 34; // between layers, widened for edge labels
const MAX_WIDE_WIDTH = 740; // wider left-to-right drawings would shrink their text: draw top to bottom instead
const MARGIN = 6;
const DUMMY_SIZE = 2;

/** The texts in English: the default where no page language's t is given. */
const inEnglish = (english, params) => translate({}, 'en', english, params);

/** Escapes text for SVG/HTML content and attribute values. */
export function escapeXml(text) {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
}

// A rough width of a label in the page's system sans-serif at FONT_PX: no fonts exist at build
// time, so widths are estimated per character class and erred on the wide side.
function textWidth(line) {
  let w = 0;
  for (const ch of line) {
    if ("il.,:;|!'`()[]{} ".includes(ch)) w += 4.2;
    else if ('mwMW@×≥'.includes(ch)) w += 11;
    else if (ch >= 'A' && ch <= 'Z') w += 8.6;
    // CJK ideographs, kana and full-width punctuation are about 1 em wide.
    else if (/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/.test(ch)) w += 13.5;
    else w += 7.3;
  }
  return w * (FONT_PX / 13);
}

function nodeSize(node) {
  const lines = node.label.split('\n');
  const textW = Math.max(...lines.map(textWidth));
  const textH = lines.length * LINE_PX;
  if (node.shape === 'circle') {
    const d = Math.max(textW, textH) + 2 * PAD_Y + 4;
    return { w: d, h: d };
  }
  if (node.shape === 'diamond') return { w: textW + 4 * PAD_X, h: textH + 4 * PAD_Y };
  return { w: textW + 2 * PAD_X, h: textH + 2 * PAD_Y };
}

/** Validates one description; throws an Error naming the diagram and the field. */
export function validateDiagram(id, spec) {
  if (!spec || !Array.isArray(spec.nodes) || !Array.isArray(spec.edges) || typeof spec.title !== 'string') {
    throw new Error(`diagram ${id}: needs title (string), nodes (array) and edges (array)`);
  }
  const ids = new Set();
  for (const n of spec.nodes) {
    if (typeof n.id !== 'string' || typeof n.label !== 'string')
      throw new Error(`diagram ${id}: every node needs id and label strings`);
    if (ids.has(n.id)) throw new Error(`diagram ${id}: node id ${n.id} is used twice`);
    if (n.shape && !['box', 'circle', 'diamond'].includes(n.shape))
      throw new Error(`diagram ${id}: node ${n.id} has unknown shape ${n.shape}`);
    ids.add(n.id);
  }
  for (const e of spec.edges) {
    if (!ids.has(e.from) || !ids.has(e.to))
      throw new Error(`diagram ${id}: edge ${e.from} → ${e.to} names a node that does not exist`);
    if (e.style && !['solid', 'dotted'].includes(e.style))
      throw new Error(`diagram ${id}: edge ${e.from} → ${e.to} has unknown style ${e.style}`);
  }
}

// Layers by longest path from the sources; long edges get one dummy point per skipped layer.
function layout(spec, direction) {
  const nodes = new Map(spec.nodes.map((n, i) => [n.id, { ...n, ...nodeSize(n), order: i, dummy: false }]));
  const rank = new Map([...nodes.keys()].map((k) => [k, 0]));
  for (let pass = 0; pass < nodes.size; pass++) {
    for (const e of spec.edges) rank.set(e.to, Math.max(rank.get(e.to), rank.get(e.from) + 1));
  }
  const layers = [];
  const place = (node, r) => {
    (layers[r] ??= []).push(node);
    node.rank = r;
  };
  for (const n of nodes.values()) place(n, rank.get(n.id));
  const routes = spec.edges.map((e, i) => {
    const chain = [nodes.get(e.from)];
    for (let r = rank.get(e.from) + 1; r < rank.get(e.to); r++) {
      const dummy = { id: `~${i}.${r}`, dummy: true, w: DUMMY_SIZE, h: DUMMY_SIZE, order: 1e6 + i };
      place(dummy, r);
      chain.push(dummy);
    }
    chain.push(nodes.get(e.to));
    return { edge: e, chain };
  });
  for (const layer of layers) layer.sort((a, b) => a.order - b.order);

  // Main axis: layers one after another; cross axis: nodes of a layer side by side.
  const lr = direction === 'LR';
  const along = (n) => (lr ? n.w : n.h);
  const across = (n) => (lr ? n.h : n.w);
  const gapAfter = layers.map((_, r) => {
    const labels = routes
      .filter((rt) => rt.edge.label && rt.chain[0].rank === r)
      .map((rt) => textWidth(rt.edge.label) + 16);
    return lr ? Math.max(LAYER_GAP, ...labels) : LAYER_GAP + (labels.length ? LINE_PX : 0);
  });
  let cursor = MARGIN;
  layers.forEach((layer, r) => {
    const size = Math.max(...layer.map(along));
    for (const n of layer) {
      n.main = cursor + size / 2;
      // A long edge crosses this layer in a straight lane from its start to its end, so its bends
      // happen only between layers, where no box stands.
      if (n.dummy) [n.mainStart, n.mainEnd] = [cursor, cursor + size];
    }
    cursor += size + gapAfter[r];
  });
  const mainExtent = cursor - gapAfter[layers.length - 1] + MARGIN;

  // Cross positions: stack, then pull each node toward its neighbours' mean and push apart.
  const neighbours = new Map();
  for (const { chain } of routes) {
    for (let i = 0; i + 1 < chain.length; i++) {
      (neighbours.get(chain[i].id) ?? neighbours.set(chain[i].id, { prev: [], next: [] }).get(chain[i].id)).next.push(
        chain[i + 1],
      );
      (
        neighbours.get(chain[i + 1].id) ?? neighbours.set(chain[i + 1].id, { prev: [], next: [] }).get(chain[i + 1].id)
      ).prev.push(chain[i]);
    }
  }
  const gap = (a, b) => (across(a) + across(b)) / 2 + (a.dummy && b.dummy ? NODE_GAP / 2 : NODE_GAP);
  const settle = (layer) => {
    for (let i = 1; i < layer.length; i++)
      layer[i].cross = Math.max(layer[i].cross, layer[i - 1].cross + gap(layer[i - 1], layer[i]));
    for (let i = layer.length - 2; i >= 0; i--)
      layer[i].cross = Math.min(layer[i].cross, layer[i + 1].cross - gap(layer[i], layer[i + 1]));
  };
  for (const layer of layers) {
    let c = 0;
    layer.forEach((n, i) => {
      if (i > 0) c += gap(layer[i - 1], n);
      n.cross = c;
    });
    const mid = c / 2;
    for (const n of layer) n.cross -= mid;
  }
  const mean = (list) => list.reduce((s, n) => s + n.cross, 0) / list.length;
  for (let iter = 0; iter < 6; iter++) {
    const sweep = iter % 2 === 0 ? layers : [...layers].reverse();
    for (const layer of sweep) {
      for (const n of layer) {
        const nb = neighbours.get(n.id);
        const list = nb ? (iter % 2 === 0 ? nb.prev : nb.next) : [];
        if (list.length) n.cross = (n.cross + 2 * mean(list)) / 3;
      }
      settle(layer);
    }
  }
  // Each long edge keeps one lane across all the layers it passes (dummies sit after the real
  // nodes of a layer, so moving them further out keeps the order and clears every box).
  for (const { chain } of routes) {
    const dummies = chain.filter((n) => n.dummy);
    if (!dummies.length) continue;
    const lane = Math.max(
      ...dummies.map((d) => {
        const layer = layers[d.rank];
        const before = layer[layer.indexOf(d) - 1];
        return before ? Math.max(d.cross, before.cross + gap(before, d)) : d.cross;
      }),
    );
    for (const d of dummies) d.cross = lane;
  }
  const all = layers.flat();
  const minCross = Math.min(...all.map((n) => n.cross - across(n) / 2));
  const maxCross = Math.max(...all.map((n) => n.cross + across(n) / 2));
  for (const n of all) {
    n.cross += MARGIN - minCross;
    n.x = lr ? n.main : n.cross;
    n.y = lr ? n.cross : n.main;
  }
  const crossExtent = maxCross - minCross + 2 * MARGIN;
  return {
    nodes: [...nodes.values()],
    routes,
    width: lr ? mainExtent : crossExtent,
    height: lr ? crossExtent : mainExtent,
  };
}

// The point where an edge leaves (side = +1) or enters (side = −1) a node along the main axis.
function port(n, side, lr) {
  if (n.dummy) return { x: n.x, y: n.y };
  const half = (lr ? n.w : n.h) / 2;
  return lr ? { x: n.x + side * half, y: n.y } : { x: n.x, y: n.y + side * half };
}

function edgePath(chain, lr) {
  const at = (n, main) => (lr ? { x: main, y: n.y } : { x: n.x, y: main });
  const inner = chain.slice(1, -1).flatMap((n) => [{ ...at(n, n.mainStart), lane: true }, at(n, n.mainEnd)]);
  const pts = [port(chain[0], 1, lr), ...inner, port(chain.at(-1), -1, lr)];
  let d = `M${f(pts[0].x)},${f(pts[0].y)}`;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1];
    const b = pts[i];
    if (a.lane) {
      // Straight through a layer, written as a cubic so every segment has the same form.
      d += ` C${f(a.x)},${f(a.y)} ${f(b.x)},${f(b.y)} ${f(b.x)},${f(b.y)}`;
      continue;
    }
    const bend = lr ? (b.x - a.x) / 2 : (b.y - a.y) / 2;
    const c1 = lr ? [a.x + bend, a.y] : [a.x, a.y + bend];
    const c2 = lr ? [b.x - bend, b.y] : [b.x, b.y - bend];
    d += ` C${f(c1[0])},${f(c1[1])} ${f(c2[0])},${f(c2[1])} ${f(b.x)},${f(b.y)}`;
  }
  return { d, pts };
}

const f = (v) => (Math.round(v * 10) / 10).toString();

function labelLines(label, x, y) {
  const lines = label.split('\n');
  const top = y - ((lines.length - 1) * LINE_PX) / 2;
  return lines.map((line, i) => `<tspan x="${f(x)}" y="${f(top + i * LINE_PX)}">${escapeXml(line)}</tspan>`).join('');
}

function drawNode(n) {
  const cls = `diagram-node${n.emphasis ? ' diagram-node-emphasis' : ''}`;
  let shape;
  if (n.shape === 'circle') shape = `<circle cx="${f(n.x)}" cy="${f(n.y)}" r="${f(n.w / 2)}"/>`;
  else if (n.shape === 'diamond') {
    shape = `<polygon points="${f(n.x)},${f(n.y - n.h / 2)} ${f(n.x + n.w / 2)},${f(n.y)} ${f(n.x)},${f(n.y + n.h / 2)} ${f(n.x - n.w / 2)},${f(n.y)}"/>`;
  } else shape = `<rect x="${f(n.x - n.w / 2)}" y="${f(n.y - n.h / 2)}" width="${f(n.w)}" height="${f(n.h)}" rx="6"/>`;
  return `<g class="${cls}">${shape}<text class="diagram-label" dominant-baseline="central">${labelLines(n.label, n.x, n.y)}</text></g>`;
}

/**
 * A plain-text reading of the diagram for screen readers: every edge in order, each sentence in the
 * page's language (`t`, see render-lesson.mjs).
 */
export function describeDiagram(spec, t = inEnglish) {
  const label = new Map(spec.nodes.map((n) => [n.id, n.label.replace(/\n/g, ' ')]));
  return spec.edges
    .map((e) => {
      const params = { from: label.get(e.from), to: label.get(e.to), label: e.label };
      if (e.style === 'dotted') {
        return e.label ? t('{from} cannot lead to ({label}) {to}.', params) : t('{from} cannot lead to {to}.', params);
      }
      return e.label ? t('{from} leads to ({label}) {to}.', params) : t('{from} leads to {to}.', params);
    })
    .join(' ');
}

/**
 * One SVG of `spec` in `direction` ('LR' or 'TB'); `uid` keeps marker ids unique in the page; `t`
 * writes the texts the code adds (the description's sentences) in the page's language.
 */
export function renderDiagramSvg(spec, direction, uid, { t = inEnglish } = {}) {
  const lr = direction === 'LR';
  const { nodes, routes, width, height } = layout(spec, direction);
  const marker = `${uid}-arrow`;
  const edges = routes.map(({ edge, chain }) => {
    const { d, pts } = edgePath(chain, lr);
    const cls = `diagram-edge${edge.style === 'dotted' ? ' diagram-edge-dotted' : ''}`;
    let label = '';
    if (edge.label) {
      const mx = (pts[0].x + pts[1].x) / 2;
      const my = (pts[0].y + pts[1].y) / 2;
      const w = textWidth(edge.label) + 8;
      label = `<g class="diagram-edge-label"><rect x="${f(mx - w / 2)}" y="${f(my - LINE_PX / 2 - 1)}" width="${f(w)}" height="${LINE_PX + 2}" rx="3"/><text dominant-baseline="central"><tspan x="${f(mx)}" y="${f(my)}">${escapeXml(edge.label)}</tspan></text></g>`;
    }
    return `<path class="${cls}" d="${d}" marker-end="url(#${marker})"/>${label}`;
  });
  const body = nodes.map(drawNode).join('');
  return (
    `<svg class="diagram-svg diagram-${lr ? 'wide' : 'narrow'}" viewBox="0 0 ${f(width)} ${f(height)}" width="${f(width)}" height="${f(height)}" role="img" aria-labelledby="${uid}-title ${uid}-desc">` +
    `<title id="${uid}-title">${escapeXml(spec.title)}</title><desc id="${uid}-desc">${escapeXml(describeDiagram(spec, t))}</desc>` +
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="diagram-arrowhead" d="M0,0 L10,5 L0,10 z"/></marker></defs>` +
    `<g class="diagram-edges">${edges.join('')}</g>${body}</svg>`
  );
}

/**
 * The figure for one diagram: a wide (left-to-right) drawing and a narrow (top-to-bottom) one, and
 * CSS shows one per screen width. A left-to-right drawing too wide for the text column is left out,
 * so the top-to-bottom one shows everywhere at full text size. `t`: as for renderDiagramSvg.
 */
export function renderDiagramFigure(id, original, { t = inEnglish, translateData = (text) => text } = {}) {
  validateDiagram(id, original);
  // The diagram in the page's language: its title and every node and edge label.
  const spec = {
    ...original,
    title: translateData(original.title),
    nodes: original.nodes.map((n) => ({ ...n, label: translateData(n.label) })),
    edges: original.edges.map((e) => (e.label ? { ...e, label: translateData(e.label) } : e)),
  };
  const wide = layout(spec, 'LR').width <= MAX_WIDE_WIDTH;
  return (
    `<figure class="diagram${wide ? '' : ' diagram-tall'}" id="diagram-${escapeXml(id)}" data-diagram="${escapeXml(id)}">` +
    (wide ? renderDiagramSvg(spec, 'LR', `dg-${id}-lr`, { t }) : '') +
    renderDiagramSvg(spec, 'TB', `dg-${id}-tb`, { t }) +
    `</figure>`
  );
}
