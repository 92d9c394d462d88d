// The GGUF header reader (web/js/charts/model-card/gguf-header.js) and its mapping to a config.json
// (web/js/charts/model-card/gguf-config.js): headers the tests write themselves (tests/support/gguf-writer.mjs),
// Llama-, Qwen2-with-YaRN- and Gemma-3-like; every cut of a file; hostile lengths, counts and types;
// and the mapped configs read by the engine's own model reader.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { GGUF_LIMITS, readGgufHeader, startsWithGgufMagic } from '../../web/js/charts/model-card/gguf-header.js';
import { configFromGguf } from '../../web/js/charts/model-card/gguf-config.js';
import {
  ByteWriter,
  T,
  architectureEntries,
  gemmaHeader,
  ggufBytes,
  llamaHeader,
  qwenYarnHeader,
} from '../support/gguf-writer.mjs';
import { loadEngine } from './engine-loader.mjs';

const blob = (bytes) => new Blob([bytes]);
/** What configFromGguf makes of a header holding `entries` (as ggufBytes takes them). */
const ggufConfig = async (entries) => configFromGguf(await readGgufHeader(blob(ggufBytes(entries))));

/** A Blob-like file of `size` bytes whose first bytes are `head` (zeros after), counting what is fetched. */
function countingFile(head, size) {
  const reads = [];
  return {
    size,
    reads,
    slice(start, end) {
      reads.push([start, end]);
      return {
        arrayBuffer: async () => {
          const out = new Uint8Array(end - start);
          if (start < head.length) out.set(head.subarray(start, Math.min(end, head.length)));
          return out.buffer;
        },
      };
    },
  };
}
const fetched = (file) => file.reads.reduce((n, [s, e]) => n + (e - s), 0);

async function rejects(bytes, pattern, options) {
  await assert.rejects(readGgufHeader(blob(bytes), options), (error) => {
    assert.ok(error instanceof Error, `threw ${typeof error}`);
    assert.match(error.message, pattern);
    return true;
  });
}

/** A header up to the first key's value type, for hostile values: magic, v3, 0 tensors, 1 key. */
const oneKey = (key = 'general.x') => new ByteWriter().raw([0x47, 0x47, 0x55, 0x46]).u32(3).u64(0).u64(1).string(key);

/** A header up to the first item of general.x, an array that says it holds `count` items of type `itemType`. */
const arrayHeader = (itemType, count) => oneKey().u32(T.array).u32(itemType).u64(count);

