// The charts' CSV writer (web/js/chart-kit/export.js): text a spreadsheet would run as a formula is
// neutralised (OWASP's CSV-injection rule), numbers stay numbers, and quoting round-trips.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { toCsv } from '../../web/js/chart-kit/export.js';
import { seededGenerator } from '../../web/js/lms/record.js';

/** The cells of one CSV line (RFC 4180 quoting: "" inside quotes is one "), split at `separator`. */
function cells(line, separator = ',') {
  const out = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      out.push(cell);
      cell = '';
    } else cell += c;
  }
  out.push(cell);
  return out;
}

// What a spreadsheet (Excel, LibreOffice, Google Sheets) treats as the start of a formula in a cell.
const FORMULA_START = /^[=+\-@\t\r]/;

test('text cells that a spreadsheet would run as formulas start with an apostrophe', () => {
  const words = ['=HYPERLINK("http://x.invalid","c")', '=1+1', '+1+1', '-1+1', '@SUM(1)', '\t=1', '\r=1', '-', '='];
  const text = toCsv(
    ['query', 'key'],
    words.map((w) => [w, 'dog']),
  );
  const lines = text.split('\n').slice(1, -1);
  assert.equal(lines.length, words.length);
  // A tab or carriage return also starts a new cell for some readers: the formula after it is neutralised too.
  const expected = words.map((w) => (/^[\t\r]/.test(w) ? `'${w[0]}'${w.slice(1)}` : `'${w}`));
  lines.forEach((line, i) => {
    const [query, key] = cells(line);
    assert.equal(query, expected[i], `row ${i}`);
    assert.equal(key, 'dog');
    assert.doesNotMatch(query, FORMULA_START);
  });
  // A carriage return inside a cell is quoted, so the line does not break there.
  assert.ok(text.includes('"\'\r\'=1"'), JSON.stringify(text));
});

// The field separators of the common spreadsheet locales: English (,), German, French and most of
// continental Europe (;), and tab-separated text.
const LOCALE_SEPARATORS = [',', ';', '\t'];

test('a cell with a semicolon or a tab is quoted, and no separator in any locale leads to a formula', () => {
  const words = ['x;=1+1;y', 'a\t=cmd|x', 'one;two', 'p,@SUM(1)', 'q;+1+1', 'r;-2+3', 'k;-0.5', 'tab\tword'];
  const text = toCsv(['word'], [...words.map((w) => [w])]);
  const lines = text.split('\n').slice(1, -1);
  lines.forEach((line, i) => {
    assert.ok(line.startsWith('"') && line.endsWith('"'), `row ${i} is quoted: ${JSON.stringify(line)}`);
    for (const separator of LOCALE_SEPARATORS) {
      // A reader in that locale honouring the quotes: one cell, not starting a formula.
      const quoted = cells(line, separator);
      assert.equal(quoted.length, 1, `row ${i}, separator ${JSON.stringify(separator)}`);
      // A reader splitting at the separator regardless of quotes: no piece starts a formula.
      for (const piece of line.replace(/^"|"$/g, '').split(separator))
        assert.ok(
          !FORMULA_START.test(piece) || /^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(piece),
          `row ${i}, separator ${JSON.stringify(separator)}: ${JSON.stringify(piece)}`,
        );
    }
  });
  assert.equal(lines[0], `"x;'=1+1;y"`);
  assert.equal(lines[6], '"k;-0.5"', 'a plain number after a separator stays a number');
});

test('numbers stay numbers: negative, tiny and huge values are written as String(x)', () => {
  const values = [-0.654, -1e-300, -1.7976931348623157e308, 0, -0, 1.5, -Infinity, NaN];
  const text = toCsv(
    ['value'],
    values.map((v) => [v]),
  );
  const lines = text.split('\n').slice(1, -1);
  // -Infinity is no number to a spreadsheet, which would read "-Infinity" as a formula.
  assert.deepEqual(lines, ['-0.654', '-1e-300', '-1.7976931348623157e+308', '0', '0', '1.5', "'-Infinity", 'NaN']);
  // Exact: every double round-trips (no tolerance).
  assert.deepEqual(
    lines.slice(0, 6).map(Number),
    values.slice(0, 6).map((v) => v + 0),
  );
});

test('text that is a plain number keeps its sign; other text is unchanged', () => {
  const text = toCsv(['a', 'b', 'c', 'd'], [['-0.654', '+3', 'the cat sat', 'a "quoted", word']]);
  assert.deepEqual(cells(text.split('\n')[1]), ['-0.654', '+3', 'the cat sat', 'a "quoted", word']);
});

test('header cells are neutralised too', () => {
  const text = toCsv(['=cmd', 'ok'], []);
  assert.equal(text, "'=cmd,ok\n");
});

test('200,000 random cells: text comes back as written or behind one apostrophe, numbers exactly', (t) => {
  const next = seededGenerator(36); // every run tries the same cells
  const ALPHABET = ['=', '+', '-', '@', '\t', '\r', '\n', '"', ',', "'", ' ', 'a', '1', '.', 'e', 'é', '😀', '\u0000'];
  const text = () =>
    Array.from({ length: Math.floor(next() * 12) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');
  const number = () => {
    const kind = Math.floor(next() * 4);
    if (kind === 0) return (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
    if (kind === 1) return -Math.floor(next() * 1e6);
    if (kind === 2) return [0, -0, Number.MIN_VALUE, -Number.MAX_VALUE][Math.floor(next() * 4)];
    return (next() - 0.5) * 2;
  };
  const rows = Array.from({ length: 50_000 }, () =>
    Array.from({ length: 4 }, () => (next() < 0.5 ? text() : number())),
  );
  // Lines split only outside quotes (a quoted cell may hold a newline).
  const csv = toCsv(['a', 'b', 'c', 'd'], rows);
  const lines = [];
  let line = '';
  let quoted = false;
  for (const c of csv) {
    if (c === '"') quoted = !quoted;
    if (c === '\n' && !quoted) {
      lines.push(line);
      line = '';
    } else line += c;
  }
  assert.equal(lines.length, rows.length + 1);
  let prefixed = 0;
  lines.slice(1).forEach((l, i) => {
    const got = cells(l);
    assert.equal(got.length, 4, `row ${i}`);
    got.forEach((cell, j) => {
      const want = rows[i][j];
      if (typeof want === 'number') {
        assert.equal(Number(cell), want + 0, `row ${i} cell ${j}`);
        assert.doesNotMatch(cell, /^'/);
      } else if (cell !== want) {
        // Each piece between separators comes back as written or behind one apostrophe, where it
        // would start a formula; the cell's own start may carry one more, ahead of a tab or line break.
        const split = (text) => text.split(/([,;\t\r\n])/);
        const got = split(cell.startsWith("'") && /^[\t\r\n]/.test(want) ? cell.slice(1) : cell);
        const wanted = split(want);
        assert.equal(got.length, wanted.length, `row ${i} cell ${j}: ${JSON.stringify(cell)}`);
        got.forEach((piece, k) => {
          if (piece === wanted[k]) return;
          assert.equal(piece, `'${wanted[k]}`, `row ${i} cell ${j} piece ${k}`);
          assert.match(wanted[k], FORMULA_START);
        });
        prefixed += 1;
      }
      // A cell may start with + or - only as a plain decimal number, which spreadsheets read as one.
      assert.ok(
        !FORMULA_START.test(cell) || /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(cell),
        `row ${i} cell ${j}: ${JSON.stringify(cell)}`,
      );
    });
  });
  t.diagnostic(`200,000 cells, ${prefixed} text cells neutralised, none left starting a formula`);
});
