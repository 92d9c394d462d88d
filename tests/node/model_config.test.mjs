// The config.json reader through its JavaScript binding (readModelConfig in dist/engine.mjs):
// every preset, every broken fixture with the same message as natively, bad arguments, and
// the module still answering after each error.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import {
  modelCardSummary,
  runtimeLine,
  shortDescription,
  summaryHeading,
} from '../../web/js/charts/model-card-text.js';
import { loadEngine } from './engine-loader.mjs';

const repo = new URL('../../', import.meta.url);
const presetsDir = new URL('web/presets/', repo);
const brokenDir = new URL('tests/fixtures/configs/broken/', repo);
const readText = (url) => readFileSync(url, 'utf8');

let engine;
before(async () => {
  engine = await loadEngine();
});

// Expected figures per preset: the published lengths (see each file's _source), one row a preset.
const PRESET_COLUMNS = ['scheme', 'ropeType', 'trained', 'advertised', 'stretch', 'pairs'];
const PRESET_ROWS = {
  gpt2: ['learned', null, 1024, 1024, 1, 0],
  'bert-base-uncased': ['learned', null, 512, 512, 1, 0],
  'llama-2-7b': ['rope', 'default', 4096, 4096, 1, 64],
  'llama-3.1-8b': ['rope', 'llama3', 8192, 131072, 16, 64],
  'mistral-7b-v0.1': ['rope', 'default', 32768, 32768, 1, 64],
  'qwen2-7b-instruct': ['rope', 'default', 32768, 32768, 1, 64],
  'yarn-llama-2-7b-64k': ['rope', 'yarn', 4096, 65536, 16, 64],
  'phi-3.5-mini-instruct': ['rope', 'longrope', 4096, 131072, 32, 48],
  'opt-125m': ['learned', null, 2048, 2048, 1, 0],
  't5-v1_1-base': ['relative', null, 0, 0, 1, 0],
  'modernbert-base': ['rope', 'default', 8192, 8192, 1, 32],
  'deepseek-v3': ['rope', 'yarn', 4096, 163840, 40, 32],
  'qwen2.5-7b-instruct-yarn': ['rope', 'yarn', 32768, 32768, 1, 64],
  'mamba-130m': ['none', null, 0, 0, 1, 0],
  'bloom-560m': ['alibi', null, 0, 0, 1, 0],
};
const PRESETS = Object.fromEntries(
  Object.entries(PRESET_ROWS).map(([id, row]) => [id, Object.fromEntries(PRESET_COLUMNS.map((c, i) => [c, row[i]]))]),
);

describe('presets through the binding', () => {
  test('index.json lists exactly the preset files, each with a Hugging Face source', () => {
    const index = JSON.parse(readText(new URL('index.json', presetsDir)));
    assert.deepEqual(index.presets.map((p) => p.id).sort(), Object.keys(PRESETS).sort());
    for (const p of index.presets) {
      assert.equal(typeof p.label, 'string');
      const config = JSON.parse(readText(new URL(p.file, presetsDir)));
      assert.match(config._source, /^https:\/\/huggingface\.co\/.+\/config\.json$/);
    }
  });

  for (const [id, e] of Object.entries(PRESETS)) {
    test(`${id}: scheme, lengths and per-pair arrays`, () => {
      const r = engine.readModelConfig(readText(new URL(`${id}.json`, presetsDir)), 1000);
      assert.equal(r.scheme, e.scheme);
      assert.equal(r.ropeType, e.ropeType);
      assert.equal(r.trainedLength, e.trained);
      assert.equal(r.advertisedLength, e.advertised);
      assert.equal(r.stretch, e.stretch);
      for (const key of ['invFreq', 'baseInvFreq', 'wavelengths', 'baseWavelengths']) {
        assert.ok(r[key] instanceof Float64Array, key);
        assert.equal(r[key].length, e.pairs, key);
      }
      assert.ok(r.beyond instanceof Uint8Array);
      assert.equal(r.beyond.length, e.pairs);
      assert.equal(r.beyondCount, 0, 'a 1000-token prompt is inside every preset');
      assert.ok(Array.isArray(r.notes));
      // Wavelength is 2π/θ for every pair (relative 1e-12: one division apart).
      r.invFreq.forEach((theta, i) => {
        assert.ok(Math.abs(r.wavelengths[i] * theta - 2 * Math.PI) < 1e-12 * 2 * Math.PI, `pair ${i}`);
      });
    });
  }

  test('Llama 3.1: fast pairs unchanged, slow pairs divided by 8, base 500000', () => {
    const r = engine.readModelConfig(readText(new URL('llama-3.1-8b.json', presetsDir)), 8192);
    assert.equal(r.base, 500000);
    assert.equal(r.scalingFactor, 8);
    assert.equal(r.invFreq[0], r.baseInvFreq[0]);
    assert.ok(Math.abs(r.invFreq[63] * 8 - r.baseInvFreq[63]) <= 1e-15 * r.baseInvFreq[63]);
  });

  test('a prompt past training flags pairs; GPT-2 past its table says so', () => {
    const llama = engine.readModelConfig(readText(new URL('llama-2-7b.json', presetsDir)), 8192);
    assert.ok(llama.beyondCount > 0);
    assert.equal(
      llama.beyondCount,
      llama.beyond.reduce((a, b) => a + b, 0),
    );
    assert.equal(llama.promptBeyondTrained, true);
    const gpt2 = engine.readModelConfig(readText(new URL('gpt2.json', presetsDir)), 2048);
    assert.equal(gpt2.promptBeyondAdvertised, true);
  });
});