describe('readGgufHeader: well-formed headers', () => {
  test('a Llama-like header: values typed, float32 as its shortest decimal, string arrays counted, tensor names listed', async () => {
    const header = await readGgufHeader(blob(llamaHeader()));
    assert.equal(header.version, 3);
    assert.equal(header.tensorCount, 3);
    const m = header.metadata;
    assert.equal(m.get('general.architecture'), 'llama');
    assert.equal(m.get('llama.context_length'), 131072);
    assert.equal(m.get('llama.rope.freq_base'), 500000);
    assert.equal(m.get('llama.attention.layer_norm_rms_epsilon'), 1e-5);
    assert.deepEqual(m.get('tokenizer.ggml.tokens'), { type: 'array', itemType: 'string', count: 128 });
    assert.equal(m.get('tokenizer.ggml.token_type').length, 128);
    assert.deepEqual(header.tensorNames, ['rope_freqs.weight', 'token_embd.weight', 'blk.0.attn_q.weight']);
    assert.equal(header.headerBytes, llamaHeader().length);
  });

  test('every value type reads back; version 2 is read too', async () => {
    const values = [
      ['a', T.uint8, 255],
      ['b', T.int8, -128],
      ['c', T.uint16, 65535],
      ['d', T.int16, -32768],
      ['e', T.uint32, 4294967295],
      ['f', T.int32, -2147483648],
      ['g', T.float32, 0.1],
      ['h', T.bool, true],
      ['i', T.string, 'Qwen2.5 “7B” 通义'],
      ['j', T.uint64, 2 ** 53 + 2],
      ['k', T.int64, -(2 ** 40)],
      ['l', T.float64, Math.PI],
      ['m', T.array, { itemType: T.float32, items: [1.5, 0.25] }],
    ];
    const header = await readGgufHeader(blob(ggufBytes(values, [], { version: 2 })));
    assert.equal(header.version, 2);
    const got = Object.fromEntries(header.metadata);
    assert.deepEqual(got, {
      a: 255,
      b: -128,
      c: 65535,
      d: -32768,
      e: 4294967295,
      f: -2147483648,
      g: 0.1,
      h: true,
      i: 'Qwen2.5 “7B” 通义',
      j: 2n ** 53n + 2n,
      k: -(2 ** 40),
      l: Math.PI,
      m: [1.5, 0.25],
    });
  });

  test('a 150,000-token vocabulary is counted, not kept, and long number arrays are skipped without being fetched', async () => {
    const head = ggufBytes([
      ['general.architecture', T.string, 'llama'],
      [
        'tokenizer.ggml.tokens',
        T.array,
        { itemType: T.string, items: Array.from({ length: 150000 }, (_, i) => `t${i}`) },
      ],
      ['tokenizer.ggml.scores', T.array, { itemType: T.float32, items: new Array(2_000_000).fill(0) }],
      ['llama.context_length', T.uint32, 8192],
    ]);
    const file = countingFile(head, head.length + 4 * 2 ** 30); // 4 GiB of tensor data after the header
    const header = await readGgufHeader(file);
    assert.equal(header.metadata.get('tokenizer.ggml.tokens').count, 150000);
    assert.deepEqual(header.metadata.get('tokenizer.ggml.scores'), {
      type: 'array',
      itemType: 'float32',
      count: 2_000_000,
    });
    assert.equal(header.metadata.get('llama.context_length'), 8192);
    // The 8 MB of scores are stepped over, and the window reads at most one chunk (1 MiB) past the header.
    assert.ok(fetched(file) < head.length - 8_000_000 + 3 * 2 ** 20, `fetched ${fetched(file)} bytes`);
    assert.ok(Math.max(...file.reads.map(([, e]) => e)) <= head.length + 2 ** 20);
  });

  test('startsWithGgufMagic tells a GGUF file from a config.json by its first bytes', () => {
    assert.ok(startsWithGgufMagic(llamaHeader().subarray(0, 4)));
    assert.ok(!startsWithGgufMagic(new TextEncoder().encode('{"model_type": "llama"}')));
    assert.ok(!startsWithGgufMagic(new Uint8Array([0x47, 0x47])));
  });
});

