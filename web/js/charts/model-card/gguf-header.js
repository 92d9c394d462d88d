// Reads the header of a GGUF model file (llama.cpp, Ollama): its metadata keys and values and its
// tensors' names, never the tensor data. No DOM: it takes a Blob (a File) and works in Node too.
//
// The layout (ggml's docs/gguf.md, "File Structure"; llama.cpp's ggml/src/gguf.cpp reads the same),
// all little-endian:
//   "GGUF" | version uint32 (2 or 3) | tensor_count uint64 | metadata_kv_count uint64
//   metadata_kv_count × { key: string, value_type: uint32, value }
//   tensor_count × { name: string, n_dims: uint32, dims: n_dims × uint64, type: uint32, offset: uint64 }
// where a string is a uint64 byte length and that many bytes of UTF-8, and value types are
// 0 uint8, 1 int8, 2 uint16, 3 int16, 4 uint32, 5 int32, 6 float32, 7 bool, 8 string,
// 9 array (item type uint32, count uint64, the items), 10 uint64, 11 int64, 12 float64.
// Version 1 (counts as uint32) predates August 2023 and is not read.
//
// The file may be hostile: every length and count is checked against what is left of the file and
// of the cap before anything is allocated or skipped, and every failure is an Error naming what was
// being read and its byte offset.

/** The caps: the header is read only this far, and each count or length is bounded. */
export const GGUF_LIMITS = Object.freeze({
  /** Bytes of the file the reader reads at most: metadata and tensor infos together (16 MiB). */
  headerBytes: 16 * 2 ** 20,
  /** Bytes of a key or a tensor name (gguf.md: keys are at most 2^16 − 1 bytes). */
  keyBytes: 2 ** 16 - 1,
  /** Metadata keys (real files hold some 20 to 60). */
  keys: 65536,
  /** Tensors listed (a large mixture of experts lists a few thousand). */
  tensors: 2 ** 20,
  /** Dimensions of a tensor (GGML_MAX_DIMS). */
  tensorDims: 4,
  /** An array of numbers or bools up to this long is kept; a longer one, or any array of strings, only counted. */
  keptArrayItems: 4096,
});

const MAGIC = [0x47, 0x47, 0x55, 0x46]; // "GGUF"
const FIRST_READ = 64 * 1024;
const CHUNK = 2 ** 20;

const TYPE_NAMES = [
  'uint8',
  'int8',
  'uint16',
  'int16',
  'uint32',
  'int32',
  'float32',
  'bool',
  'string',
  'array',
  'uint64',
  'int64',
  'float64',
];
const STRING = 8;
const ARRAY = 9;
/** Bytes of each fixed-size type (string and array have none). */
const FIXED_SIZE = [1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8];

/** A byte count or offset in digits grouped by commas; a uint64 beyond 2^53 (read as Infinity) in words. */
const grouped = (n) => (n === Infinity ? 'more than 2^53' : n.toLocaleString('en-US'));

/** A uint64 or int64 as a Number when it is exactly one, else the BigInt. */
const exact = (big) =>
  big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;

/** The shortest decimal that reads back as the same float32 (as Python prints numpy's float32). */
function shortestFloat32(value) {
  if (!Number.isFinite(value)) return value;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}

/**
 * Reads `blob` sequentially through a window of at most a few MiB, fetched with
 * blob.slice(start, end).arrayBuffer() only when the next field is not in it; bytes skipped (long
 * arrays) are never fetched. Nothing past `limit` bytes (the cap) or past the file's end is read.
 */
class Cursor {
  constructor(blob, limit) {
    this.blob = blob;
    this.size = blob.size;
    this.limit = limit;
    this.pos = 0;
    this.start = 0; // file offset of bytes[0]
    this.bytes = new Uint8Array(0);
    this.view = new DataView(this.bytes.buffer);
    this.decoder = new TextDecoder('utf-8', { fatal: true });
  }

  /** Throws unless `n` bytes from the current offset lie within the file and the cap. */
  check(n, what) {
    const end = this.pos + n;
    if (end > this.size) {
      throw new Error(
        `GGUF: the file ends at byte ${grouped(this.size)}, inside ${what} at byte offset ${grouped(this.pos)}` +
          (n > 8 ? ` (it needs ${grouped(n)} bytes)` : ''),
      );
    }
    if (end > this.limit) {
      throw new Error(
        `GGUF: the header goes past the first ${grouped(this.limit)} bytes (${this.limit / 2 ** 20} MiB), the most ` +
          `this reader reads: ${what} at byte offset ${grouped(this.pos)} needs ${grouped(n)} bytes`,
      );
    }
  }

