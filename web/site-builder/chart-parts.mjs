// The parts each chart can highlight, read at build time from the charts' own declarations, so the
// site build can refuse a {{part:CHART/PART}} link in lesson.md that names a part no chart draws.
// Each chart module (web/js/charts/<id>.js) that is built on defineChart exports that definition,
// whose `parts` are the names chart.highlight() accepts; a chart without one has no parts.
import { CHARTS } from '../js/charts/index.js';

/** Chart id → its highlightable part names (a chart module loaded in Node draws nothing). */
export async function chartParts(ids = Object.keys(CHARTS)) {
  const entries = await Promise.all(
    ids.map(async (id) => {
      const module = await import(new URL(`../js/charts/${id}.js`, import.meta.url).href);
      const definition = Object.values(module).find((v) => v && v.id === id && Array.isArray(v.parts));
      return [id, definition ? [...definition.parts] : []];
    }),
  );
  return Object.fromEntries(entries);
}
