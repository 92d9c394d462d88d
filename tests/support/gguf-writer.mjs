// Writes small GGUF headers for the tests (ggml's docs/gguf.md layout, little-endian): metadata
// typed by hand, tensor infos with no data after them. Also writes broken ones on purpose.

export const T = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
};

// The types of a fixed size: the DataView setter that writes one, and its size in bytes.
const FIXED_SIZE_TYPES = {
  [T.uint8]: ['setUint8', 1],
  [T.int8]: ['setInt8', 1],
  [T.uint16]: ['setUint16', 2],
  [T.int16]: ['setInt16', 2],
  [T.uint32]: ['setUint32', 4],
  [T.int32]: ['setInt32', 4],
  [T.float32]: ['setFloat32', 4],
  [T.uint64]: ['setBigUint64', 8],
  [T.int64]: ['setBigInt64', 8],
  [T.float64]: ['setFloat64', 8],
};

/** Little-endian bytes, appended field by field. */
export class ByteWriter {
  constructor() {
    this.parts = [];
  }
  raw(bytes) {
    this.parts.push(Uint8Array.from(bytes));
    return this;
  }
  number(setter, size, value) {
    const b = new Uint8Array(size);
    new DataView(b.buffer)[setter](0, value, true);
    this.parts.push(b);
    return this;
  }
  u8(v) {
    return this.number('setUint8', 1, v);
  }
  u32(v) {
    return this.number('setUint32', 4, v);
  }
  u64(v) {
    return this.number('setBigUint64', 8, BigInt(v));
  }
  string(text) {
    const bytes = new TextEncoder().encode(text);
    this.u64(bytes.length);
    this.parts.push(bytes);
    return this;
  }
  /** One value of `type` (arrays: { itemType, items }); a type code GGUF does not define is written as a float64. */
  value(type, v) {
    switch (type) {
      case T.bool:
        return this.u8(v ? 1 : 0);
      case T.string:
        return this.string(v);
      case T.array:
        this.u32(v.itemType).u64(v.items.length);
        for (const item of v.items) this.value(v.itemType, item);
        return this;
      default: {
        const [setter, size] = FIXED_SIZE_TYPES[type] ?? FIXED_SIZE_TYPES[T.float64];
        return this.number(setter, size, setter.startsWith('setBig') ? BigInt(v) : v);
      }
    }
  }
  bytes() {
    const out = new Uint8Array(this.parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/**
 * A GGUF file: `metadata` as [key, type, value] triples, `tensors` as names (each a 1-D f32 tensor
 * of 4 items at offset 0), `version` 3 unless given.
 */
export function ggufBytes(metadata, tensors = [], { version = 3 } = {}) {
  const w = new ByteWriter().raw([0x47, 0x47, 0x55, 0x46]).u32(version).u64(tensors.length).u64(metadata.length);
  for (const [key, type, value] of metadata) w.string(key).u32(type).value(type, value);
  for (const name of tensors) w.string(name).u32(1).u64(4).u32(0).u64(0);
  return w.bytes();
}

/**
 * The metadata of one architecture as ggufBytes takes it: general.architecture, then each [key, type,
 * value] of `entries` with its key under the architecture's name (context_length → arch.context_length).
 */
export function architectureEntries(architecture, entries) {
  return [
    ['general.architecture', T.string, architecture],
    ...entries.map(([key, type, value]) => [`${architecture}.${key}`, type, value]),
  ];
}

/** A Llama-3.1-8B-like header: llama, 131,072 tokens, base 500,000, 128k tokens skipped, rope_freqs. */
export function llamaHeader({ tokens = 128 } = {}) {
  return ggufBytes(
    [
      ['general.architecture', T.string, 'llama'],
      ['general.name', T.string, 'Meta Llama 3.1 8B Instruct'],
      ['llama.block_count', T.uint32, 32],
      ['llama.context_length', T.uint32, 131072],
      ['llama.embedding_length', T.uint32, 4096],
      ['llama.feed_forward_length', T.uint32, 14336],
      ['llama.attention.head_count', T.uint32, 32],
      ['llama.attention.head_count_kv', T.uint32, 8],
      ['llama.rope.freq_base', T.float32, 500000],
      ['llama.attention.layer_norm_rms_epsilon', T.float32, 1e-5],
      ['llama.rope.dimension_count', T.uint32, 128],
      ['tokenizer.ggml.model', T.string, 'gpt2'],
      [
        'tokenizer.ggml.tokens',
        T.array,
        { itemType: T.string, items: Array.from({ length: tokens }, (_, i) => `tok${i}`) },
      ],
      ['tokenizer.ggml.token_type', T.array, { itemType: T.int32, items: Array.from({ length: tokens }, () => 1) }],
      ['tokenizer.ggml.bos_token_id', T.uint32, 128000],
    ],
    ['rope_freqs.weight', 'token_embd.weight', 'blk.0.attn_q.weight'],
  );
}

/** A Qwen2.5-7B-Instruct-with-YaRN-like header. */
export function qwenYarnHeader() {
  return ggufBytes([
    ['general.architecture', T.string, 'qwen2'],
    ['general.name', T.string, 'Qwen2.5 7B Instruct'],
    ['qwen2.block_count', T.uint32, 28],
    ['qwen2.context_length', T.uint32, 131072],
    ['qwen2.embedding_length', T.uint32, 3584],
    ['qwen2.attention.head_count', T.uint32, 28],
    ['qwen2.attention.head_count_kv', T.uint32, 4],
    ['qwen2.rope.freq_base', T.float32, 1000000],
    ['qwen2.rope.scaling.type', T.string, 'yarn'],
    ['qwen2.rope.scaling.factor', T.float32, 4],
    ['qwen2.rope.scaling.original_context_length', T.uint32, 32768],
    ['tokenizer.ggml.merges', T.array, { itemType: T.string, items: ['a b', 'c d'] }],
  ]);
}

/** A Gemma-3-4B-like header: global base 1,000,000, linear ×8, local layers of window 1,024. */
export function gemmaHeader() {
  return ggufBytes([
    ['general.architecture', T.string, 'gemma3'],
    ['general.name', T.string, '<img src=x onerror="window.__ggufInjected = 1"> Gemma 3 4B'],
    ['gemma3.context_length', T.uint32, 131072],
    ['gemma3.embedding_length', T.uint32, 2560],
    ['gemma3.block_count', T.uint32, 34],
    ['gemma3.attention.head_count', T.uint32, 8],
    ['gemma3.attention.head_count_kv', T.uint32, 4],
    ['gemma3.attention.key_length', T.uint32, 256],
    ['gemma3.attention.value_length', T.uint32, 256],
    ['gemma3.rope.freq_base', T.float32, 1000000],
    ['gemma3.rope.scaling.type', T.string, 'linear'],
    ['gemma3.rope.scaling.factor', T.float32, 8],
    ['gemma3.attention.sliding_window', T.uint32, 1024],
    ['gemma3.final_logit_softcapping', T.float64, 30],
    ['general.flags', T.array, { itemType: T.bool, items: [true, false] }],
    ['general.big', T.int64, -5],
  ]);
}