  /** Makes `n` bytes from the current offset readable (fetching a new window if needed). */
  async need(n, what) {
    if (this.pos >= this.start && this.pos + n <= this.start + this.bytes.length) return;
    this.check(n, what);
    const first = this.start === 0 && this.bytes.length === 0;
    const end = Math.min(this.size, this.limit, Math.max(this.pos + n, this.pos + (first ? FIRST_READ : CHUNK)));
    this.bytes = new Uint8Array(await this.blob.slice(this.pos, end).arrayBuffer());
    this.start = this.pos;
    this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    if (this.bytes.length !== end - this.pos) {
      throw new Error(
        `GGUF: reading bytes ${grouped(this.pos)}–${grouped(end)} gave ${grouped(this.bytes.length)} bytes`,
      );
    }
  }

  /** Skips `n` bytes without fetching them. */
  skip(n, what) {
    this.check(n, what);
    this.pos += n;
  }

  at() {
    return this.pos - this.start;
  }

  async u32(what) {
    await this.need(4, what);
    const v = this.view.getUint32(this.at(), true);
    this.pos += 4;
    return v;
  }

  /** A uint64 as a Number, or Infinity beyond 2^53 (every count or length that large is over a cap). */
  async u64(what) {
    await this.need(8, what);
    const v = this.view.getBigUint64(this.at(), true);
    this.pos += 8;
    return v > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(v);
  }

  /** A string's uint64 length, checked against `maxBytes`, the file and the cap, then its UTF-8. */
  async string(what, maxBytes = Infinity) {
    const offset = this.pos;
    const length = await this.u64(`the length of ${what}`);
    if (length > maxBytes) {
      throw new Error(
        `GGUF: ${what} at byte offset ${grouped(offset)} says it is ${grouped(length)} bytes long; at most ${grouped(maxBytes)} are allowed`,
      );
    }
    await this.need(length, what);
    const raw = this.bytes.subarray(this.at(), this.at() + length);
    let text;
    try {
      text = this.decoder.decode(raw);
    } catch {
      throw new Error(`GGUF: ${what} at byte offset ${grouped(offset)} is not valid UTF-8`);
    }
    this.pos += length;
    return text;
  }

  /** One value of a fixed-size type. */
  async fixed(type, what) {
    const size = FIXED_SIZE[type];
    await this.need(size, what);
    const v = this.view;
    const i = this.at();
    const offset = this.pos;
    this.pos += size;
    switch (type) {
      case 0:
        return v.getUint8(i);
      case 1:
        return v.getInt8(i);
      case 2:
        return v.getUint16(i, true);
      case 3:
        return v.getInt16(i, true);
      case 4:
        return v.getUint32(i, true);
      case 5:
        return v.getInt32(i, true);
      case 6:
        return shortestFloat32(v.getFloat32(i, true));
      case 7: {
        const b = v.getUint8(i);
        if (b > 1)
          throw new Error(`GGUF: ${what} at byte offset ${grouped(offset)} is a bool of value ${b}, not 0 or 1`);
        return b === 1;
      }
      case 10:
        return exact(v.getBigUint64(i, true));
      case 11:
        return exact(v.getBigInt64(i, true));
      default:
        return v.getFloat64(i, true);
    }
  }
}

/** A value type read at `offset`, checked to be one of the thirteen. */
function checkType(type, what, offset) {
  if (type >= TYPE_NAMES.length) {
    throw new Error(`GGUF: ${what} at byte offset ${grouped(offset)} has the unknown value type ${type} (known: 0–12)`);
  }
  return type;
}

/**
 * An array's value: numbers or bools kept when at most GGUF_LIMITS.keptArrayItems of them, else
 * { type: 'array', itemType, count } with the items skipped (fixed-size ones without being fetched).
 */
async function readArray(cursor, key) {
  const typeOffset = cursor.pos;
  const itemType = checkType(await cursor.u32(`the item type of ${key}`), `the array ${key}`, typeOffset);
  if (itemType === ARRAY) {
    throw new Error(
      `GGUF: the array ${key} at byte offset ${grouped(typeOffset)} holds arrays, which this reader does not read`,
    );
  }
  const countOffset = cursor.pos;
  const count = await cursor.u64(`the item count of ${key}`);
  // Every item takes at least one byte (a string eight): a count beyond what is left is refused
  // before the loop, so a huge count can neither allocate nor spin.
  const least = itemType === STRING ? 8 : FIXED_SIZE[itemType];
  const left = Math.min(cursor.size, cursor.limit) - cursor.pos;
  if (count * least > left) {
    const says = `says it holds ${grouped(count)} items of ${TYPE_NAMES[itemType]}, at least ${grouped(count * least)} bytes`;
    throw new Error(
      cursor.size <= cursor.limit
        ? `GGUF: the file ends at byte ${grouped(cursor.size)}, inside the array ${key} at byte offset ${grouped(countOffset)}: it ${says}, and ${grouped(left)} are left`
        : `GGUF: the header goes past the first ${grouped(cursor.limit)} bytes, the most this reader reads: the array ${key} at byte offset ${grouped(countOffset)} ${says}, and ${grouped(left)} are left`,
    );
  }
  if (itemType === STRING) {
    for (let i = 0; i < count; i++) {
      const length = await cursor.u64(`the length of item ${i} of ${key}`);
      cursor.skip(length, `item ${i} of ${key}`);
    }
    return { type: 'array', itemType: 'string', count };
  }
  if (count > GGUF_LIMITS.keptArrayItems) {
    cursor.skip(count * least, `the items of ${key}`);
    return { type: 'array', itemType: TYPE_NAMES[itemType], count };
  }
  const items = [];
  for (let i = 0; i < count; i++) items.push(await cursor.fixed(itemType, `item ${i} of ${key}`));
  return items;
}

