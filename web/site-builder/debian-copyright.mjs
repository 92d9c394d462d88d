// Reads Debian's machine-readable copyright files (DEP-5, /usr/share/doc/<package>/copyright): which
// paragraph covers a source file (its copyright and licence), and each licence's full text, from the
// file itself or from /usr/share/common-licenses. The third-party notices are built from these.
import { existsSync, readFileSync } from 'node:fs';

const COMMON_LICENSES = '/usr/share/common-licenses';

/** A DEP-5 field's value: the first line's text and the continuation lines (" ." is an empty line). */
function fieldValue(lines) {
  const [first, ...rest] = lines;
  const body = rest.map((line) => (line.trim() === '.' ? '' : line.replace(/^ /, '')));
  return { first: first.trim(), body: body.join('\n').replace(/\s+$/, '') };
}

/** The paragraphs of a DEP-5 text: each a Map field name (lower case) → { first, body }. */
function paragraphs(text) {
  return text
    .split(/\n[ \t]*\n/)
    .map((block) => {
      const fields = new Map();
      let name = null;
      let lines = [];
      const close = () => {
        if (name) fields.set(name, fieldValue(lines));
      };
      for (const line of block.split('\n')) {
        if (/^\s/.test(line) && name) lines.push(line);
        else {
          const match = /^([\w-]+):(.*)$/.exec(line);
          if (!match) continue;
          close();
          name = match[1].toLowerCase();
          lines = [match[2]];
        }
      }
      close();
      return fields;
    })
    .filter((fields) => fields.size);
}

/** A DEP-5 Files pattern as a RegExp: * matches any run of characters (slashes too), ? one. */
function patternRegExp(pattern) {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`);
}

/**
 * The copyright file at `path`, parsed: { path, source, files: [{ patterns, copyright, licence:
 * { expression, body } }], licences: Map name → text }. Throws naming the file when it is missing.
 */
export function readDebianCopyright(path) {
  if (!existsSync(path)) throw new Error(`${path} is missing: its Debian package ships it (install the package)`);
  const all = paragraphs(readFileSync(path, 'utf8'));
  const header = all[0].has('format') ? all[0] : new Map();
  const files = [];
  const licences = new Map();
  for (const fields of all) {
    if (fields.has('files')) {
      const { first, body } = fields.get('files');
      // A paragraph without a License field is kept: it is an error only if it covers a file we ship.
      const licence = fields.get('license') ?? { first: '', body: '' };
      files.push({
        name: first,
        patterns: `${first}\n${body}`.split(/\s+/).filter(Boolean).map(patternRegExp),
        copyright: fields.get('copyright')
          ? [fields.get('copyright').first, fields.get('copyright').body].join('\n').trim()
          : '',
        licence: { expression: licence.first.trim(), body: licence.body },
      });
    } else if (fields.has('license') && fields !== header) {
      const { first, body } = fields.get('license');
      const reference = fields.get('reference')?.first;
      licences.set(first.trim(), { body, reference });
    }
  }
  return { path, source: header.get('source')?.first ?? null, files, licences };
}

/** The Files paragraph that covers `file` (a path in the package's source tree): the last that matches. */
export function paragraphFor(copyright, file) {
  let found = null;
  for (const paragraph of copyright.files) if (paragraph.patterns.some((re) => re.test(file))) found = paragraph;
  if (!found) throw new Error(`${copyright.path} has no Files paragraph that covers ${file}`);
  if (!found.licence.expression)
    throw new Error(`${copyright.path}: the paragraph for ${found.name}, which covers ${file}, has no License field`);
  return found;
}

/** The licence names in a DEP-5 licence expression ("Expat or NCSA~LLVM", "FSFULLR~Sun and ISC"). */
export function licenceNames(expression) {
  return expression
    .split(/\s+(?:or|and)\s+|,\s*/)
    .map((name) => name.trim())
    .filter(Boolean);
}

/**
 * The full text of licence `name` as `copyright` gives it: its stand-alone License paragraph, or the
 * file in /usr/share/common-licenses that paragraph refers to. "X with Y exception" is X's text; the
 * exception's own text is the Files paragraph's licence body, which the caller shows beside it. A
 * Files paragraph that carries the whole text of its one licence (`paragraph`) is read too. Throws,
 * naming the copyright file and the licence, when none is there.
 */
export function licenceText(copyright, name, paragraph = null) {
  const base = name.replace(/\s+with\s+.*$/i, '').trim();
  const standalone = copyright.licences.get(base);
  const common = (file) => {
    if (!existsSync(file)) throw new Error(`${copyright.path}: licence ${base} refers to ${file}, which is missing`);
    return { text: readFileSync(file, 'utf8').replace(/\s+$/, ''), from: file };
  };
  if (standalone?.reference) return common(standalone.reference);
  const mentioned = standalone?.body.match(/\/usr\/share\/common-licenses\/[\w.+-]+/)?.[0];
  if (standalone && standalone.body.trim() && !(mentioned && standalone.body.split('\n').length < 8))
    return { text: standalone.body, from: copyright.path };
  if (mentioned) return common(mentioned);
  if (!standalone && paragraph?.licence.expression === name && paragraph.licence.body.trim()) {
    // The paragraph's own text, and the common licence it points to ("the full text … can be found in").
    const body = paragraph.licence.body;
    const points = body.match(/\/usr\/share\/common-licenses\/[\w.+-]+/)?.[0];
    return { text: points ? `${body}\n\n${common(points).text}` : body, from: copyright.path };
  }
  if (existsSync(`${COMMON_LICENSES}/${base}`)) return common(`${COMMON_LICENSES}/${base}`);
  throw new Error(`${copyright.path} gives no text for the licence ${base}`);
}
