// Reads a font's name table (copyright, family, licence) from a TrueType/OpenType or WOFF2 file, so
// the third-party notices state each font's own copyright and licence lines rather than a copy.
import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';

/** The name IDs the notices use (OpenType spec, the 'name' table). */
export const NAME_IDS = {
  copyright: 0,
  family: 1,
  fullName: 4,
  version: 5,
  typographicFamily: 16,
  licence: 13,
  licenceUrl: 14,
};

// WOFF2's known table tags, by the index its table directory stores (WOFF2 spec, 5.1).
const WOFF2_TAGS = [
  'cmap',
  'head',
  'hhea',
  'hmtx',
  'maxp',
  'name',
  'OS/2',
  'post',
  'cvt ',
  'fpgm',
  'glyf',
  'loca',
  'prep',
  'CFF ',
  'VORG',
  'EBDT',
  'EBLC',
  'gasp',
  'hdmx',
  'kern',
  'LTSH',
  'PCLT',
  'VDMX',
  'vhea',
  'vmtx',
  'BASE',
  'GDEF',
  'GPOS',
  'GSUB',
  'EBSC',
  'JSTF',
  'MATH',
  'CBDT',
  'CBLC',
  'COLR',
  'CPAL',
  'SVG ',
  'sbix',
  'acnt',
  'avar',
  'bdat',
  'bloc',
  'bsln',
  'cvar',
  'fdsc',
  'feat',
  'fmtx',
  'fvar',
  'gvar',
  'hsty',
  'just',
  'lcar',
  'mort',
  'morx',
  'opbd',
  'prop',
  'trak',
  'Zapf',
  'Silf',
  'Glat',
  'Gloc',
  'Feat',
  'Sill',
];

/** The bytes of table `tag` in a WOFF2 file (its tables are one Brotli stream, in directory order). */
function woff2Table(bytes, tag) {
  const tables = bytes.readUInt16BE(12);
  const compressedLength = bytes.readUInt32BE(20);
  let at = 48;
  const base128 = () => {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = bytes[at++];
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) return value;
    }
    throw new Error('a UIntBase128 longer than 5 bytes');
  };
  const directory = [];
  for (let i = 0; i < tables; i++) {
    const flags = bytes[at++];
    let name = WOFF2_TAGS[flags & 0x3f];
    if ((flags & 0x3f) === 63) {
      name = bytes.toString('latin1', at, at + 4);
      at += 4;
    }
    const version = flags >> 6;
    const length = base128();
    // glyf and loca are transformed unless their version is 3; every other table when it is not 0.
    const transformed = name === 'glyf' || name === 'loca' ? version !== 3 : version !== 0;
    directory.push({ name, length: transformed ? base128() : length });
  }
  const data = brotliDecompressSync(bytes.subarray(at, at + compressedLength));
  let offset = 0;
  for (const entry of directory) {
    if (entry.name === tag) return data.subarray(offset, offset + entry.length);
    offset += entry.length;
  }
  return null;
}

/** The bytes of table `tag` in an sfnt (TrueType/OpenType) file. */
function sfntTable(bytes, tag) {
  const tables = bytes.readUInt16BE(4);
  for (let i = 0; i < tables; i++) {
    const record = 12 + 16 * i;
    if (bytes.toString('latin1', record, record + 4) !== tag) continue;
    const offset = bytes.readUInt32BE(record + 8);
    return bytes.subarray(offset, offset + bytes.readUInt32BE(record + 12));
  }
  return null;
}

/**
 * The name table of the font in `bytes` (or read from the path `file`): name ID → text, the Windows
 * English record preferred. Throws, naming the file, when it is no font or has no name table.
 */
export function fontNames(file, bytes = readFileSync(file)) {
  const signature = bytes.toString('latin1', 0, 4);
  let table;
  if (signature === 'wOF2') table = woff2Table(bytes, 'name');
  else if (['\0\x01\0\0', 'OTTO', 'true'].includes(signature)) table = sfntTable(bytes, 'name');
  else throw new Error(`${file} is not a TrueType, OpenType or WOFF2 font (it starts ${JSON.stringify(signature)})`);
  if (!table) throw new Error(`${file} has no name table`);
  const count = table.readUInt16BE(2);
  const strings = table.readUInt16BE(4);
  const names = {};
  const preferred = new Set();
  for (let i = 0; i < count; i++) {
    const record = 6 + 12 * i;
    const [platform, , language, id, length, offset] = [0, 2, 4, 6, 8, 10].map((k) => table.readUInt16BE(record + k));
    const raw = table.subarray(strings + offset, strings + offset + length);
    let text;
    if (platform === 0 || platform === 3) text = Buffer.from(raw).swap16().toString('utf16le');
    else if (platform === 1) text = raw.toString('latin1');
    else continue;
    const english = platform === 3 && language === 0x409;
    if (!(id in names) || (english && !preferred.has(id))) {
      names[id] = text;
      if (english) preferred.add(id);
    }
  }
  return names;
}

/** The family a font declares: its typographic family (ID 16) when it has one, else its family (ID 1). */
export function fontFamily(names) {
  return names[NAME_IDS.typographicFamily] ?? names[NAME_IDS.family];
}