/**
 * Reads the header of the GGUF file `blob` (a Blob or File; nothing but blob.size and
 * blob.slice(start, end).arrayBuffer() is used), at most GGUF_LIMITS.headerBytes of it.
 * Returns { version, tensorCount, metadata: Map(key → value), tensorNames: string[], headerBytes }:
 * numbers as Numbers (a 64-bit integer beyond 2^53 as a BigInt), float32 as its shortest decimal,
 * strings as text, an array as an Array, or, when long or of strings, { type: 'array', itemType, count }.
 * Throws an Error naming what and at which byte offset when the file is not GGUF version 2 or 3,
 * is cut short, or has a length, count or type that is out of range or past a cap.
 */
export async function readGgufHeader(blob, { limit = GGUF_LIMITS.headerBytes } = {}) {
  const cursor = new Cursor(blob, limit);
  await cursor.need(4, 'the magic "GGUF"');
  const head = Array.from(cursor.bytes.subarray(0, 4));
  if (head.some((b, i) => b !== MAGIC[i])) {
    const hex = head.map((b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new Error(`GGUF: not a GGUF file: it starts with the bytes ${hex}, not "GGUF" (47 47 55 46)`);
  }
  cursor.pos = 4;
  const version = await cursor.u32('the version');
  if (version !== 2 && version !== 3) {
    throw new Error(`GGUF: version ${version} at byte offset 4 is not read (this reader reads versions 2 and 3)`);
  }
  const tensorCount = await cursor.u64('the tensor count');
  if (tensorCount > GGUF_LIMITS.tensors) {
    throw new Error(
      `GGUF: the tensor count at byte offset 8 is ${grouped(tensorCount)}; at most ${grouped(GGUF_LIMITS.tensors)} are read`,
    );
  }
  const keyCount = await cursor.u64('the metadata key count');
  if (keyCount > GGUF_LIMITS.keys) {
    throw new Error(
      `GGUF: the metadata key count at byte offset 16 is ${grouped(keyCount)}; at most ${grouped(GGUF_LIMITS.keys)} are read`,
    );
  }

  const metadata = new Map();
  for (let k = 0; k < keyCount; k++) {
    const keyOffset = cursor.pos;
    const key = await cursor.string(`key ${k}`, GGUF_LIMITS.keyBytes);
    if (metadata.has(key))
      throw new Error(
        `GGUF: key ${k} at byte offset ${grouped(keyOffset)}, ${JSON.stringify(key)}, repeats an earlier key`,
      );
    const typeOffset = cursor.pos;
    const type = checkType(await cursor.u32(`the value type of ${key}`), `the key ${JSON.stringify(key)}`, typeOffset);
    let value;
    if (type === STRING) value = await cursor.string(`the value of ${key}`);
    else if (type === ARRAY) value = await readArray(cursor, key);
    else value = await cursor.fixed(type, `the value of ${key}`);
    metadata.set(key, value);
  }

  const tensorNames = [];
  for (let n = 0; n < tensorCount; n++) {
    const name = await cursor.string(`the name of tensor ${n}`, GGUF_LIMITS.keyBytes);
    const dimsOffset = cursor.pos;
    const dims = await cursor.u32(`the dimension count of tensor ${name}`);
    if (dims > GGUF_LIMITS.tensorDims) {
      throw new Error(
        `GGUF: tensor ${name} at byte offset ${grouped(dimsOffset)} has ${grouped(dims)} dimensions; at most ${GGUF_LIMITS.tensorDims}`,
      );
    }
    // The dimensions, the type and the data offset: only their bytes matter here.
    cursor.skip(8 * dims + 4 + 8, `the shape, type and offset of tensor ${name}`);
    tensorNames.push(name);
  }
  return { version, tensorCount, metadata, tensorNames, headerBytes: cursor.pos };
}

/** Whether the first bytes of a file (an ArrayBuffer or typed array) are GGUF's magic. */
export function startsWithGgufMagic(bytes) {
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0);
  return b.length >= 4 && MAGIC.every((m, i) => b[i] === m);
}