describe('broken configs through the binding', () => {
  const { expected } = JSON.parse(readText(new URL('expected.json', brokenDir)));
  const files = readdirSync(brokenDir).filter((f) => f !== 'expected.json');

  test('the corpus has at least 30 files, each with an expected message', () => {
    assert.ok(files.length >= 30);
    assert.deepEqual(files.sort(), Object.keys(expected).sort());
  });

  // A JavaScript string cannot carry invalid UTF-8: decoding turns the 0xFF byte into U+FFFD
  // before the engine sees it, so that one file is checked natively and, here, for what the
  // decoded text becomes (a model_type no family has).
  const BYTES_ONLY = new Set(['invalid-utf8.json']);

  for (const file of files.filter((f) => !BYTES_ONLY.has(f))) {
    test(`${file} → its message, then the module still works`, () => {
      const text = readText(new URL(file, brokenDir));
      assert.throws(
        () => engine.readModelConfig(text, 100),
        (error) => {
          assert.ok(error instanceof Error);
          assert.ok(error.message.includes(expected[file]), `${file}: "${error.message}" lacks "${expected[file]}"`);
          return true;
        },
      );
      const after = engine.readModelConfig(readText(new URL('gpt2.json', presetsDir)), 10);
      assert.equal(after.trainedLength, 1024);
    });
  }

  test('invalid-utf8.json decoded by JavaScript is still refused', () => {
    const text = readText(new URL('invalid-utf8.json', brokenDir));
    assert.ok(text.includes('\uFFFD'));
    assert.throws(() => engine.readModelConfig(text, 100), /config names no position scheme this reader knows/);
  });

  test('over 1 MiB and 100,000 open brackets are refused without a crash', () => {
    const big = `{"model_type": "gpt2", "n_positions": 1024, "pad": "${'x'.repeat(1 << 20)}"}`;
    assert.throws(() => engine.readModelConfig(big, 10), /config must be at most 1 MiB \(1048576 bytes\), got/);
    assert.throws(() => engine.readModelConfig('['.repeat(100000), 10), /deeper than 64 levels/);
    assert.equal(engine.readModelConfig(readText(new URL('gpt2.json', presetsDir)), 10).scheme, 'learned');
  });
});

describe('bad arguments', () => {
  const gpt2 = () => readText(new URL('gpt2.json', presetsDir));
  test('jsonText must be a string', () => {
    assert.throws(() => engine.readModelConfig({ model_type: 'gpt2' }, 10), /jsonText must be a string/);
    assert.throws(() => engine.readModelConfig(undefined, 10), /jsonText must be a string/);
  });
  test('promptLength must be a whole number in range', () => {
    assert.throws(() => engine.readModelConfig(gpt2(), 'ten'), /promptLength/);
    assert.throws(() => engine.readModelConfig(gpt2(), 0), /promptLength/);
    assert.throws(() => engine.readModelConfig(gpt2(), 2.5), /promptLength/);
    assert.throws(() => engine.readModelConfig(gpt2(), NaN), /promptLength/);
    assert.throws(() => engine.readModelConfig(gpt2(), 2 ** 31), /promptLength/);
    assert.equal(engine.readModelConfig(gpt2(), 10).promptLength, 10);
  });
});