describe('readGgufHeader: cut short or hostile', () => {
  test('every prefix of a small file is a clean Error naming where it ends; the whole file reads', async () => {
    const bytes = llamaHeader({ tokens: 6 });
    for (let n = 0; n < bytes.length; n++) {
      await assert.rejects(readGgufHeader(blob(bytes.subarray(0, n))), (error) => {
        assert.ok(error instanceof Error);
        assert.match(
          error.message,
          /^GGUF: the file ends at byte [\d,]+, inside .+ at byte offset [\d,]+/,
          `prefix ${n}`,
        );
        return true;
      });
    }
    assert.equal((await readGgufHeader(blob(bytes))).tensorNames.length, 3);
  });

  test('wrong magic, and versions other than 2 and 3', async () => {
    await rejects(
      new TextEncoder().encode('{"model_type": "llama"}'),
      /not a GGUF file: it starts with the bytes 7b 22 6d 6f/,
    );
    await rejects(ggufBytes([], [], { version: 1 }), /version 1 at byte offset 4 is not read/);
    await rejects(ggufBytes([], [], { version: 4 }), /version 4 at byte offset 4 is not read/);
  });

  test('counts of keys and tensors beyond the caps are refused before any loop', async () => {
    const head = (tensors, keys) =>
      new ByteWriter().raw([0x47, 0x47, 0x55, 0x46]).u32(3).u64(tensors).u64(keys).bytes();
    await rejects(head(0, 2n ** 40n), /metadata key count at byte offset 16 is 1,099,511,627,776; at most 65,536/);
    await rejects(head(2n ** 64n - 1n, 0), /tensor count at byte offset 8 is more than 2\^53; at most 1,048,576/);
  });

  test('key and string lengths beyond the file, the key cap or the header cap', async () => {
    const hugeKey = new ByteWriter()
      .raw([0x47, 0x47, 0x55, 0x46])
      .u32(3)
      .u64(0)
      .u64(1)
      .u64(2n ** 63n)
      .bytes();
    await rejects(hugeKey, /key 0 at byte offset 24 says it is more than 2\^53 bytes long; at most 65,535/);
    await rejects(
      oneKey().u32(T.string).u64(1000).raw([65, 66]).bytes(),
      /the file ends at byte 55, inside the value of general.x at byte offset 53 \(it needs 1,000 bytes\)/,
    );
    const long = oneKey().u32(T.string).string('x'.repeat(5000)).bytes();
    await rejects(
      long,
      /the header goes past the first 1,000 bytes .*: the value of general.x at byte offset 53 needs 5,000 bytes/,
      { limit: 1000 },
    );
  });

  test('unknown value types, arrays of arrays, bad bools, invalid UTF-8, repeated keys', async () => {
    await rejects(oneKey().u32(13).bytes(), /the key "general.x" at byte offset 41 has the unknown value type 13/);
    await rejects(arrayHeader(99, 1).bytes(), /the array general.x at byte offset 45 has the unknown value type 99/);
    await rejects(arrayHeader(T.array, 1).bytes(), /holds arrays, which this reader does not read/);
    await rejects(oneKey().u32(T.bool).u8(2).bytes(), /the value of general.x at byte offset 45 is a bool of value 2/);
    await rejects(
      oneKey().u32(T.string).u64(2).raw([0xc3, 0x28]).bytes(),
      /the value of general.x at byte offset 45 is not valid UTF-8/,
    );
    const twice = ggufBytes([
      ['a', T.uint8, 1],
      ['a', T.uint8, 2],
    ]);
    await rejects(twice, /key 1 at byte offset 38, "a", repeats an earlier key/);
  });

  test('array counts beyond what is left are refused at once, never looped over or allocated', async () => {
    await rejects(
      arrayHeader(T.uint8, 2n ** 60n).bytes(),
      /the file ends at byte 57, inside the array general.x at byte offset 49: it says it holds more than 2\^53 items of uint8/,
    );
    await rejects(arrayHeader(T.string, 2n ** 50n).bytes(), /items of string, at least [\d,]+ bytes, and 0 are left/);
    // A string item whose length runs past the end.
    await rejects(
      arrayHeader(T.string, 1)
        .u64(2n ** 62n)
        .bytes(),
      /the file ends at byte 65, inside item 0 of general.x at byte offset 65 \(it needs more than 2\^53 bytes\)/,
    );
    // Within a 4 GiB file, an array bigger than the 16 MiB cap is refused by the cap.
    const head = arrayHeader(T.uint32, 2n ** 30n).bytes();
    await assert.rejects(
      readGgufHeader(countingFile(head, 2 ** 33)),
      /the header goes past the first 16,777,216 bytes, the most this reader reads: the array general.x at byte offset 49 says it holds 1,073,741,824 items of uint32/,
    );
  });

  test('tensor infos: too many dimensions, and names past the end', async () => {
    const base = () => new ByteWriter().raw([0x47, 0x47, 0x55, 0x46]).u32(3).u64(1).u64(0);
    await rejects(base().string('w').u32(5).bytes(), /tensor w at byte offset 33 has 5 dimensions; at most 4/);
    await rejects(
      base().string('w').u32(2).u64(4).bytes(),
      /the file ends at byte 45, inside the shape, type and offset of tensor w at byte offset 37/,
    );
  });

  test('a fault sweep of 3,000 mutants of three headers: each reads or is refused with an Error, none hangs or escapes', async () => {
    // Deterministic mutants (a fixed-seed xorshift): a flipped byte, a byte set to 0 or 255, a
    // little-endian u64 overwritten with 0, 1, 2^32, 2^53 or 2^63 at any offset (counts, lengths,
    // types), or the file cut short. Every outcome must be a header object or a plain Error with
    // the GGUF prefix; a TypeError or RangeError from the reader's own code is a bug. A mutant that
    // reads is passed on to configFromGguf and the engine's reader, which must also answer or refuse.
    let seed = 0x2545f491;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 2 ** 32;
    };
    const engine = await loadEngine();
    const outcomes = { read: 0, refused: 0, mapped: 0, cardRead: 0 };
    const bigs = [0n, 1n, 2n ** 32n, 2n ** 53n, 2n ** 63n];
    for (const original of [llamaHeader(), qwenYarnHeader(), gemmaHeader()]) {
      for (let m = 0; m < 1000; m++) {
        const bytes = Uint8Array.from(original);
        const at = Math.floor(next() * bytes.length);
        const kind = m % 4;
        let input = bytes;
        if (kind === 0) bytes[at] ^= 1 << Math.floor(next() * 8);
        else if (kind === 1) bytes[at] = next() < 0.5 ? 0 : 255;
        else if (kind === 2 && at + 8 <= bytes.length)
          new DataView(bytes.buffer).setBigUint64(at, bigs[Math.floor(next() * bigs.length)], true);
        else input = bytes.subarray(0, at);
        const label = `mutant ${m} (kind ${kind} at ${at})`;
        let header;
        try {
          header = await readGgufHeader(blob(input));
          outcomes.read += 1;
        } catch (error) {
          assert.equal(error?.constructor, Error, `${label}: ${error?.stack ?? error}`);
          assert.match(error.message, /^GGUF: /, label);
          outcomes.refused += 1;
          continue;
        }
        let config;
        try {
          ({ config } = configFromGguf(header));
          outcomes.mapped += 1;
        } catch (error) {
          assert.equal(error?.constructor, Error, `${label} mapping: ${error?.stack ?? error}`);
          continue;
        }
        try {
          engine.readModelConfig(JSON.stringify(config), 1000);
          outcomes.cardRead += 1;
        } catch (error) {
          assert.ok(error instanceof Error && error.message.length > 0, `${label} card: ${error}`);
        }
      }
    }
    console.log(`GGUF fault sweep: ${JSON.stringify(outcomes)}`);
    assert.equal(outcomes.read + outcomes.refused, 3000);
    // Both outcomes occur, so the sweep reaches past the first checks and into the mapping.
    assert.ok(outcomes.refused > 100 && outcomes.read > 100 && outcomes.cardRead > 50, JSON.stringify(outcomes));
  });

  test('a header of 10^6 keys is refused by its count; 65,536 real keys, the cap, read', async () => {
    const claimed = new ByteWriter().raw([0x47, 0x47, 0x55, 0x46]).u32(3).u64(0).u64(1_000_000).bytes();
    await rejects(claimed, /metadata key count at byte offset 16 is 1,000,000; at most 65,536/);
    const many = Array.from({ length: 65536 }, (_, i) => [`k.${i}`, T.uint8, i & 255]);
    const header = await readGgufHeader(blob(ggufBytes(many)));
    assert.equal(header.metadata.size, 65536);
    assert.equal(header.metadata.get('k.65535'), 255);
    await rejects(
      ggufBytes([...many, ['k.last', T.uint8, 0]]),
      /metadata key count at byte offset 16 is 65,537; at most 65,536/,
    );
  });

  test('the caps are the documented ones', () => {
    assert.equal(GGUF_LIMITS.headerBytes, 16 * 2 ** 20);
    assert.equal(GGUF_LIMITS.keyBytes, 65535);
  });
});

