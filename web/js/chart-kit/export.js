// PNG and CSV export buttons and the "Data" table shared by every chart.

import { grouped, sciUnicode, sentences, significant } from '../locale/format.js';
import { t } from '../locale/i18n.js';

// A text cell a spreadsheet would read as a formula (or, after a tab or carriage return, as the
// start of one): OWASP's CSV-injection list. Such cells get a leading apostrophe, which spreadsheets
// show as text and do not run.
const FORMULA_START = /^[=+\-@\t\r]/;
// A cell that is just a decimal number (-0.654 from a number, or the text "+3", "1e-5") is left as it
// is: a spreadsheet reads it as that number, not as a formula. (-Infinity is not one: it is prefixed.)
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

// What splits a line into cells in the common spreadsheet locales: the comma (English), the semicolon
// (German, French and most of continental Europe, whose decimal mark is the comma), the tab (pasted
// or tab-separated text), and the line breaks. A reader that splits a cell's text at one of them
// sees a new cell begin there.
const SEPARATORS = /([,;\t\r\n])/;

/** One piece of a cell's text that a spreadsheet may read as a cell of its own, neutralised. */
const neutralised = (piece) => (FORMULA_START.test(piece) && !PLAIN_NUMBER.test(piece) ? `'${piece}` : piece);

/**
 * CSV text from a header and rows of numbers/strings. Numbers keep full precision (String(x)); a
 * cell that would start a formula is prefixed with ' (a word of a typed sentence such as =HYPERLINK(…)),
 * and so is every piece of a cell after a separator some locale splits on (x;=1+1 becomes x;'=1+1),
 * so a spreadsheet that reads the file with another separator runs no formula either. A cell holding a
 * separator, a quote or a line break is quoted (RFC 4180), which keeps it one cell in every locale.
 */
export function toCsv(header, rows) {
  const cell = (v) => {
    const text = typeof v === 'number' ? String(v) : String(v ?? '');
    const pieces = text.split(SEPARATORS);
    // split() with a capture group keeps the separators at the odd indices.
    // The cell's own start too: one that opens with a tab or a line break ahead of the first piece.
    const s = neutralised(pieces.map((piece, i) => (i % 2 === 0 ? neutralised(piece) : piece)).join(''));
    return /[",;\t\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\n') + '\n';
}

function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.className = 'chart-download-link';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * All of a chart's pictures stacked into one canvas (device pixels), on the theme background: its
 * canvases, or the ImageBitmaps of those the chart Worker paints.
 */
export function composeCanvases(canvases, background) {
  if (canvases.length === 1 && canvases[0] instanceof HTMLCanvasElement) return canvases[0];
  const width = Math.max(...canvases.map((c) => c.width));
  const height = canvases.reduce((sum, c) => sum + c.height, 0);
  const out = document.createElement('canvas');
  out.width = width;
  out.height = height;
  const ctx = out.getContext('2d');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, width, height);
  let y = 0;
  for (const c of canvases) {
    ctx.drawImage(c, 0, y);
    y += c.height;
  }
  return out;
}

/** PNG bytes of the chart as a Blob. */
export function pngBlob(canvases, background) {
  return new Promise((resolve, reject) => {
    composeCanvases(canvases, background).toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the canvas could not be encoded'))),
      'image/png',
    );
  });
}

/**
 * Adds "Download PNG" and "Download CSV" buttons to `container`.
 * getCanvases() → (a promise of) the chart's pictures (canvases or ImageBitmaps); getCsv() → { header,
 * rows }; getBackground() → CSS colour.
 */
export function addExportButtons(container, id, { getCanvases, getCsv, getBackground }) {
  const png = document.createElement('button');
  png.type = 'button';
  png.className = 'chart-button';
  png.dataset.export = 'png';
  png.textContent = t('Download PNG');
  png.addEventListener('click', async () => download(await pngBlob(await getCanvases(), getBackground()), `${id}.png`));
  const csv = document.createElement('button');
  csv.type = 'button';
  csv.className = 'chart-button';
  csv.dataset.export = 'csv';
  csv.textContent = t('Download CSV');
  csv.addEventListener('click', () => {
    const { header, rows } = getCsv();
    download(new Blob([toCsv(header, rows)], { type: 'text/csv' }), `${id}.csv`);
  });
  container.append(png, csv);
}

/**
 * Fills the <details> data view: a table with `columns` and up to `limit` `rows` (already
 * formatted strings or numbers), and a note when rows were left out. Text only (textContent).
 */
export function renderDataTable(details, { caption, columns, rows, limit = 50, note }) {
  const table = document.createElement('table');
  table.className = 'chart-table';
  const cap = document.createElement('caption');
  cap.textContent = caption;
  const head = document.createElement('thead');
  const hr = document.createElement('tr');
  for (const c of columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = c;
    hr.append(th);
  }
  head.append(hr);
  const body = document.createElement('tbody');
  for (const r of rows.slice(0, limit)) {
    const tr = document.createElement('tr');
    r.forEach((v, i) => {
      const td = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) td.scope = 'row';
      td.textContent = typeof v === 'number' ? formatCell(v) : String(v);
      tr.append(td);
    });
    body.append(tr);
  }
  table.append(cap, head, body);
  const wrap = details.querySelector('.chart-table-wrap');
  const extra = [];
  const left = rows.length - Math.min(rows.length, limit);
  if (left > 0 || note) {
    const p = document.createElement('p');
    p.className = 'chart-table-note';
    p.textContent = sentences(
      left > 0
        ? t('First {limit} of {rows} rows; the CSV has them all.', {
            limit: grouped(limit),
            rows: grouped(rows.length),
          })
        : '',
      note ?? '',
    );
    extra.push(p);
  }
  wrap.replaceChildren(table, ...extra);
}

/**
 * A number for the data table (the page's formats, web/js/locale/format.js): whole numbers in full with
 * thousands separators ("1,048,576"), others to 6 significant digits ("0.841471", "12,345.7"),
 * very small or large ones as "1.15480 × 10⁻⁴"; true minus signs. CSV keeps plain numbers.
 */
export function formatCell(v) {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return grouped(v);
  if (Math.abs(v) < 1e-4 || Math.abs(v) >= 1e7) return sciUnicode(v, 5);
  return significant(v, 6);
}