// One test per family: the complete preset through the binding, the numbers checked against the
// family's own formula, and the sentences the card shows for it (model-card-text.js).
describe('every family the card explains', () => {
  const read = (id, prompt) => engine.readModelConfig(readText(new URL(`${id}.json`, presetsDir)), prompt);
  const summary = (r) => Object.fromEntries(modelCardSummary(r).map(({ term, text }) => [term, text]));
  // Relative 1e-12: the engine and this re-derivation are one or two roundings apart in float64.
  const close = (a, b) => Math.abs(a - b) <= 1e-12 * Math.abs(b);

  test('learned table, OPT: 2,048 positions in a table of 2,050 rows', () => {
    const r = read('opt-125m', 3000);
    assert.equal(r.learnedTableRows, 2050);
    assert.equal(r.learnedOffset, 2);
    const s = summary(r);
    assert.match(s.Scheme, /2,048 of them \(the table holds 2,050 rows: this family shifts every position by 2/);
    assert.match(s['Your prompt'], /3,000 tokens is 952 more than the table has rows/);
  });

  test('relative buckets, T5: 16 per direction, 0–7 exact, reach 128', () => {
    const r = read('t5-v1_1-base', 512);
    assert.equal(r.relativeBuckets, 32);
    assert.equal(r.relativeExactEncoder, 8);
    assert.equal(r.relativeExactDecoder, 16);
    assert.equal(r.relativeMaxDistance, 128);
    const s = summary(r);
    assert.match(
      s.Scheme,
      /32 buckets \(relative_attention_num_buckets\): the encoder gives 16 to each direction, distances 0–7 one bucket each/,
    );
    assert.match(s['Your prompt'], /distances from 128 to 511 all land in one bucket/);
    assert.match(summary(read('t5-v1_1-base', 100))['Your prompt'], /every distance in it \(at most 99\) falls inside/);
  });

  test('global/local RoPE, ModernBERT: base 160,000 globally, 10,000 in 128-token windows', () => {
    const r = read('modernbert-base', 8192);
    assert.equal(r.base, 160000);
    assert.equal(r.localBase, 10000);
    r.localInvFreq.forEach((theta, i) => assert.ok(close(theta, 10000 ** (-(2 * i) / 64)), `local pair ${i}`));
    r.invFreq.forEach((theta, i) => assert.ok(close(theta, 160000 ** (-(2 * i) / 64)), `global pair ${i}`));
    assert.match(
      summary(r)['Local layers'],
      /one layer in every 3 is global, the others local\. A local layer attends only within a window of 128 tokens and turns its pairs at base 10,000 \(the global layers use 160,000\)/,
    );
  });

  test('MLA + YaRN, DeepSeek-V3: 32 pairs of qk_rope_head_dim 64, softmax × mscale²', () => {
    const r = read('deepseek-v3', 4096);
    assert.equal(r.rotaryDim, 64);
    assert.equal(r.mlaQkHeadDim, 192);
    const m = 0.1 * Math.log(40) + 1;
    assert.ok(close(r.softmaxScaleFactor, m * m));
    assert.equal(r.attentionFactor, 1);
    const s = summary(r);
    assert.match(
      s.Scheme,
      /32 rotary pairs turn the qk_rope_head_dim 64 dimensions of each 192-dimensional query and key; the other 128 \(qk_nope_head_dim\) carry no position/,
    );
    assert.match(s.Stretch, /softmax scale is also multiplied by 1\.874/);
    assert.equal(s['Runtimes disagree'], undefined, 'the runtimes agree on this config');
    assert.match(s.Lengths, /advertised 163,840 \(max_position_embeddings\), 40× longer/);
  });

  test('YaRN as Qwen2.5’s card says: a line of its own where runtimes disagree', () => {
    const r = read('qwen2.5-7b-instruct-yarn', 100000);
    assert.equal(r.scalingFactor, 4);
    assert.deepEqual(
      r.runtimeReadings.map((x) => [x.runtime, x.factor, x.length]),
      [
        ['transformers 5', 4, 32768],
        ['transformers 4.4x–4.5x', 1, 32768],
        ['vLLM', 4, 131072],
      ],
    );
    assert.equal(summary(r)['Runtimes disagree'], runtimeLine(r.runtimeReadings));
    assert.match(
      summary(r)['Runtimes disagree'],
      /transformers 4\.4x–4\.5x uses factor 1, takes 32,768 tokens as the limit; vLLM uses factor 4, cos and sin × 1\.139, takes 131,072 tokens as the limit/,
    );
  });

  test('ALiBi, BLOOM: no position vectors, and no length stated', () => {
    const r = read('bloom-560m', 4096);
    assert.equal(r.scheme, 'alibi');
    assert.equal(r.headDim, 64);
    const s = summary(r);
    assert.match(
      s.Scheme,
      /^ALiBi \(model_type “bloom”\): no position vectors; each score is lowered in proportion to the distance/,
    );
    assert.equal(s['Trained length'], 'the config states none.');
  });

  test('none, Mamba: no positions, no table, no frequencies', () => {
    const r = read('mamba-130m', 20000);
    assert.equal(r.invFreq.length, 0);
    const s = summary(r);
    assert.match(s.Scheme, /none \(model_type “mamba”\): a state-space model/);
    assert.match(s.Limit, /nothing in the config caps the length/);
    assert.match(shortDescription(r, 'Mamba'), /no position encoding/);
  });

  test('a prompt of one token reads “1 token”', () => {
    const r = read('gpt2', 1);
    assert.equal(summaryHeading('GPT-2', r), 'GPT-2, for a prompt of 1 token:');
    assert.match(summary(r)['Your prompt'], /^1 token fits in the table/);
  });
});

// The reader ships as a module of its own (engine-config.wasm) so the first screen waits only for
// the kernels (engine.wasm); the page loads it when the model card mounts.
describe('the reader as a module of its own', () => {
  const dist = new URL(`${process.env.POSITIONAL_DIST ?? new URL('dist/', repo).pathname}/`, 'file:');
  const bytes = (name) => readFileSync(new URL(name, dist));
  const fresh = async (options) => (await import(new URL('engine.mjs', dist).href)).default(options);

  test('the kernels module does not carry it; the reader module carries nothing else', async () => {
    const { default: createCore } = await import(new URL('engine-core.mjs', dist).href);
    const core = await createCore({ wasmBinary: bytes('engine.wasm') });
    assert.equal(typeof core.readModelConfig, 'undefined');
    assert.equal(typeof core.sinusoidalEncoding, 'function');
    const { default: createConfig } = await import(new URL('engine-config.mjs', dist).href);
    const config = await createConfig({ wasmBinary: bytes('engine-config.wasm') });
    assert.equal(typeof config.readModelConfig, 'function');
    assert.equal(typeof config.sinusoidalEncoding, 'undefined');
  });

  test('readModelConfig says how to load it until loadModelConfigReader() has, then reads as the loaded engine does', async () => {
    const lazy = await fresh({ wasmBinary: bytes('engine.wasm'), modelConfigWasmBinary: bytes('engine-config.wasm') });
    const gpt2 = readText(new URL('gpt2.json', presetsDir));
    assert.throws(() => lazy.readModelConfig(gpt2, 10), /readModelConfig: .*await engine\.loadModelConfigReader\(\)/);
    assert.equal(lazy.ropeFrequencies(4, 10000)[1], 0.01, 'the kernels answer meanwhile');
    const first = lazy.loadModelConfigReader();
    assert.equal(lazy.loadModelConfigReader(), first, 'one load, however often it is asked for');
    await first;
    assert.deepEqual(lazy.readModelConfig(gpt2, 10), engine.readModelConfig(gpt2, 10));
    // The facade's checks and the error rethrow hold for the loaded reader as for the kernels.
    assert.throws(() => lazy.readModelConfig(gpt2, 0), /readModelConfig: promptLength/);
    assert.throws(() => lazy.readModelConfig('{', 10), /^Error: readModelConfig: /);
    await lazy.loadModelConfigReader(); // resolves again once loaded
  });

  test('a reader that fails to load says so, leaves the kernels working, and may be tried again', async () => {
    const broken = await fresh({ wasmBinary: bytes('engine.wasm'), modelConfigWasmBinary: new Uint8Array([0, 1, 2]) });
    await assert.rejects(
      broken.loadModelConfigReader(),
      /loadModelConfigReader: the model-config module could not be loaded/,
    );
    assert.throws(() => broken.readModelConfig('{}', 10), /loadModelConfigReader/);
    assert.equal(broken.ropeFrequencies(4, 10000)[0], 1);
    await assert.rejects(broken.loadModelConfigReader(), /could not be loaded/, 'a second try runs again');
  });
});