describe('configFromGguf: the config.json the model card reads', () => {
  test('Llama-like: lengths, heads and base; rope_freqs.weight named as what the card cannot see', async () => {
    const { config, architecture, name, notes } = configFromGguf(await readGgufHeader(blob(llamaHeader())));
    assert.equal(architecture, 'llama');
    assert.equal(name, 'Meta Llama 3.1 8B Instruct');
    assert.deepEqual(config, {
      model_type: 'llama',
      max_position_embeddings: 131072,
      hidden_size: 4096,
      num_attention_heads: 32,
      num_key_value_heads: 8,
      num_hidden_layers: 32,
      rope_theta: 500000,
    });
    assert.ok(
      notes.some((n) => n.includes('rope_freqs.weight') && n.includes('Llama 3')),
      notes.join('\n'),
    );
    assert.ok(notes.some((n) => n.includes('no dynamic NTK')));
  });

  test('Qwen2 with YaRN: the scaling block', async () => {
    const { config, notes } = configFromGguf(await readGgufHeader(blob(qwenYarnHeader())));
    assert.equal(config.model_type, 'qwen2');
    assert.equal(config.rope_theta, 1000000);
    assert.deepEqual(config.rope_scaling, { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 });
    assert.ok(!notes.some((n) => n.includes('rope_freqs')));
  });

  test('Gemma-3-like: model_type gemma3_text, head_dim from key_length, linear ×8, local layers from llama.cpp’s fixed values', async () => {
    const { config, notes, name } = configFromGguf(await readGgufHeader(blob(gemmaHeader())));
    assert.equal(config.model_type, 'gemma3_text');
    assert.equal(config.head_dim, 256);
    assert.equal(config.sliding_window, 1024);
    assert.deepEqual(config.rope_scaling, { rope_type: 'linear', factor: 8 });
    assert.equal(config.rope_local_base_freq, 10000);
    assert.equal(config.sliding_window_pattern, 6);
    assert.ok(name.startsWith('<img'));
    assert.ok(notes.some((n) => n.includes('Gemma 3’s local layers')));
  });

  test('a per-layer sliding-window pattern gives the global layers’ period; YaRN’s log multiplier becomes mscale_all_dim', async () => {
    const pattern = Array.from({ length: 12 }, (_, i) => (i + 1) % 4 !== 0);
    const { config } = await ggufConfig([
      ['general.architecture', T.string, 'gemma3'],
      ['gemma3.rope.freq_base', T.float32, 1000000],
      ['gemma3.rope.freq_base_swa', T.float32, 10000],
      ['gemma3.attention.sliding_window_pattern', T.array, { itemType: T.bool, items: pattern }],
    ]);
    assert.equal(config.sliding_window_pattern, 4);
    const deepseek = await ggufConfig([
      ['general.architecture', T.string, 'deepseek2'],
      ['deepseek2.rope.scaling.type', T.string, 'yarn'],
      ['deepseek2.rope.scaling.factor', T.float32, 40],
      ['deepseek2.rope.scaling.yarn_log_multiplier', T.float32, 0.1],
    ]);
    assert.equal(deepseek.config.model_type, 'deepseek_v2');
    assert.equal(deepseek.config.rope_scaling.mscale_all_dim, 1);
    // MLA widths as llama.cpp's converters write them: older files give the query/key head as
    // key_length (192), newer ones as key_length_mla beside the absorbed key_length (512 + 64).
    for (const widths of [
      [['deepseek2.attention.key_length', T.uint32, 192]],
      [
        ['deepseek2.attention.key_length', T.uint32, 576],
        ['deepseek2.attention.key_length_mla', T.uint32, 192],
      ],
    ]) {
      const { config: mla } = await ggufConfig([
        ['general.architecture', T.string, 'deepseek2'],
        ['deepseek2.embedding_length', T.uint32, 7168],
        ['deepseek2.attention.head_count', T.uint32, 128],
        ['deepseek2.rope.dimension_count', T.uint32, 64],
        ...widths,
      ]);
      assert.equal(mla.qk_rope_head_dim, 64);
      assert.equal(mla.qk_nope_head_dim, 128);
      assert.equal(mla.head_dim, undefined);
      assert.equal(mla.rotary_dim, undefined);
    }
    // Ministral 3: the converter writes llama_4_scaling_beta as attention.temperature_scale.
    const ministral = await ggufConfig([
      ['general.architecture', T.string, 'mistral3'],
      ['mistral3.rope.scaling.type', T.string, 'yarn'],
      ['mistral3.rope.scaling.factor', T.float32, 16],
      ['mistral3.rope.scaling.original_context_length', T.uint32, 16384],
      ['mistral3.attention.temperature_scale', T.float32, 0.125],
    ]);
    assert.equal(ministral.config.rope_scaling.llama_4_scaling_beta, 0.125);
    assert.equal(ministral.config.rope_scaling.original_max_position_embeddings, 16384);
  });

  test('no architecture, a mistyped key, or a scaling type llama.cpp lacks: an Error naming the key', async () => {
    const map = async (metadata) => await ggufConfig(metadata);
    await assert.rejects(map([['general.name', T.string, 'x']]), /general.architecture is missing/);
    await assert.rejects(
      map([
        ['general.architecture', T.string, 'llama'],
        ['llama.context_length', T.string, '4096'],
      ]),
      /llama.context_length must be a finite number \(or a list of them, one per layer\), got the text "4096"/,
    );
    await assert.rejects(
      map([
        ['general.architecture', T.string, 'llama'],
        ['llama.rope.scaling.type', T.string, 'dynamic'],
      ]),
      /llama.rope.scaling.type is "dynamic"; llama.cpp knows none, linear, yarn and longrope/,
    );
  });

  test('a non-finite rope.freq_base is refused naming the key, the rule and the value', async () => {
    const map = async (metadata) => await ggufConfig(metadata);
    for (const [value, shown] of [
      [NaN, 'NaN'],
      [-Infinity, '-Infinity'],
      [Infinity, 'Infinity'],
    ])
      await assert.rejects(
        map([
          ['general.architecture', T.string, 'llama'],
          ['llama.rope.freq_base', T.float32, value],
        ]),
        new RegExp(
          `^Error: GGUF: llama\\.rope\\.freq_base must be a finite number \\(or a list of them, one per layer\\), got ${shown}$`,
        ),
      );
  });

  test('an architecture named __proto__ or constructor is a name like any other, not an Object property', async () => {
    for (const architecture of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const { config } = await ggufConfig([
        ['general.architecture', T.string, architecture],
        [`${architecture}.context_length`, T.uint32, 4096],
      ]);
      assert.equal(config.model_type, architecture);
      assert.equal(config.max_position_embeddings, 4096);
    }
  });

  test('the engine’s own reader reads each mapped config: scheme, base and lengths as the file states them', async () => {
    const engine = await loadEngine();
    const read = async (bytes) =>
      engine.readModelConfig(JSON.stringify(configFromGguf(await readGgufHeader(blob(bytes))).config), 4096);
    const llama = await read(llamaHeader());
    assert.equal(llama.scheme, 'rope');
    assert.equal(llama.base, 500000);
    assert.equal(llama.trainedLength, 131072);
    const qwen = await read(qwenYarnHeader());
    assert.equal(qwen.ropeType, 'yarn');
    assert.equal(qwen.trainedLength, 32768);
    assert.equal(qwen.advertisedLength, 131072);
    const gemma = await read(gemmaHeader());
    assert.equal(gemma.scheme, 'rope');
    assert.equal(gemma.localWindow, 1024);
    assert.equal(gemma.localBase, 10000);
    assert.equal(gemma.globalEvery, 6);
    assert.equal(gemma.scalingFactor, 8);
  });

  test('Granite 4.0-H: Mamba layers from head_count_kv, no RoPE from rope.scaling.finetuned, 2^20 named', async () => {
    // As convert_hf_to_gguf.py writes granite-4.0-h-350m: 0 KV heads marks a Mamba layer.
    const kv = Array.from({ length: 32 }, (_, i) => ([10, 13, 17, 27].includes(i) ? 4 : 0));
    const header = (finetuned) =>
      ggufBytes([
        ['general.architecture', T.string, 'granitehybrid'],
        ['granitehybrid.context_length', T.uint32, 2 ** 20],
        ['granitehybrid.block_count', T.uint32, 32],
        ['granitehybrid.embedding_length', T.uint32, 768],
        ['granitehybrid.attention.head_count', T.uint32, 12],
        ['granitehybrid.attention.head_count_kv', T.array, { itemType: T.uint32, items: kv }],
        ['granitehybrid.rope.freq_base', T.float32, 10000],
        ...(finetuned === undefined ? [] : [['granitehybrid.rope.scaling.finetuned', T.bool, finetuned]]),
      ]);
    const { config, notes } = configFromGguf(await readGgufHeader(blob(header(false))));
    assert.equal(config.model_type, 'granitemoehybrid');
    assert.equal(config.position_embedding_type, 'nope');
    assert.deepEqual(
      config.layer_types.flatMap((type, i) => (type === 'attention' ? [i] : [])),
      [10, 13, 17, 27],
    );
    assert.ok(
      notes.some((note) => note.includes('granitehybrid.context_length is 1,048,576')),
      notes.join('\n'),
    );
    const engine = await loadEngine();
    const r = engine.readModelConfig(JSON.stringify(config), 4096);
    assert.equal(r.scheme, 'none');
    assert.deepEqual(Array.from(r.attentionLayers), [10, 13, 17, 27]);
    // llama.cpp's switch is true when the key is absent: the attention layers then turn RoPE.
    const absent = configFromGguf(await readGgufHeader(blob(header(undefined))));
    assert.equal(absent.config.position_embedding_type, 'rope');
    assert.equal(engine.readModelConfig(JSON.stringify(absent.config), 4096).scheme, 'rope');
    await assert.rejects(
      (async () =>
        await ggufConfig([
          ['general.architecture', T.string, 'granitehybrid'],
          ['granitehybrid.rope.scaling.finetuned', T.uint32, 0],
        ]))(),
      /^Error: GGUF: granitehybrid.rope.scaling.finetuned must be true or false, got 0$/,
    );
  });

  // The layer kinds as the card draws them: type, layers, base, widths, layout, and every frequency.
  const kindsOf = (r) =>
    r.layerKinds.map((k) => ({
      type: k.layerType,
      layers: Array.from(k.layers),
      base: k.base,
      headDim: k.headDim,
      rotaryDim: k.rotaryDim,
      pairLayout: k.pairLayout,
      rotaryPart: k.rotaryPart,
      compressRatio: k.compressRatio,
      topK: k.topK,
      invFreq: Array.from(k.invFreq),
    }));
  const presetText = (file) => readFileSync(new URL(`../../web/presets/${file}`, import.meta.url), 'utf8');

  test('DeepSeek-V4 (deepseek4): compress_ratios, the second base and the indexer read as the config does', async () => {
    // As llama.cpp's converter writes DeepSeek-V4-Flash (conversion/deepseek.py, DeepseekV4Model): the
    // config's compress_ratios as they stand (44 entries, the last the multi-token-prediction layer's).
    const ratios = JSON.parse(presetText('deepseek-v4-flash.json')).compress_ratios;
    const { config } = await ggufConfig(
      architectureEntries('deepseek4', [
        ['context_length', T.uint32, 1048576],
        ['block_count', T.uint32, 43],
        ['embedding_length', T.uint32, 4096],
        ['attention.head_count', T.uint32, 64],
        ['attention.head_count_kv', T.uint32, 1],
        ['attention.key_length', T.uint32, 512],
        ['rope.dimension_count', T.uint32, 64],
        ['rope.freq_base', T.float32, 10000],
        ['attention.sliding_window', T.uint32, 128],
        ['rope.scaling.type', T.string, 'yarn'],
        ['rope.scaling.factor', T.float32, 16],
        ['rope.scaling.original_context_length', T.uint32, 65536],
        ['attention.indexer.head_count', T.uint32, 64],
        ['attention.indexer.key_length', T.uint32, 128],
        ['attention.indexer.top_k', T.uint32, 512],
        ['attention.compress_ratios', T.array, { itemType: T.uint32, items: ratios }],
        ['attention.compress_rope_freq_base', T.float32, 160000],
      ]),
    );
    assert.equal(config.model_type, 'deepseek_v4');
    assert.deepEqual(config.compress_ratios, ratios);
    assert.equal(config.compress_rope_theta, 160000);
    assert.equal(config.qk_rope_head_dim, 64);
    const engine = await loadEngine();
    const fromFile = engine.readModelConfig(JSON.stringify(config), 100000);
    const fromConfig = engine.readModelConfig(presetText('deepseek-v4-flash.json'), 100000);
    assert.deepEqual(fromFile.notUnderstood, []);
    assert.deepEqual(kindsOf(fromFile), kindsOf(fromConfig));
    assert.deepEqual(
      kindsOf(fromFile).map((k) => k.type),
      ['sliding_attention', 'compressed_sparse_attention', 'heavily_compressed_attention', 'indexer'],
    );
  });

  test('GLM-5 (glm-dsa): MLA from key_length_mla, the indexer interleaved as llama.cpp turns it', async () => {
    // As llama.cpp's converter writes GLM-5 (conversion/glm.py, GlmMoeDsaModel over DeepseekV2Model): key_length
    // is the absorbed kv_lora_rank + rope width, key_length_mla the query/key head.
    const { config } = await ggufConfig(
      architectureEntries('glm-dsa', [
        ['context_length', T.uint32, 202752],
        ['block_count', T.uint32, 78],
        ['embedding_length', T.uint32, 6144],
        ['attention.head_count', T.uint32, 64],
        ['attention.key_length', T.uint32, 576],
        ['attention.key_length_mla', T.uint32, 256],
        ['rope.dimension_count', T.uint32, 64],
        ['rope.freq_base', T.float32, 1000000],
        ['attention.indexer.head_count', T.uint32, 32],
        ['attention.indexer.key_length', T.uint32, 128],
        ['attention.indexer.top_k', T.uint32, 2048],
      ]),
    );
    assert.equal(config.model_type, 'glm_moe_dsa');
    assert.equal(config.indexer_rope_interleave, true);
    const engine = await loadEngine();
    const fromFile = engine.readModelConfig(JSON.stringify(config), 400000);
    const fromConfig = engine.readModelConfig(presetText('glm-5.json'), 400000);
    assert.deepEqual(fromFile.notUnderstood, []);
    assert.deepEqual(kindsOf(fromFile), kindsOf(fromConfig));
    assert.equal(fromFile.headDim, 256);
  });

  test('Kimi Linear (kimi-linear): linear-attention layers from head_count_kv, read as the config is', async () => {
    // As llama.cpp's converter writes Kimi-Linear-48B-A3B (conversion/kimi_linear.py): 0 KV heads for a
    // Kimi Delta Attention layer, the head count for an MLA layer (linear_attn_config.full_attn_layers).
    const published = JSON.parse(presetText('kimi-linear-48b-a3b-instruct.json'));
    const full = published.linear_attn_config.full_attn_layers;
    const kv = Array.from({ length: 27 }, (_, i) => (full.includes(i + 1) ? 32 : 0));
    const { config } = await ggufConfig(
      architectureEntries('kimi-linear', [
        ['block_count', T.uint32, 27],
        ['embedding_length', T.uint32, 2304],
        ['attention.head_count', T.uint32, 32],
        ['attention.head_count_kv', T.array, { itemType: T.uint32, items: kv }],
        ['attention.key_length', T.uint32, 576],
        ['attention.key_length_mla', T.uint32, 192],
        ['rope.dimension_count', T.uint32, 64],
      ]),
    );
    assert.equal(config.model_type, 'kimi_linear');
    assert.deepEqual(config.linear_attn_config.full_attn_layers, full);
    const engine = await loadEngine();
    const fromFile = engine.readModelConfig(JSON.stringify(config), 100000);
    const fromConfig = engine.readModelConfig(JSON.stringify(published), 100000);
    assert.deepEqual(fromFile.notUnderstood, []);
    assert.deepEqual(
      [fromFile.scheme, fromFile.recurrentKind, Array.from(fromFile.attentionLayers)],
      [fromConfig.scheme, fromConfig.recurrentKind, Array.from(fromConfig.attentionLayers)],
    );
    assert.deepEqual(Array.from(fromFile.attentionLayers), [3, 7, 11, 15, 19, 23, 26]);
  });

  test('SmolLM3: every fourth layer without RoPE, as llama.cpp fixes it, and the card says why', async () => {
    const { config, notes } = await ggufConfig([
      ['general.architecture', T.string, 'smollm3'],
      ['smollm3.context_length', T.uint32, 65536],
      ['smollm3.block_count', T.uint32, 36],
      ['smollm3.embedding_length', T.uint32, 2048],
      ['smollm3.attention.head_count', T.uint32, 16],
      ['smollm3.rope.freq_base', T.float32, 5000000],
    ]);
    assert.equal(config.model_type, 'smollm3');
    assert.ok(notes.some((note) => note.includes('n_no_rope_layer_step 4')));
    const r = (await loadEngine()).readModelConfig(JSON.stringify(config), 4096);
    const nope = r.layerKinds.find((k) => k.noneReason === 'nope');
    assert.deepEqual(Array.from(nope.layers), [3, 7, 11, 15, 19, 23, 27, 31, 35]);
  });
});
